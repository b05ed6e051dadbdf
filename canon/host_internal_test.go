package canon

import "testing"

// FuzzPlainASCII checks the shortcut of asciiHost: for a host of reg-name
// bytes without an "xn--" label, the IDNA conversion (UTS #46 ToASCII) is
// lowercasing and never fails.
func FuzzPlainASCII(f *testing.F) {
	for _, s := range []string{
		"example.com", "WWW.Example.COM.", "a..b.", "foo_bar.example", "r3---sn-abc.example",
		"-a-.b", "!$&'()*+,;=~", "xn-a.xnn--b.x-n--", "192.0.2.1", "", ".",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !isPlainASCII(name) {
			return
		}
		a, err := lookup.ToASCII(name)
		if err != nil || a != lowerASCII(name) {
			t.Errorf("lookup.ToASCII(%q) = %q, %v, want %q", name, a, err, lowerASCII(name))
		}
	})
}
