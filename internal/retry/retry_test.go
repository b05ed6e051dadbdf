package retry

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAfter covers both forms of RFC 9110 §10.2.3.
func TestAfter(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	most := time.Duration(1<<63 - 1).Truncate(time.Second)
	tests := []struct {
		name  string
		value string
		want  time.Duration
		ok    bool
	}{
		{"empty", "", 0, false},
		{"seconds", "120", 2 * time.Minute, true},
		{"zero", "0", 0, true},
		{"spaces", " 7 ", 7 * time.Second, true},
		{"larger than a Duration", "99999999999999999", most, true},
		{"larger than a uint64", "99999999999999999999", 0, false},
		{"very large", "9999999999999", most, true},
		{"negative", "-5", 0, false},
		{"fraction", "1.5", 0, false},
		{"IMF date ahead", "Wed, 01 May 2024 12:00:30 GMT", 30 * time.Second, true},
		{"RFC 850 date ahead", "Wednesday, 01-May-24 12:01:00 GMT", time.Minute, true},
		{"date in the past", "Wed, 01 May 2024 11:00:00 GMT", 0, true},
		{"garbage", "soon", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := After(tt.value, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("After(%q) = %v, %v, want %v, %v", tt.value, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBackoffDelay(t *testing.T) {
	tests := []struct {
		name        string
		b           Backoff
		n           int
		least, most time.Duration
	}{
		{"first", Backoff{First: 100 * time.Millisecond, Max: time.Second}, 1, 50 * time.Millisecond, 100 * time.Millisecond},
		{"second doubles", Backoff{First: 100 * time.Millisecond, Max: time.Second}, 2, 100 * time.Millisecond, 200 * time.Millisecond},
		{"fourth", Backoff{First: 100 * time.Millisecond, Max: time.Second}, 4, 400 * time.Millisecond, 800 * time.Millisecond},
		{"capped", Backoff{First: 100 * time.Millisecond, Max: time.Second}, 9, 500 * time.Millisecond, time.Second},
		{"far attempts do not overflow", Backoff{First: 100 * time.Millisecond, Max: time.Second}, 500, 500 * time.Millisecond, time.Second},
		{"n below 1 is the first", Backoff{First: 100 * time.Millisecond, Max: time.Second}, -3, 50 * time.Millisecond, 100 * time.Millisecond},
		{"zero value means the defaults", Backoff{}, 1, DefaultFirst / 2, DefaultFirst},
		{"default cap", Backoff{}, 30, DefaultMax / 2, DefaultMax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				d := tt.b.Delay(tt.n)
				require.GreaterOrEqual(t, d, tt.least, "Delay(%d)", tt.n)
				require.LessOrEqual(t, d, tt.most, "Delay(%d)", tt.n)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	for code, want := range map[int]bool{
		200: false, 301: false, 400: false, 401: false, 403: false, 404: false,
		408: true, 429: true, 500: true, 501: false, 502: true, 503: true, 504: true, 505: false, 599: true, 600: false,
	} {
		assert.Equal(t, want, Status(code), "Status(%d)", code)
	}
}

func TestFinal(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"no such host", &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, true},
		{"DNS timeout", &net.DNSError{Err: "timeout", Name: "example.com", IsTimeout: true}, false},
		{"wrapped unknown authority", fmt.Errorf("get: %w", x509.UnknownAuthorityError{}), true},
		{"connection refused", &net.OpError{Op: "dial", Err: errors.New("connection refused")}, false},
		{"other", errors.New("EOF"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Final(tt.err), "Final(%v)", tt.err)
		})
	}
}

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, Sleep(ctx, time.Hour), context.Canceled, "Sleep(canceled, 1h)")
	require.ErrorIs(t, Sleep(ctx, 0), context.Canceled, "Sleep(canceled, 0)")
	require.NoError(t, Sleep(context.Background(), time.Nanosecond))
	require.NoError(t, Sleep(context.Background(), -time.Second))
}

// FuzzAfter checks that no Retry-After value gives a negative wait, and
// that an unreadable one gives none.
func FuzzAfter(f *testing.F) {
	for _, s := range []string{"120", "0", " 7 ", "Wed, 01 May 2024 12:00:30 GMT", "-1", "99999999999999999999", "", "soon"} {
		f.Add(s)
	}
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		if d, ok := After(v, now); d < 0 || !ok && d != 0 {
			t.Errorf("After(%q) = %v, %v", v, d, ok)
		}
	})
}
