package brisk

import (
	"bytes"
	"net/netip"
	"unsafe"

	"github.com/brisk-http/brisk/internal/ascii"
)

// ForwardingField names the request field by which trusted proxies pass
// on the client's address (Server.ClientIPField).
type ForwardingField string

// The fields Ctx.ClientIP can read.
const (
	// FieldXForwardedFor is X-Forwarded-For: comma-separated addresses,
	// each proxy appending its peer's (nginx $proxy_add_x_forwarded_for,
	// HAProxy "option forwardfor", most cloud load balancers).
	FieldXForwardedFor ForwardingField = "X-Forwarded-For"
	// FieldForwarded is Forwarded (RFC 7239 §4): the "for" parameters of
	// its comma-separated elements.
	FieldForwarded ForwardingField = "Forwarded"
	// FieldXRealIP is X-Real-IP: one address, set by the proxy (nginx
	// "proxy_set_header X-Real-IP $remote_addr").
	FieldXRealIP ForwardingField = "X-Real-IP"
)

// ClientIP returns the address of the client that sent the request, as
// far as trusted proxies vouch for it. It is RemoteAddr's IP unless that
// peer is in Server.TrustedProxies; then it is taken from the one field
// Server.ClientIPField names (X-Forwarded-For by default). The other
// forwarding fields are never read: a client cannot decide ClientIP by
// sending one that its proxy passes on untouched.
//
// Every line of the field counts, in order, as one comma-separated list
// (RFC 9110 §5.3); the list is read from the right (the hop nearest the
// server) and the first address not in TrustedProxies is the client's
// (the right-most-untrusted rule: anything to its left may be forged by
// the client). When every address is trusted the left-most one is
// returned. An element that is not an IP address ("unknown", an
// obfuscated identifier, a malformed value) ends the walk: the address of
// the trusted hop that added it is returned, or RemoteAddr's when that is
// the peer itself. Ports (Forwarded "for=\"[2001:db8::1]:4711\"",
// "192.0.2.1:4711") are dropped and IPv4-mapped IPv6 addresses unmapped.
// Without the field, ClientIP is the peer's.
//
// With TrustedProxies empty (the default) no field is ever read. The zero
// Addr is returned when RemoteAddr is not an IP address (an in-memory
// connection). ClientIP does not allocate.
func (c *Ctx) ClientIP() netip.Addr {
	peer := addrIP(c.RemoteAddr())
	srv := c.c.srv
	if !inPrefixes(srv.TrustedProxies, peer) {
		return peer
	}
	h := &c.Request.Header
	switch srv.ClientIPField {
	case "", FieldXForwardedFor:
		return walkHops(srv.TrustedProxies, peer, h, "X-Forwarded-For", ascii.TrimOWS)
	case FieldForwarded:
		return walkHops(srv.TrustedProxies, peer, h, "Forwarded", forwardedFor)
	case FieldXRealIP:
		return walkHops(srv.TrustedProxies, peer, h, "X-Real-IP", ascii.TrimOWS)
	}
	return peer
}

// walkHops applies the right-most-untrusted rule to the comma-separated
// elements of every field named name, left to right: the answer is the
// last element that is not trusted. node extracts an element's address.
func walkHops(trusted []netip.Prefix, peer netip.Addr, h *Header, name string, node func([]byte) []byte) netip.Addr {
	var first, cand, after netip.Addr
	var haveFirst, found, bad, haveAfter bool
	for v := range h.Values(name) {
		for len(v) > 0 {
			var elem []byte
			elem, v = cutComma(v)
			ip, ok := parseNodeIP(node(elem))
			if !haveFirst {
				first, haveFirst = ip, true
			}
			if !ok || !inPrefixes(trusted, ip) {
				cand, bad, found, haveAfter = ip, !ok, true, false
			} else if found && !haveAfter {
				after, haveAfter = ip, true
			}
		}
	}
	switch {
	case !found && haveFirst:
		return first
	case !found, bad && !haveAfter:
		return peer
	case bad:
		return after
	}
	return cand
}

// cutComma splits a list at its first comma. Quoted strings in Forwarded
// may not contain commas that matter here: an IP node never does.
func cutComma(v []byte) (elem, rest []byte) {
	if i := bytes.IndexByte(v, ','); i >= 0 {
		return v[:i], v[i+1:]
	}
	return v, nil
}

// forwardedFor returns the value of the "for" parameter of a Forwarded
// element (RFC 7239 §4: pairs separated by ';', names case-insensitive),
// unquoted, or nil.
func forwardedFor(elem []byte) []byte {
	for len(elem) > 0 {
		var pair []byte
		if i := bytes.IndexByte(elem, ';'); i >= 0 {
			pair, elem = elem[:i], elem[i+1:]
		} else {
			pair, elem = elem, nil
		}
		name, value, ok := bytes.Cut(ascii.TrimOWS(pair), []byte("="))
		if ok && ascii.EqualFoldLower(name, "for") {
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			return value
		}
	}
	return nil
}

// parseNodeIP parses an address with an optional port: "192.0.2.1",
// "192.0.2.1:80", "[2001:db8::1]", "[2001:db8::1]:80", or a bare IPv6
// address.
func parseNodeIP(b []byte) (netip.Addr, bool) {
	if len(b) == 0 {
		return netip.Addr{}, false
	}
	if b[0] == '[' {
		end := bytes.IndexByte(b, ']')
		if end < 0 {
			return netip.Addr{}, false
		}
		b = b[1:end]
	} else if i := bytes.IndexByte(b, ':'); i >= 0 && bytes.IndexByte(b[i+1:], ':') < 0 {
		b = b[:i] // IPv4 with a port
	}
	if len(b) == 0 {
		return netip.Addr{}, false
	}
	// ParseAddr keeps no reference to its argument (a zone is copied by
	// unique.Make), so the bytes need not be copied into a string.
	ip, err := netip.ParseAddr(unsafe.String(&b[0], len(b)))
	if err != nil {
		return netip.Addr{}, false
	}
	return ip.Unmap(), true
}
