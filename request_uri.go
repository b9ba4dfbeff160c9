package brisk

import (
	"bytes"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// The target URI of an outgoing request (one sent with Client or
// HostClient): SetURI, and the split of that URI into what the client
// dials and what it sends (RFC 9110 §4.2, §7.1; RFC 9112 §3.2).

// SetURI sets the target of a request to send with Client: an absolute
// "http" or "https" URI (RFC 9110 §4.2), "http://host[:port]/path?query".
// The URI is copied. The client connects to host:port (default port 80
// or 443), sends the path and query as the request-target (origin-form,
// "/" when the path is empty) and the authority as the Host field; a
// SetHost after SetURI replaces the Host field only: the connection still
// goes to the URI's host. The URI is checked when the request is sent
// (ErrInvalidURI), not here.
//
// SetURI reuses the request's storage: calling it for every request on a
// reused Request does not grow memory. A fragment ("#...") is not sent.
//
// The request-target is sent as ASCII: SP, the bytes RFC 3986 leaves out
// of URIs ("<>\^`{|}) and bytes >= 0x80 (such as UTF-8) are sent
// percent-encoded with upper-case hex ("/café" is sent as "/caf%C3%A9"),
// in the path and the query, as for a target set with SetTarget or a
// redirect's Location; "%" and existing escapes are sent as they are. A
// target with a control byte (%x00-1F, DEL) is ErrInvalidRequest.
func (r *Request) SetURI(uri string) {
	r.head.Target = copyInto(&r.ownTarget, uri)
	r.head.Form = wire.AbsoluteForm
	r.head.Host = nil
	if t, err := splitURI(r.head.Target); err == nil {
		r.head.Host = copyInto(&r.ownHost, t.authority)
	}
}

// target is where and what a client request is sent: the parts of the
// request's URI, and the Host field.
type target struct {
	https     bool
	authority []byte // host[:port]: the URI's authority, which Client dials
	host      []byte // the Host field sent
	origin    []byte // absolute-path [ "?" query ], the request-target sent

	forward        *proxyRoute // sent to an HTTP proxy: absolute-form target, Proxy-Authorization (client_proxy.go)
	cookies        []byte      // cookie-string from ClientConfig.Jar, sent in the Cookie field (client_jar.go)
	acceptEncoding []byte      // Accept-Encoding to add unless the request has one (client_decompress.go)
}

// clientTarget returns the target of r: from an absolute URI set by
// SetURI, or from an origin-form target (default "/") and Host set by
// SetTarget and SetHost. The authority (what Client dials) is the URI's,
// else r.Host(), else fallback (HostClient's Addr; nil for Client). The
// Host field is r.Host() when set, else the authority. An empty one is
// ErrInvalidURI.
func (r *Request) clientTarget(fallback []byte) (target, error) {
	t, err := splitURI(r.head.Target)
	if err != nil {
		return t, err
	}
	t.host = r.head.Host
	switch {
	case len(t.authority) > 0:
		if len(t.host) == 0 {
			t.host = t.authority
		}
	case len(t.host) > 0:
		t.authority = t.host
	default:
		t.authority, t.host = fallback, fallback
	}
	if len(t.host) == 0 {
		return t, ErrInvalidURI
	}
	return t, nil
}

// splitURI splits an absolute "http"/"https" URI, or takes an
// origin-form target (with no authority).
func splitURI(uri []byte) (target, error) {
	var t target
	switch {
	case len(uri) == 0:
		t.origin = rootPath
		return t, nil
	case uri[0] == '/', len(uri) == 1 && uri[0] == '*': // origin-form, asterisk-form (RFC 9112 §3.2.4)
		t.origin = uri
		return t, nil
	case hasPrefixFold(uri, "http://"):
		uri = uri[7:]
	case hasPrefixFold(uri, "https://"):
		t.https = true
		uri = uri[8:]
	default:
		return t, ErrInvalidURI
	}
	i := 0
	for i < len(uri) && uri[i] != '/' && uri[i] != '?' && uri[i] != '#' {
		if uri[i] == '@' {
			return t, ErrInvalidURI // userinfo is deprecated (RFC 9110 §4.2.4)
		}
		i++
	}
	t.authority, t.origin = uri[:i], uri[i:]
	if j := bytes.IndexByte(t.origin, '#'); j >= 0 {
		t.origin = t.origin[:j]
	}
	switch {
	case i == 0:
		return t, ErrInvalidURI
	case len(t.origin) == 0:
		t.origin = rootPath
	}
	return t, nil
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && ascii.EqualFold(b[:len(prefix)], prefix)
}

// rootPath is the origin-form "/" the client sends for a URI without a
// path. It is only ever read (appended to an encoded request), never
// returned to callers.
var rootPath = []byte("/")
