package filter

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Soft404Threshold is the Jaccard similarity above which a probe's page
// counts as the same page as the original: "If both similarity coefficients
// were above 0.9, then the original URI was deemed to be a soft 404" (§3.1
// "Soft 404s").
const Soft404Threshold = 0.9

// ProbeLength is the length of the random string inserted into the probe
// URIs: "a random 20-character string" (§3.1 "Soft 404s").
const ProbeLength = 20

// ErrNotAbsolute is returned, wrapped, by [ProbeURIs] for a URI without a
// scheme or a host.
var ErrNotAbsolute = errors.New("filter: URI is not absolute")

// ErrEmptyRandom is returned, wrapped, by [ProbeURIs] when the random string
// is empty, since the probes would then be the original URI.
var ErrEmptyRandom = errors.New("filter: empty random string")

// ProbeURIs returns the two modified URIs the soft 404 filter fetches (§3.1
// "Soft 404s"): random inserted right after the first slash of the path
// ("immediately after the first slash after the domain name") and right after
// its last slash. For http://example.com/path/to/file.html and XXXX they are
// http://example.com/XXXXpath/to/file.html and
// http://example.com/path/to/XXXXfile.html.
//
// Edge cases: an empty path counts as "/", so http://example.com gives
// http://example.com/XXXX twice; when the path has a single slash
// (http://example.com/file.html, http://example.com/) both probes are the
// same URI; a trailing slash puts the random string at the end
// (http://example.com/a/ gives http://example.com/XXXXa/ and
// http://example.com/a/XXXX). The query is kept and the fragment dropped (it
// is never sent to a server). The path keeps its original escaping; random
// is path-escaped. A URI without scheme or host returns an error wrapping
// [ErrNotAbsolute], an unparsable one the parse error, and an empty random
// an error wrapping [ErrEmptyRandom].
func ProbeURIs(uri, random string) (afterFirstSlash, afterLastSlash string, err error) {
	if random == "" {
		return "", "", fmt.Errorf("filter: probe URIs for %q: %w", uri, ErrEmptyRandom)
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", "", fmt.Errorf("filter: probe URIs: %w", err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", "", fmt.Errorf("filter: probe URIs for %q: %w", uri, ErrNotAbsolute)
	}
	u.Fragment, u.RawFragment = "", ""
	path := u.EscapedPath()
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	r := url.PathEscape(random)
	last := strings.LastIndexByte(path, '/')
	first, err := withPath(u, "/"+r+path[1:])
	if err != nil {
		return "", "", err
	}
	second, err := withPath(u, path[:last+1]+r+path[last+1:])
	if err != nil {
		return "", "", err
	}
	return first, second, nil
}

// withPath returns u as a string with its path replaced by the escaped path
// p.
func withPath(u *url.URL, p string) (string, error) {
	unescaped, err := url.PathUnescape(p)
	if err != nil {
		return "", fmt.Errorf("filter: probe URIs: %w", err)
	}
	v := *u
	v.Path, v.RawPath = unescaped, p
	return v.String(), nil
}

// randomAlphabet holds the characters of [RandomString]: lowercase ASCII
// letters and digits.
const randomAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// RandomString returns n characters drawn uniformly from lowercase ASCII
// letters and digits with crypto/rand, for the probe URIs of the soft 404
// filter (the paper used n = [ProbeLength]). It returns "" when n <= 0 and is
// safe for concurrent use.
func RandomString(n int) string {
	if n <= 0 {
		return ""
	}
	// 252 = 7 × 36: bytes below it map evenly onto the alphabet.
	const limit = 256 - 256%len(randomAlphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+1)
	for len(out) < n {
		rand.Read(buf) // never returns an error (crypto/rand, Go 1.24+)
		for _, c := range buf {
			if int(c) < limit && len(out) < n {
				out = append(out, randomAlphabet[int(c)%len(randomAlphabet)])
			}
		}
	}
	return string(out)
}

// IsSoft404 reports whether original is a soft 404, given the pages fetched
// for its two probe URIs (see [ProbeURIs]), by the paper's subset of the
// method of Bar-Yossef et al. (§3.1 "Soft 404s"): it is false when original
// or probeFirst is nil or not 2xx ("malformed URIs in that path trigger real
// (hard) 404 responses"); otherwise it is true when the Jaccard similarity
// ([Jaccard]) of the original's rendered words with probeFirst's and with
// probeLast's both exceed [Soft404Threshold]. Words are compared lowercased.
//
// As in the paper's text, probeLast is compared whatever its status: a
// server that answers a 404 status with the very page the original shows
// still makes the original an error page. A nil probeLast (the fetch gave no
// answer at all) cannot show the second similarity, so IsSoft404 is then
// false: keeping a doubtful page costs less than losing a good one. A page
// whose body cannot be rendered has no words to compare: IsSoft404 is false
// when the original cannot be rendered, and a probe that cannot be rendered
// is dissimilar. Two 2xx pages that both render to no words are identical
// (Jaccard 1).
//
// IsSoft404 renders the bodies with package backlink, as the size and
// language filters do; it does no I/O and is safe for concurrent use.
func IsSoft404(original, probeFirst, probeLast *Page) bool {
	if original == nil || probeFirst == nil || !IsSuccess(original.Status) || !IsSuccess(probeFirst.Status) {
		return false
	}
	orig, err := pageWords(original)
	if err != nil {
		return false
	}
	return similar(orig, probeFirst) && similar(orig, probeLast)
}

// similar reports whether probe's lowercased words are more similar to orig
// than Soft404Threshold. A nil or unrenderable probe is not similar.
func similar(orig []string, probe *Page) bool {
	if probe == nil {
		return false
	}
	w, err := pageWords(probe)
	return err == nil && Jaccard(orig, w) > Soft404Threshold
}
