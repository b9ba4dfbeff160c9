package brisk

import (
	"net/url"
	"slices"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Cookie jars for the client (RFC 6265 §5.3, §5.4).

// CookieJar stores the cookies a client receives and gives the ones to
// send, as ClientConfig.Jar. It must be safe for concurrent use. Its
// methods take and give field values as bytes, so that a jar need not
// build an http.Cookie per cookie. Package httpjar adapts any
// net/http.CookieJar (such as net/http/cookiejar's, with a public-suffix
// list).
type CookieJar interface {
	// AppendCookies appends to dst the cookie-string to send to u
	// ("a=1; b=2", RFC 6265 §5.4), or nothing when there is none, and
	// returns the extended slice.
	AppendCookies(dst []byte, u *url.URL) []byte

	// StoreSetCookies stores the cookies of the Set-Cookie field values
	// of a response from u (RFC 6265 §5.3). The values alias the
	// response and are valid only during the call.
	StoreSetCookies(u *url.URL, setCookies [][]byte)
}

// jarURL returns the URL t was (or is to be) sent to.
func jarURL(t *target) *url.URL {
	u := &url.URL{Scheme: "http", Host: string(t.authority)}
	if t.https {
		u.Scheme = "https"
	}
	path, query := t.origin, []byte(nil)
	for i, c := range path {
		if c == '?' {
			path, query = path[:i], path[i+1:]
			break
		}
	}
	u.Path, _ = url.PathUnescape(string(path))
	u.RawPath, u.RawQuery = string(path), string(query)
	return u
}

// addJarCookies sets t's jar cookies from jar, to be sent with the
// request's own Cookie field (see appendRequest).
func addJarCookies(jar CookieJar, t *target) {
	t.cookies = jar.AppendCookies(nil, jarURL(t))
}

// storeJarCookies gives the Set-Cookie fields of resp, received from t,
// to jar.
func storeJarCookies(jar CookieJar, t *target, resp *Response) {
	if values := slices.Collect(resp.Header.Values("Set-Cookie")); len(values) > 0 {
		jar.StoreSetCookies(jarURL(t), values)
	}
}

// appendFieldsWithCookies appends the caller's fields as
// wire.AppendFields does, with the jar's cookie-string jar joined to the
// first Cookie field ("a=1; b=2"), or in a Cookie field of its own after
// them when there is none: one Cookie field is sent (RFC 6265 §5.4).
func appendFieldsWithCookies(dst []byte, fields []wire.Field, jar []byte) []byte {
	merged := false
	for _, f := range fields {
		if clientManaged.Has(wire.ClassifyField(f.Name)) {
			continue
		}
		if merged || !ascii.EqualFold(f.Name, "Cookie") {
			dst = wire.AppendField(dst, f.Name, f.Value)
			continue
		}
		dst = append(dst, f.Name...)
		dst = append(dst, ": "...)
		dst = append(dst, f.Value...)
		dst = append(dst, "; "...)
		dst = append(dst, jar...)
		dst = append(dst, "\r\n"...)
		merged = true
	}
	if !merged {
		dst = wire.AppendField(dst, "Cookie", jar)
	}
	return dst
}
