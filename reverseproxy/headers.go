package reverseproxy

import (
	"net"
	"net/netip"
	"strconv"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// Forwarding is a set of forwarding fields a Proxy adds to each request
// (and, for Via, to each response).
type Forwarding uint8

const (
	// ForwardXForwarded appends the client's address to X-Forwarded-For
	// and sets X-Forwarded-Proto ("http" or "https", the client's
	// connection) and X-Forwarded-Host (the Host the client sent).
	ForwardXForwarded Forwarding = 1 << iota
	// ForwardForwarded appends an element "for=...;proto=...;host=..." to
	// Forwarded (RFC 7239 §4, §5; an IPv6 address as "[...]" in quotes).
	ForwardForwarded
	// ForwardVia appends "1.1 <Proxy.Via>" (the version the message was
	// received with) to Via on requests and responses (RFC 9110 §7.6.3).
	ForwardVia
	// ForwardNone adds no field; with nothing else set it stands for the
	// empty set, which the zero value cannot (zero is DefaultForwarding).
	ForwardNone

	// DefaultForwarding is the Forwarding of a zero Proxy.Forwarding.
	DefaultForwarding = ForwardXForwarded | ForwardVia
)

// hopByHop reports the fields that apply to one connection only and are
// not forwarded (RFC 9110 §7.6.1): Connection and the fields listed by
// §7.6.1, plus Proxy-Authenticate and Proxy-Authorization, which are for
// the proxy (RFC 9110 §11.7), and HTTP2-Settings, which goes with an h2c
// upgrade of one connection (RFC 7540 §3.2.1). Content-Length is not here: the framing is
// decided again on each side, from the length the Proxy passes on.
func hopByHop(name []byte) bool {
	switch len(name) {
	case 2:
		return ascii.EqualFoldLower(name, "te")
	case 7:
		return ascii.EqualFoldLower(name, "upgrade")
	case 10:
		return ascii.EqualFoldLower(name, "connection") || ascii.EqualFoldLower(name, "keep-alive")
	case 14:
		return ascii.EqualFoldLower(name, "http2-settings")
	case 16:
		return ascii.EqualFoldLower(name, "proxy-connection")
	case 17:
		return ascii.EqualFoldLower(name, "transfer-encoding")
	case 18:
		return ascii.EqualFoldLower(name, "proxy-authenticate")
	case 19:
		return ascii.EqualFoldLower(name, "proxy-authorization")
	}
	return false
}

// forwardingField reports the fields a Proxy replaces or appends to
// (X-Forwarded-For, -Proto, -Host, Forwarded, Via) and X-Real-IP: all
// say who the client is, so only a trusted proxy's are passed on. A name
// with "_" for "-" (X_Forwarded_For) is one of them too: CGI, WSGI and
// the servers that map field names to variables (HTTP_X_FORWARDED_FOR)
// cannot tell the two apart.
func forwardingField(name []byte) bool {
	switch len(name) {
	case 3:
		return ascii.EqualFoldLower(name, "via")
	case 9:
		return ascii.EqualFoldLower(name, "forwarded") || equalFoldDash(name, "x-real-ip")
	case 15:
		return equalFoldDash(name, "x-forwarded-for")
	case 16:
		return equalFoldDash(name, "x-forwarded-host")
	case 17:
		return equalFoldDash(name, "x-forwarded-proto")
	}
	return false
}

// equalFoldDash reports whether name is the lower-case lower, ignoring
// case and taking "_" in name for "-".
func equalFoldDash(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		} else if c == '_' {
			c = '-'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// connectionTokens holds the options of a message's Connection fields
// (RFC 9110 §7.6.1): the fields they name are hop-by-hop too.
type connectionTokens struct {
	vals [][]byte // the Connection field values; storage reused
}

// load collects the Connection values of h.
func (t *connectionTokens) load(h *brisk.Header) {
	t.vals = t.vals[:0]
	for name, v := range h.All() {
		if len(name) == 10 && ascii.EqualFoldLower(name, "connection") {
			t.vals = append(t.vals, v)
		}
	}
}

// names reports whether a Connection option is name.
func (t *connectionTokens) names(name []byte) bool {
	for _, v := range t.vals {
		for len(v) > 0 {
			var tok []byte
			tok, v = nextToken(v)
			if ascii.EqualFold(tok, name) {
				return true
			}
		}
	}
	return false
}

// has reports whether a Connection option is the lower-case opt.
func (t *connectionTokens) has(opt string) bool {
	for _, v := range t.vals {
		for len(v) > 0 {
			var tok []byte
			tok, v = nextToken(v)
			if ascii.EqualFoldLower(tok, opt) {
				return true
			}
		}
	}
	return false
}

// nextToken splits the first element off a comma-separated list,
// trimming optional whitespace.
func nextToken(v []byte) (tok, rest []byte) {
	i := 0
	for i < len(v) && v[i] != ',' {
		i++
	}
	tok, rest = v[:i], v[min(i+1, len(v)):]
	for len(tok) > 0 && (tok[0] == ' ' || tok[0] == '\t') {
		tok = tok[1:]
	}
	for len(tok) > 0 && (tok[len(tok)-1] == ' ' || tok[len(tok)-1] == '\t') {
		tok = tok[:len(tok)-1]
	}
	return tok, rest
}

// peerIP returns the IP address of a, the zero Addr when it has none.
func peerIP(a net.Addr) netip.Addr {
	switch a := a.(type) {
	case *net.TCPAddr:
		ip, _ := netip.AddrFromSlice(a.IP)
		return ip.Unmap()
	case nil:
		return netip.Addr{}
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// appendVia appends the Via element (RFC 9110 §7.6.3) for a message
// received as proto: "1.0", "1.1", or "2" for HTTP/2 (RFC 9113 §3).
func appendVia(dst []byte, proto string, pseudonym string) []byte {
	switch {
	case proto == "HTTP/2.0":
		dst = append(dst, '2')
	case len(proto) == 8 && proto[:5] == "HTTP/":
		dst = append(dst, proto[5:]...)
	default:
		dst = append(dst, "1.1"...)
	}
	dst = append(dst, ' ')
	return append(dst, pseudonym...)
}

// appendForwardedNode appends ip as a Forwarded node (RFC 7239 §6):
// IPv4 as it is, IPv6 in brackets and quotes, "unknown" for none.
func appendForwardedNode(dst []byte, ip netip.Addr) []byte {
	switch {
	case !ip.IsValid():
		return append(dst, "unknown"...)
	case ip.Is4():
		return ip.AppendTo(dst)
	}
	dst = append(dst, `"[`...)
	dst = ip.AppendTo(dst)
	return append(dst, `]"`...)
}

// appendQuoted appends v as a quoted-string (RFC 9110 §5.6.4).
func appendQuoted(dst, v []byte) []byte {
	dst = append(dst, '"')
	for _, c := range v {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// appendIP appends ip, "unknown" when it has none.
func appendIP(dst []byte, ip netip.Addr) []byte {
	if !ip.IsValid() {
		return append(dst, "unknown"...)
	}
	return ip.AppendTo(dst)
}

var _ = strconv.Itoa
