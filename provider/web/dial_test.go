package web

import (
	"errors"
	"net/netip"
	"testing"
)

func TestIsPublic(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"93.184.215.14", true},
		{"8.8.8.8", true},
		{"2606:4700::6810:84e5", true},
		{"10.1.2.3", false},        // RFC 1918
		{"172.16.0.1", false},      // RFC 1918
		{"172.31.255.255", false},  // RFC 1918
		{"172.32.0.1", true},       // just outside 172.16/12
		{"192.168.1.1", false},     // RFC 1918
		{"127.0.0.1", false},       // loopback
		{"127.8.9.10", false},      // loopback
		{"169.254.169.254", false}, // link-local, cloud metadata
		{"0.0.0.0", false},         // unspecified
		{"100.64.0.1", false},      // shared address space
		{"224.0.0.1", false},       // multicast
		{"255.255.255.255", false}, // broadcast
		{"::", false},              // unspecified
		{"::1", false},             // loopback
		{"fe80::1", false},         // link-local
		{"fe80::1%eth0", false},    // link-local with a zone
		{"fd12:3456::1", false},    // unique local
		{"ff02::1", false},         // multicast
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:8.8.8.8", true},
		{"64:ff9b::7f00:1", false}, // NAT64 of 127.0.0.1
		{"64:ff9b::808:808", true}, // NAT64 of 8.8.8.8
		{"2002:7f00:1::", false},   // 6to4 of 127.0.0.1
		{"2001:db8::1", false},     // documentation
	}
	for _, tt := range tests {
		a, err := netip.ParseAddr(tt.addr)
		if err != nil {
			t.Fatalf("ParseAddr(%q): %v", tt.addr, err)
		}
		if got := isPublic(a); got != tt.want {
			t.Errorf("isPublic(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

func TestCheckAddress(t *testing.T) {
	tests := []struct {
		address string
		refused bool
	}{
		{"93.184.215.14:443", false},
		{"[2606:4700::6810:84e5]:80", false},
		{"127.0.0.1:80", true},
		{"[::1]:8080", true},
		{"[fe80::1%eth0]:80", true},
		{"example.com:80", true}, // not an address: never dialled unchecked
		{"no port", true},
	}
	for _, tt := range tests {
		err := checkAddress(isPublic, "tcp", tt.address)
		if got := errors.Is(err, ErrPrivateAddress); got != tt.refused {
			t.Errorf("checkAddress(%q) = %v, want refused %v", tt.address, err, tt.refused)
		}
	}
}
