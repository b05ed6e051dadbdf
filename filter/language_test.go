package filter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/linkrot/relink/internal/words"
)

// sample returns the text of testdata/language/<lang>.txt, prose written
// for these tests.
func sample(t testing.TB, lang string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "language", lang+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// window returns the first language window of lang's sample: a piece that
// DetectLanguage reads as exactly one window.
func window(t testing.TB, lang string) string {
	t.Helper()
	ws := languageWindows(sample(t, lang))
	if len(ws) < 2 {
		t.Fatalf("sample %s has %d windows, want at least 2", lang, len(ws))
	}
	return ws[0]
}

// TestDetectLanguageSamples checks the language filter (§3.1 "Language") on
// prose in the five languages the paper's Table "Languages" most often
// rejected or that use other scripts.
func TestDetectLanguageSamples(t *testing.T) {
	tests := []struct {
		lang string
		kept bool
	}{
		{"eng", true},
		{"deu", false},
		{"fra", false},
		{"spa", false},
		{"rus", false},
		{"jpn", false},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			g := DetectLanguage(sample(t, tt.lang))
			if g.Lang != tt.lang || g.Kept() != tt.kept || g.Undetermined() {
				t.Errorf("DetectLanguage(%s sample) = %+v, want Lang %q, Kept %v", tt.lang, g, tt.lang, tt.kept)
			}
			if r := checkLanguage(sample(t, tt.lang)); (r == nil) != tt.kept {
				t.Errorf("checkLanguage(%s sample) = %v, want kept %v", tt.lang, r, tt.kept)
			}
		})
	}
}

// TestDetectLanguageEnglishStar checks the paper's "English*" rule: a page
// whose English likelihood (here its share of windows) is within 40% of the
// top language's is kept (§3.1 "Language", Table "Languages").
func TestDetectLanguageEnglishStar(t *testing.T) {
	eng, deu := window(t, "eng"), window(t, "deu")
	tests := []struct {
		name             string
		eng, deu         int // windows of each, English first
		english, engStar bool
	}{
		{"all English", 3, 0, true, false},
		{"English majority", 3, 1, true, false},
		{"tie goes to English", 2, 2, true, false},
		{"English within 40%", 2, 3, false, true},
		{"English at 60% of the top", 3, 5, false, true},
		{"English below 60% of the top", 1, 2, false, false},
		{"English far behind", 1, 4, false, false},
		{"no English", 0, 3, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Repeat(eng, tt.eng) + strings.Repeat(deu, tt.deu)
			g := DetectLanguage(text)
			if g.Windows != tt.eng+tt.deu || g.English != tt.english || g.EnglishStar != tt.engStar {
				t.Errorf("DetectLanguage(%d English + %d German windows) = %+v (%s), want %d windows, English %v, EnglishStar %v",
					tt.eng, tt.deu, g, g, tt.eng+tt.deu, tt.english, tt.engStar)
			}
			if want := tt.english || tt.engStar; g.Kept() != want {
				t.Errorf("DetectLanguage(%d English + %d German windows).Kept() = %v, want %v", tt.eng, tt.deu, g.Kept(), want)
			}
		})
	}
}

// TestDetectLanguageUndetermined checks that texts too short to judge, or
// without letters, are never rejected for language: short pages are the
// size filter's to reject (§3.1 "File size").
func TestDetectLanguageUndetermined(t *testing.T) {
	tests := []struct {
		name, text string
	}{
		{"empty", ""},
		{"German, 19 words", strings.Join(strings.Fields(sample(t, "deu"))[:19], " ")},
		{"Russian, 10 words", strings.Join(strings.Fields(sample(t, "rus"))[:10], " ")},
		{"digits only", strings.Repeat("1234 5678 ", 200)},
		{"punctuation only", strings.Repeat("!? -- ... ", 300)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := DetectLanguage(tt.text)
			if !g.Undetermined() || !g.Kept() || g.Lang != "" || g.Confidence != 0 {
				t.Errorf("DetectLanguage(%.30q) = %+v, want undetermined and kept", tt.text, g)
			}
			if got := g.String(); got != "undetermined" {
				t.Errorf("DetectLanguage(%.30q).String() = %q, want %q", tt.text, got, "undetermined")
			}
		})
	}
}

// TestDetectLanguageFirst50KB checks that only the first 50 KB of the text
// are read (§3.1 "File size": "only the first 50 KB of the file were
// analyzed by the language filter").
func TestDetectLanguageFirst50KB(t *testing.T) {
	eng, deu := sample(t, "eng"), sample(t, "deu")
	head := strings.Repeat(eng, LanguageMaxBytes/len(eng)+1)
	g := DetectLanguage(head + strings.Repeat(deu, 200))
	if !g.English || g.EnglishShare != 1 {
		t.Errorf("DetectLanguage(50 KB English + German) = %+v, want only English windows", g)
	}
	g = DetectLanguage(strings.Repeat(deu, LanguageMaxBytes/len(deu)+1) + strings.Repeat(eng, 200))
	if g.Lang != "deu" || g.EnglishShare != 0 {
		t.Errorf("DetectLanguage(50 KB German + English) = %+v, want only German windows", g)
	}
	// A cut in the middle of a multi-byte character must not matter.
	rus := strings.Repeat(sample(t, "rus"), LanguageMaxBytes/len(sample(t, "rus"))+2)
	for off := range 3 {
		if g := DetectLanguage(rus[off:]); g.Lang != "rus" {
			t.Errorf("DetectLanguage(Russian from byte %d) = %+v, want rus", off, g)
		}
	}
}

