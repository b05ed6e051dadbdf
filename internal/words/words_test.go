package words_test

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink/internal/words"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"spaces only", " \t\n", nil},
		{"plain", "Lexical signatures rediscover pages", []string{"Lexical", "signatures", "rediscover", "pages"}},
		// Punctuation separates words, as FTS5's unicode61 tokenizer does.
		{"dots and underscores", "functools.partial my_func", []string{"functools", "partial", "my", "func"}},
		{"apostrophe and hyphen", "Python's built-in", []string{"Python", "s", "built", "in"}},
		{"digits", "HTTP 404, IPv6", []string{"HTTP", "404", "IPv6"}},
		{"accents and marks", "café naïve e\u0301", []string{"café", "naïve", "e\u0301"}},
		{"other scripts", "Привет мир 日本語", []string{"Привет", "мир", "日本語"}},
		{"invalid UTF-8 separates", "ab\xffcd", []string{"ab", "cd"}},
		{"symbols separate", "a+b=c ©2024", []string{"a", "b", "c", "2024"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, words.Split(tt.in)); diff != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", tt.in, diff)
			}
			// Next on bytes agrees with Split on the string.
			var got []string
			b := []byte(tt.in)
			for i := 0; ; {
				start, end := words.Next(b, i)
				if start == end {
					break
				}
				got = append(got, string(b[start:end]))
				i = end
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Next over %q (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "a b", "x\xffy", "日本 語", "C++ & Go"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range words.Split(s) {
			if w == "" || !utf8.ValidString(w) {
				t.Fatalf("Split(%q) gave %q", s, w)
			}
			for _, r := range w {
				if !words.IsWordRune(r) {
					t.Fatalf("Split(%q) gave %q holding %q", s, w, r)
				}
			}
		}
	})
}

func ExampleSplit() {
	fmt.Printf("%q\n", words.Split("See functools.partial() -- it's in Python 3.11!"))
	// Output:
	// ["See" "functools" "partial" "it" "s" "in" "Python" "3" "11"]
}
