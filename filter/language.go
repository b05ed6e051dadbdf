package filter

import (
	"fmt"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"

	"github.com/linkrot/relink/internal/words"
)

// Settings of the language filter (§3.1 "Language").
const (
	// LanguageMaxBytes is how much of a page's rendered text the language
	// filter reads: the paper analysed at most the first 50 KB of each file
	// (§3.1 "File size").
	LanguageMaxBytes = 50 << 10
	// LanguageWindow is the length, in characters, of the windows of text
	// that are identified one at a time. whatlanggo's trigram distance
	// misjudges long inputs (its issue #20: past a few hundred distinct
	// trigrams the best language can score worst), so the text is cut into
	// windows of about this length, each ending at a word boundary.
	LanguageWindow = 1500
	// MinLanguageWords is the fewest words a text, or a window, needs for
	// its language to be judged. Shorter texts are undetermined and pass the
	// language filter: rejecting short pages is the size filter's job.
	MinLanguageWords = 20
	// EnglishStarMargin is how far below the top language's likelihood
	// English's may fall and the page still be kept: the paper's "English*"
	// pages were those whose English likelihood was "within forty per cent
	// of the likelihood given to the top guess language" (§3.1 "Language",
	// Table "Languages").
	EnglishStarMargin = 0.4
	// MaxLanguageWindows is the most windows identified per text; longer
	// texts are sampled at evenly spaced windows, since whatlanggo takes
	// about 1.5 ms per window. On Debian's English documentation the
	// decisions were the same with 8 windows as with all of them (up to 35
	// in 50 KB).
	MaxLanguageWindows = 8
)

// English is the ISO 639-3 code of English, as in [LanguageGuess.Lang].
const English = "eng"

// LanguageGuess is the outcome of [DetectLanguage].
type LanguageGuess struct {
	// Lang is the ISO 639-3 code of the top guess, the language with the
	// most window votes ("eng", "deu", "jpn", ...; see whatlanggo for the
	// list; ties go to English, then to the smaller code), or "" when the
	// text is too short or has no letters.
	Lang string
	// Confidence is the share of the votes Lang won, in [0, 1]; 0 when Lang
	// is "". It is not whatlanggo's confidence.
	Confidence float64
	// EnglishShare is the share of the votes English won, in [0, 1],
	// counting the windows where English came too close to the window's top
	// guess for whatlanggo to tell them apart (see DetectLanguage).
	EnglishShare float64
	// Windows is the number of windows that voted.
	Windows int
	// English reports whether English is the top guess. A tie for the top
	// between English and another language counts as English.
	English bool
	// EnglishStar reports whether English is not the top guess but its
	// share of windows is at least (1 - [EnglishStarMargin]) times the top
	// guess's share, the paper's "English*".
	EnglishStar bool
}

// Undetermined reports whether the text was too short, or had too few
// letters, for its language to be judged.
func (g LanguageGuess) Undetermined() bool {
	return g.Windows == 0
}

// Kept reports whether the language filter keeps a page with this guess: an
// English or English* page, or one whose language is undetermined.
func (g LanguageGuess) Kept() bool {
	return g.Undetermined() || g.English || g.EnglishStar
}

// String describes the guess, for example "deu (German) in 7 of 8 windows,
// eng in 1".
func (g LanguageGuess) String() string {
	if g.Undetermined() {
		return "undetermined"
	}
	top := g.Confidence * float64(g.Windows)
	s := fmt.Sprintf("%s (%s) in %.0f of %d windows", g.Lang, langName(g.Lang), top, g.Windows)
	if !g.English {
		s += fmt.Sprintf(", eng in %.0f", g.EnglishShare*float64(g.Windows))
	}
	return s
}

// langName returns the English name of an ISO 639-3 code whatlanggo knows.
func langName(code string) string {
	if l := whatlanggo.CodeToLang(code); l >= 0 {
		return l.String()
	}
	return code
}

