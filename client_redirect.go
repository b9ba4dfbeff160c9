package brisk

import (
	"bytes"
	"fmt"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Following redirects (RFC 9110 §15.4) and resolving their Location (RFC
// 3986 §5.2).

// errRedirectScheme is the ErrInvalidURI returned for a Location with a
// scheme other than http or https.
var errRedirectScheme = fmt.Errorf("%w: redirect to a scheme other than http or https", ErrInvalidURI)

// followable reports whether resp is a redirect to follow: maxRedirects
// is positive and resp is a 301, 302, 303, 307 or 308 with a Location
// field.
func followable(resp *Response, maxRedirects int) bool {
	if maxRedirects <= 0 {
		return false
	}
	switch resp.status {
	case 301, 302, 303, 307, 308:
		return resp.Header.Has("Location")
	}
	return false
}

// redirect points req at the Location of resp, resolved against the
// target t it was sent to (RFC 9110 §10.2.2, RFC 3986 §5.2). An empty or
// invalid Location, or one with a scheme other than http or https, is
// ErrInvalidURI. With sameOnly (HostClient), a Location with another
// scheme, host or port is ErrRedirectOtherHost. req is left unchanged on
// error.
//
// A 303, and a 301 or 302 answering a POST, turn the request into a GET
// without body (RFC 9110 §15.4.2-4). A Location with another scheme,
// host or port drops the credentials (see dropCredentials); a relative
// one keeps a Host field set apart from the URI.
func redirect(req *Request, resp *Response, t *target, sameOnly bool) error {
	loc := resp.Header.Get("Location")
	if len(loc) == 0 {
		return ErrInvalidURI
	}
	uri, absolute, err := resolveReference(nil, t, loc)
	if err != nil {
		return err
	}
	nt, err := splitURI(uri)
	if err != nil {
		return err
	}
	if !wire.ValidHost(nt.authority, false) || hasCTL(uri) {
		return ErrInvalidURI // before anything in req changes
	}
	same := sameOrigin(t, &nt)
	if sameOnly && !same {
		return ErrRedirectOtherHost
	}
	if !same {
		dropCredentials(&req.Header)
	}
	var host []byte
	if !absolute && !bytes.Equal(t.host, t.authority) {
		host = append(host, t.host...) // t.host aliases req's storage
	}
	m := string(req.head.Method)
	if resp.status == 303 && m != "HEAD" || (resp.status == 301 || resp.status == 302) && m == "POST" {
		req.SetMethod("GET")
		req.body, req.stream = req.body[:0], bodySource{}
	}
	req.SetURI(string(uri))
	if host != nil {
		req.SetHost(string(host))
	}
	return nil
}

// dropCredentials deletes from h the request fields that carry
// credentials for the original origin of a redirect (RFC 9110 §11.6.2,
// §11.7.2, RFC 6265 §5.4), so that they are not sent to another one.
func dropCredentials(h *Header) {
	for _, name := range [...]string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2"} {
		h.Del(name)
	}
}

// sameOrigin reports whether a and b have the same origin (RFC 6454 §4):
// scheme, host (compared case-insensitively) and port (80 or 443 when
// absent).
func sameOrigin(a, b *target) bool {
	if a.https != b.https {
		return false
	}
	def := "80"
	if a.https {
		def = "443"
	}
	ah, ap := splitAuthority(a.authority)
	bh, bp := splitAuthority(b.authority)
	return ascii.EqualFold(ah, bh) && portOr(ap, def) == portOr(bp, def)
}

// splitAuthority splits host[:port] (an IPv6 host in brackets) into host
// and port, without leading zeros; port is empty when absent.
func splitAuthority(a []byte) (host, port []byte) {
	host = a
	if i := bytes.LastIndexByte(a, ':'); i >= 0 && i > bytes.LastIndexByte(a, ']') {
		host, port = a[:i], a[i+1:]
	}
	for len(port) > 1 && port[0] == '0' {
		port = port[1:]
	}
	return host, port
}

// portOr returns port as a string, or def when it is empty. Inlined where
// its result is only compared, the conversion does not allocate.
func portOr(port []byte, def string) string {
	if len(port) == 0 {
		return def
	}
	return string(port)
}

// resolveReference appends to dst the absolute URI denoted by ref, a URI
// reference (RFC 3986 §4.1) such as a Location field value, relative to
// the base URI of t: the strict algorithm of RFC 3986 §5.2.2, with the
// dot segments of the path removed (§5.2.4) and without the fragment. It
// reports whether ref had an authority of its own (an absolute URI or a
// network-path reference). A scheme other than http or https
// (case-insensitive) is errRedirectScheme; an http(s) URI without
// authority ("http:g") is ErrInvalidURI.
func resolveReference(dst []byte, t *target, ref []byte) ([]byte, bool, error) {
	if i := bytes.IndexByte(ref, '#'); i >= 0 {
		ref = ref[:i]
	}
	https := t.https
	if scheme, rest, ok := cutScheme(ref); ok {
		switch {
		case ascii.EqualFold(scheme, "http"):
			https = false
		case ascii.EqualFold(scheme, "https"):
			https = true
		default:
			return dst, false, errRedirectScheme
		}
		if !bytes.HasPrefix(rest, []byte("//")) {
			return dst, false, ErrInvalidURI // RFC 9110 §4.2.1: a host is required
		}
		ref = rest
	}
	if https {
		dst = append(dst, "https://"...)
	} else {
		dst = append(dst, "http://"...)
	}
	if len(ref) >= 2 && ref[0] == '/' && ref[1] == '/' {
		ref = ref[2:]
		i := 0
		for i < len(ref) && ref[i] != '/' && ref[i] != '?' {
			i++
		}
		dst = append(dst, ref[:i]...)
		path, query := cutQuery(ref[i:])
		return append(appendPath(dst, nil, path), query...), true, nil
	}
	dst = append(dst, t.authority...)
	basePath, baseQuery := cutQuery(t.origin)
	path, query := cutQuery(ref)
	switch {
	case len(path) == 0:
		dst = append(dst, basePath...)
		if len(query) == 0 { // "?" alone is an empty query, kept
			query = baseQuery
		}
	case path[0] == '/':
		dst = appendPath(dst, nil, path)
	default: // merge (RFC 3986 §5.2.3)
		dir := basePath[:bytes.LastIndexByte(basePath, '/')+1]
		if len(dir) == 0 {
			dir = rootPath
		}
		dst = appendPath(dst, dir, path)
	}
	return append(dst, query...), false, nil
}

// cutScheme splits a URI reference that starts with a scheme (RFC 3986
// §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":") into the scheme
// and what follows the colon.
func cutScheme(ref []byte) (scheme, rest []byte, ok bool) {
	for i, c := range ref {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return ref[:i], ref[i+1:], true
		default:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// cutQuery splits s before its "?", if any: query keeps the "?".
func cutQuery(s []byte) (path, query []byte) {
	if i := bytes.IndexByte(s, '?'); i >= 0 {
		return s[:i], s[i:]
	}
	return s, nil
}

// appendPath appends dir+path with its dot segments removed.
func appendPath(dst, dir, path []byte) []byte {
	start := len(dst)
	dst = append(append(dst, dir...), path...)
	return dst[:start+len(removeDotSegments(dst[start:]))]
}

// removeDotSegments removes the "." and ".." segments of path p (RFC
// 3986 §5.2.4), in place: the result is a prefix of p's storage.
func removeDotSegments(p []byte) []byte {
	out, in := p[:0], p
	for len(in) > 0 {
		switch {
		case bytes.HasPrefix(in, []byte("../")):
			in = in[3:]
		case bytes.HasPrefix(in, []byte("./")):
			in = in[2:]
		case bytes.HasPrefix(in, []byte("/./")):
			in = in[2:]
		case string(in) == "/.":
			in[1] = '/'
			in = in[1:]
		case bytes.HasPrefix(in, []byte("/../")):
			in = in[3:]
			out = out[:max(bytes.LastIndexByte(out, '/'), 0)]
		case string(in) == "/..":
			in[2] = '/'
			in = in[2:]
			out = out[:max(bytes.LastIndexByte(out, '/'), 0)]
		case string(in) == "." || string(in) == "..":
			in = in[len(in):]
		default:
			i := 1
			for i < len(in) && in[i] != '/' {
				i++
			}
			out = append(out, in[:i]...)
			in = in[i:]
		}
	}
	return out
}

// hasCTL reports whether b holds a control byte (%x00-1F, DEL).
func hasCTL(b []byte) bool {
	for _, c := range b {
		if ascii.IsCTL(c) {
			return true
		}
	}
	return false
}
