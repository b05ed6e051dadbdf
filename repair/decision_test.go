package repair_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

func TestDecisionsRoundTrip(t *testing.T) {
	for _, d := range []*repair.Decisions{
		{},
		{Decisions: []repair.Decision{{Dead: "https://old.example/a", URI: "https://new.example/<a>&", Decision: repair.Accept}}},
		{Decisions: []repair.Decision{
			{Dead: "https://old.example/a", URI: "https://new.example/a", Decision: repair.Accept},
			{Dead: "https://old.example/b", URI: "", Decision: repair.Reject},
		}},
	} {
		var b bytes.Buffer
		require.NoError(t, d.Write(&b))
		got, err := repair.ReadDecisions(&b)
		require.NoError(t, err)
		want := d.Decisions
		if want == nil {
			want = []repair.Decision{}
		}
		if diff := cmp.Diff(want, got.Decisions); diff != "" {
			t.Errorf("Write then ReadDecisions (-want +got):\n%s", diff)
		}
	}
}

func TestReadDecisionsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"empty", ""},
		{"not JSON", "accept everything"},
		{"a list", `[{"dead": "https://a.example/", "decision": "accept"}]`},
		{"a bad ruling", `{"decisions": [{"dead": "https://a.example/", "decision": "yes"}]}`},
		{"no ruling", `{"decisions": [{"dead": "https://a.example/"}]}`},
		{"no dead URL", `{"decisions": [{"uri": "https://a.example/", "decision": "accept"}]}`},
		{"too large", `{"decisions": [` + strings.Repeat(" ", repair.MaxDecisionsFile) + `]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := repair.ReadDecisions(strings.NewReader(tc.in))
			require.ErrorIs(t, err, repair.ErrDecisions)
		})
	}
}

func TestAcceptedLaterWins(t *testing.T) {
	d := &repair.Decisions{Decisions: []repair.Decision{
		{Dead: "a", URI: "x", Decision: repair.Accept},
		{Dead: "a", URI: "y", Decision: repair.Accept},
		{Dead: "b", URI: "z", Decision: repair.Accept},
		{Dead: "b", Decision: repair.Reject},
	}}
	require.Equal(t, map[string]string{"a": "y"}, d.Accepted())
}

func FuzzReadDecisions(f *testing.F) {
	f.Add(`{"decisions": [{"dead": "https://a.example/", "uri": "https://b.example/", "decision": "accept"}]}`)
	f.Add(`{"decisions": null}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, in string) {
		d, err := repair.ReadDecisions(strings.NewReader(in))
		if err != nil {
			return
		}
		// What it reads, it writes and reads again the same.
		var b bytes.Buffer
		if err := d.Write(&b); err != nil {
			t.Fatal(err)
		}
		again, err := repair.ReadDecisions(&b)
		if err != nil {
			t.Fatalf("reading %q again: %v", b.String(), err)
		}
		if len(again.Decisions) != len(d.Decisions) {
			t.Fatalf("%d decisions, then %d", len(d.Decisions), len(again.Decisions))
		}
	})
}