// DetectLanguage guesses the language of text, the visible text of a page
// (§3.1 "Language").
//
// The paper asked the Lingua Perl module for a likelihood per language and
// kept English pages and "English*" pages, where English's likelihood was
// within 40% of the top guess's. whatlanggo offers less: Detect returns only
// the top language and a confidence that measures the gap to the runner-up,
// saturates at 1 as soon as that gap exceeds a few per cent, and breaks
// (goes negative) on long or mixed-script inputs (its issue #20). So
// DetectLanguage votes over windows:
//
//  1. It reads at most the first [LanguageMaxBytes] bytes of text and cuts
//     them into consecutive windows of about [LanguageWindow] characters
//     ending at word boundaries, each of at least [MinLanguageWords] words (a
//     shorter tail joins the window before). When there are more than
//     [MaxLanguageWindows] windows, that many are taken, evenly spaced.
//  2. whatlanggo identifies each window. A window without letters, or whose
//     confidence is negative, does not vote.
//  3. A window whose top language is English votes for English. Otherwise
//     whatlanggo is asked again with only the top language and English
//     allowed (Options.Whitelist); when that confidence is in [0, 1), the
//     two are too close for whatlanggo to tell apart and the window votes for
//     English; else it votes for its top language. (On 4,654 English
//     Debian documentation pages this turns 35 of 44 wrongly rejected pages
//     into kept ones; see the package documentation.)
//  4. Each language's share of the votes stands for Lingua's likelihood.
//     English is the top guess when it has at least as many votes as any
//     other language; English* when it has at least 1 - [EnglishStarMargin]
//     = 60% as many as the top guess.
//
// A text with fewer than [MinLanguageWords] words, or without a window that
// votes, is undetermined (Windows is 0) and kept by the filter: short pages
// are the size filter's to reject. DetectLanguage is safe for concurrent use;
// its time is linear in min(len(text), LanguageMaxBytes) and it runs
// whatlanggo on at most MaxLanguageWindows windows, twice each.
func DetectLanguage(text string) LanguageGuess {
	g, _ := detectLanguage(text, false)
	return g
}

// detectLanguage is DetectLanguage. With keptEarly, it stops reading
// windows as soon as English has at least as many votes as another
// language can have once every window has voted, and reports that it
// stopped: the page is kept whatever the windows left say, and the guess
// is not complete.
func detectLanguage(text string, keptEarly bool) (_ LanguageGuess, kept bool) {
	if len(text) > LanguageMaxBytes {
		cut := LanguageMaxBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	wins := languageWindows(text)
	if n := len(wins); n > MaxLanguageWindows {
		picked := make([]string, MaxLanguageWindows)
		for i := range picked {
			picked[i] = wins[i*n/MaxLanguageWindows]
		}
		wins = picked
	}
	votes := map[string]int{}
	var g LanguageGuess
	other := 0 // the most votes of a language other than English
	for i, w := range wins {
		if lang, ok := windowVote(w); ok {
			votes[lang]++
			g.Windows++
			if lang != English {
				other = max(other, votes[lang])
			}
		}
		// A tie for the top counts as English (step 4).
		if keptEarly && votes[English] >= other+len(wins)-1-i {
			return g, true
		}
	}
	if g.Windows == 0 {
		return g, false
	}
	for lang, n := range votes {
		if best := votes[g.Lang]; n > best || n == best && lang < g.Lang {
			g.Lang = lang
		}
	}
	n := float64(g.Windows)
	g.Confidence = float64(votes[g.Lang]) / n
	g.EnglishShare = float64(votes[English]) / n
	if votes[English] == votes[g.Lang] {
		g.Lang, g.English = English, true
		return g, false
	}
	g.EnglishStar = g.EnglishShare >= (1-EnglishStarMargin)*g.Confidence
	return g, false
}

// windowVote returns the ISO 639-3 code of the language one window votes
// for, and false when it does not vote (steps 2 and 3 of DetectLanguage).
func windowVote(w string) (string, bool) {
	info := whatlanggo.Detect(w)
	if info.Lang < 0 || info.Confidence < 0 {
		return "", false
	}
	if info.Lang == whatlanggo.Eng {
		return English, true
	}
	pair := whatlanggo.DetectWithOptions(w, whatlanggo.Options{
		Whitelist: map[whatlanggo.Lang]bool{info.Lang: true, whatlanggo.Eng: true},
	})
	if pair.Confidence >= 0 && pair.Confidence < 1 {
		return English, true
	}
	return info.Lang.Iso6393(), true
}

// languageWindows cuts text into consecutive pieces of about LanguageWindow
// characters, each ending at the end of a word and holding at least
// MinLanguageWords words; a short tail joins the last piece.
func languageWindows(text string) []string {
	var wins []string
	prev := 0                      // start of the last window in wins
	start, runes, count := 0, 0, 0 // the current window is text[start:i]
	for i := 0; ; {
		ws, we := words.Next(text, i)
		if ws == we {
			break
		}
		runes += utf8.RuneCountInString(text[i:we])
		count++
		i = we
		if runes >= LanguageWindow && count >= MinLanguageWords {
			wins = append(wins, text[start:we])
			prev, start, runes, count = start, we, 0, 0
		}
	}
	switch {
	case count >= MinLanguageWords:
		wins = append(wins, text[start:])
	case count > 0 && len(wins) > 0:
		wins[len(wins)-1] = text[prev:]
	}
	return wins
}

// checkLanguage is the language filter: it keeps English, English* and
// undetermined text (§3.1 "Language"). It reads the windows of an English
// page only until English has won (detectLanguage): the verdict is
// DetectLanguage's, in about half the time.
func checkLanguage(text string) *Rejection {
	g, kept := detectLanguage(text, true)
	if kept || g.Kept() {
		return nil
	}
	return &Rejection{Filter: FilterLanguage, Reason: g.String()}
}
