package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseProxies reads the networks of trusted reverse proxies: CIDRs
// ("10.0.0.0/8", "fd00::/8") or single addresses ("127.0.0.1"),
// separated by commas or spaces.
func ParseProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want a CIDR such as 10.0.0.0/8 or an address such as 127.0.0.1", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// A peer is who sent a request: the client's address, and whether the
// request reached the server over TLS.
type peer struct {
	addr netip.Addr
	tls  bool
}

// key is what the per-client limits count by: the address, or for IPv6
// its /64 network, which one client usually holds whole.
func (p peer) key() string {
	if p.addr.Is6() {
		return netip.PrefixFrom(p.addr, 64).Masked().String()
	}
	return p.addr.String()
}

// peerOf tells who sent r. The connection's address is the client's,
// unless it is a trusted proxy: then X-Forwarded-For is read from the
// right, past every trusted proxy, to the first address that is not one,
// and X-Forwarded-Proto says whether the client used TLS. Headers from
// anyone else are ignored, so a client cannot choose its address.
func (s *Server) peerOf(r *http.Request) peer {
	p := peer{addr: remoteAddr(r), tls: r.TLS != nil}
	if !s.trusted(p.addr) {
		return p
	}
	if proto := lastValue(r.Header.Values("X-Forwarded-Proto")); proto != "" {
		p.tls = strings.EqualFold(proto, "https")
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a malformed hop: trust nothing further left
		}
		p.addr = a.Unmap()
		if !s.trusted(p.addr) {
			break
		}
	}
	return p
}

// remoteAddr is the address of the connection r came on.
func remoteAddr(r *http.Request) netip.Addr {
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// lastValue is the last comma-separated value of a header: the one the
// nearest proxy added.
func lastValue(values []string) string {
	if len(values) == 0 {
		return ""
	}
	v := values[len(values)-1]
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return strings.TrimSpace(v)
}
