package relink

import "testing"

// TestGeneratedNames: Doxygen's escapes in file names are read back, and
// paths without them are kept as they are.
func TestGeneratedNames(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/dox/classEigen_1_1FullPivLU.html", "/dox/Eigen FullPivLU.html"},
		{"/dox/ConjHelper_8h_source.html", "/dox/ConjHelper h_source.html"},
		{"/stable/structssh__timestamp.html", "/stable/ssh_timestamp.html"},
		{"/doxygen/5.1/structAVBitStreamFilter.html", "/doxygen/5.1/AVBitStreamFilter.html"},
		{"/html/structsigc_1_1bind__functor.html", "/html/sigc bind_functor.html"},
		{"/releaselog/3_0_5.html", "/releaselog/3_0_5.html"},
		{"/structure.html", "/structure.html"},
		{"/classes/interfaces.html", "/classes/interfaces.html"},
		{"/a_8", "/a_8"},
		{"", ""},
	} {
		if got := generatedNames(tt.in); got != tt.want {
			t.Errorf("generatedNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
