package lexsig

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTokenize checks that text splits by the shared word rule and is
// lowercased, so that signature terms match what a full-text engine indexed
// (§2.1 "TFIDF": terms are counted on the words of the backlinks).
func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"only punctuation", " -- ... !? ", nil},
		{"mixed case", "The Smithsonian BEHRING Center", []string{"the", "smithsonian", "behring", "center"}},
		{"apostrophe splits", "Don't stop", []string{"don", "t", "stop"}},
		{"hyphen and dot split", "e-mail v2.0", []string{"e", "mail", "v2", "0"}},
		{"digits stay", "Python 3 docs", []string{"python", "3", "docs"}},
		{"unicode letters", "Ärger über Straße", []string{"ärger", "über", "straße"}},
		{"greek capitals", "ΑΘΗΝΑ", []string{"αθηνα"}},
		{"invalid utf-8 separates", "abc\xffdef", []string{"abc", "def"}},
		{"newlines and tabs", "one\ttwo\nthree", []string{"one", "two", "three"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Tokenize(tc.text)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Tokenize(%q) mismatch (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

// TestTokenizeHuge checks that a large input is split without trouble and
// that every word is lowercase.
func TestTokenizeHuge(t *testing.T) {
	text := strings.Repeat("Alpha beta, GAMMA! ", 100_000)
	got := Tokenize(text)
	if len(got) != 300_000 {
		t.Fatalf("len(Tokenize(huge)) = %d, want 300000", len(got))
	}
	if i := slices.IndexFunc(got, func(w string) bool { return w != strings.ToLower(w) }); i >= 0 {
		t.Errorf("Tokenize(huge)[%d] = %q, not lowercase", i, got[i])
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, word, want string
	}{
		{"ascii", "HeLLo", "hello"},
		{"already lower", "hello", "hello"},
		{"empty", "", ""},
		{"german sharp s kept", "STRAẞE", "straße"},
		{"dotted capital i by simple mapping", "İstanbul", "istanbul"},
		{"digits unchanged", "A1B2", "a1b2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.word); got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.word, got, tc.want)
			}
		})
	}
}

// FuzzTokenize checks that any bytes tokenize without panicking into
// non-empty lowercase words that occur in the text, and that counting them
// leaves no stop word.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "Don't STOP", "a\xffb", "İstanbul ΑΘΗΝΑ", "x-y.z_w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lower := strings.ToLower(text)
		for _, w := range Tokenize(text) {
			if w == "" || Normalize(w) != w {
				t.Fatalf("Tokenize(%q) gave %q, not a non-empty lowercase word", text, w)
			}
			if !strings.Contains(lower, w) {
				t.Fatalf("Tokenize(%q) gave %q, which the lowercased text does not hold", text, w)
			}
		}
		for term, n := range Count(Tokenize(text)) {
			if IsStopWord(term) || n < 1 {
				t.Fatalf("Count(Tokenize(%q)) holds %q: %d", text, term, n)
			}
		}
	})
}
