package web

import (
	"fmt"
	"net"
	"net/netip"
)

// nonPublic lists the address blocks a Client refuses unless AllowPrivate
// is set: addresses that do not reach the public internet, from the IANA
// special-purpose registries (RFC 6890 and the RFCs each line names).
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network", unspecified (RFC 791)
	netip.MustParsePrefix("10.0.0.0/8"),      // private (RFC 1918)
	netip.MustParsePrefix("100.64.0.0/10"),   // shared, carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("127.0.0.0/8"),     // loopback (RFC 1122)
	netip.MustParsePrefix("169.254.0.0/16"),  // link-local, cloud metadata (RFC 3927)
	netip.MustParsePrefix("172.16.0.0/12"),   // private (RFC 1918)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments (RFC 6890)
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relay anycast, deprecated (RFC 7526)
	netip.MustParsePrefix("192.168.0.0/16"),  // private (RFC 1918)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking (RFC 2544)
	netip.MustParsePrefix("224.0.0.0/4"),     // multicast (RFC 5771)
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved and limited broadcast (RFC 1112, RFC 919)
	netip.MustParsePrefix("::/96"),           // unspecified, loopback, IPv4-compatible (RFC 4291)
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated (RFC 2765)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use IPv4/IPv6 translation (RFC 8215)
	netip.MustParsePrefix("100::/64"),        // discard-only (RFC 6666)
	netip.MustParsePrefix("2001::/32"),       // Teredo, may embed any IPv4 address (RFC 4380)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation (RFC 3849)
	netip.MustParsePrefix("2002::/16"),       // 6to4, may embed any IPv4 address (RFC 3056)
	netip.MustParsePrefix("fc00::/7"),        // unique local, private (RFC 4193)
	netip.MustParsePrefix("fe80::/10"),       // link-local (RFC 4291)
	netip.MustParsePrefix("fec0::/10"),       // site-local, deprecated (RFC 3879)
	netip.MustParsePrefix("ff00::/8"),        // multicast (RFC 4291)
}

// nat64 is the well-known NAT64 prefix (RFC 6052), whose addresses reach
// the IPv4 address in their last 32 bits.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// isPublic reports whether a may be dialled when private addresses are
// refused. An IPv4-mapped IPv6 address is judged as its IPv4 address, and
// a NAT64 address by the IPv4 address it embeds.
func isPublic(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if nat64.Contains(a) {
		b := a.As16()
		return isPublic(netip.AddrFrom4([4]byte(b[12:])))
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return a.IsValid()
}

// checkAddress is the dialer's check of each address it is about to
// connect to ("ip:port", after name resolution): an address public does
// not accept is refused with an error wrapping ErrPrivateAddress.
func checkAddress(public func(netip.Addr) bool, network, address string) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %v", ErrPrivateAddress, network, address, err)
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %v", ErrPrivateAddress, network, address, err)
	}
	if !public(a) {
		return ErrPrivateAddress // net.OpError names the address
	}
	return nil
}