// TestLanguageWindows checks how the text is cut: about LanguageWindow
// characters, at word ends, at least MinLanguageWords words, nothing lost.
func TestLanguageWindows(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"short", "a few words only", 0},
		{"one window", sample(t, "eng")[:1000], 1},
		{"English sample", sample(t, "eng"), 2},
		{"long", strings.Repeat(sample(t, "eng"), 10), -1},
		{"long words", strings.Repeat(strings.Repeat("x", 200)+" ", 30), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := languageWindows(tt.text)
			if tt.want < 0 {
				// As many windows as fit, give or take the tail.
				tt.want = utf8.RuneCountInString(tt.text) / LanguageWindow
				if len(ws) == tt.want+1 {
					tt.want++
				}
			}
			if len(ws) != tt.want {
				t.Fatalf("languageWindows(%.30q) gave %d windows, want %d", tt.text, len(ws), tt.want)
			}
			if len(ws) > 0 {
				// The windows tile the text from its first byte to its
				// last word.
				joined := strings.Join(ws, "")
				if !strings.HasPrefix(tt.text, joined) || strings.TrimRight(tt.text[len(joined):], " \n.") != "" {
					t.Errorf("languageWindows(%.30q) do not tile the text", tt.text)
				}
			}
			for i, w := range ws {
				n := len(words.Split(w))
				if n < MinLanguageWords {
					t.Errorf("window %d has %d words, want at least %d", i, n, MinLanguageWords)
				}
				if i < len(ws)-1 && utf8.RuneCountInString(w) < LanguageWindow {
					t.Errorf("window %d has %d characters, want at least %d", i, utf8.RuneCountInString(w), LanguageWindow)
				}
				if i < len(ws)-1 && utf8.RuneCountInString(w) > LanguageWindow+250 {
					t.Errorf("window %d has %d characters, want about %d", i, utf8.RuneCountInString(w), LanguageWindow)
				}
			}
		})
	}
}

// BenchmarkDetectLanguage measures the language filter on 50 KB of English
// and of German text, the most it reads of a page.
func BenchmarkDetectLanguage(b *testing.B) {
	for _, lang := range []string{"eng", "deu"} {
		s := sample(b, lang)
		text := strings.Repeat(s, LanguageMaxBytes/len(s)+1)[:LanguageMaxBytes]
		b.Run(lang, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				DetectLanguage(text)
			}
		})
	}
}

// FuzzDetectLanguage checks that any text, valid UTF-8 or not, gives a guess
// whose shares are consistent, and no panic.
func FuzzDetectLanguage(f *testing.F) {
	// Short seeds keep whatlanggo (about 1 ms a window) from making the
	// fuzzer's minimization crawl; the 50 KB cut has its own test.
	f.Add(strings.Join(strings.Fields(sample(f, "eng"))[:30], " "))
	f.Add(strings.Join(strings.Fields(sample(f, "rus"))[:25], " ") + " 港通りの突き当たりにある古い図書館は")
	f.Add(strings.Repeat("a\xffb ", 40))
	f.Add(strings.Repeat("x ", 25))
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		g := DetectLanguage(text)
		if g.Windows < 0 || g.Windows > MaxLanguageWindows {
			t.Fatalf("DetectLanguage(%q).Windows = %d, want 0 to %d", text, g.Windows, MaxLanguageWindows)
		}
		if g.Confidence < 0 || g.Confidence > 1 || g.EnglishShare < 0 || g.EnglishShare > g.Confidence {
			t.Fatalf("DetectLanguage(%q) = %+v: shares out of range", text, g)
		}
		if g.Undetermined() != (g.Lang == "") || g.English && g.EnglishStar || g.English != (g.Lang == English) {
			t.Fatalf("DetectLanguage(%q) = %+v: inconsistent", text, g)
		}
		if len(words.Split(text)) < MinLanguageWords && !g.Undetermined() {
			t.Fatalf("DetectLanguage(%q) = %+v, want undetermined for fewer than %d words", text, g, MinLanguageWords)
		}
	})
}

// TestCheckLanguageIsDetect holds the language filter, which stops reading
// an English page's windows once English has won, to DetectLanguage's
// verdict and reason on pages that mix English windows with another
// language's in every order and proportion, up to 6 windows (the
// English* margin of 60% is met and missed by a window).
func TestCheckLanguageIsDetect(t *testing.T) {
	eng := languageWindows(sample(t, "eng"))
	for _, lang := range []string{"deu", "jpn"} {
		other := languageWindows(sample(t, lang))
		// Each bit of mask picks the window's language: 1 English.
		for n := 1; n <= 6; n++ {
			for mask := 0; mask < 1<<n; mask++ {
				var parts []string
				for i := range n {
					if mask&(1<<i) != 0 {
						parts = append(parts, eng[i%len(eng)])
					} else {
						parts = append(parts, other[i%len(other)])
					}
				}
				text := strings.Join(parts, " ")
				g := DetectLanguage(text)
				r := checkLanguage(text)
				if g.Kept() != (r == nil) || r != nil && r.Reason != g.String() {
					t.Fatalf("%s, %d windows, mask %b: checkLanguage = %v, DetectLanguage = %+v (kept %v)", lang, n, mask, r, g, g.Kept())
				}
			}
		}
	}
}
