package router

import (
	"bytes"

	"github.com/brisk-http/brisk"
)

// normalPath reports whether raw, the path of the request-target as
// received, is in normal form: not empty (an absolute-form target with
// no path, whose normal form is "/", RFC 3986 §6.2.3), no empty segment
// ("//") and no dot-segment, "%2e" counting as "." (see
// brisk.DecodePath).
// Else the Router redirects to Request.Path, its normalized form.
func normalPath(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	for i := 1; i <= len(raw); {
		end := len(raw)
		if j := bytes.IndexByte(raw[i:], '/'); j >= 0 {
			end = i + j
		}
		if seg := raw[i:end]; len(seg) == 0 && end < len(raw) || isDotSegment(seg) {
			return false
		}
		i = end + 1
	}
	return true
}

// isDotSegment reports whether seg is "." or "..", each dot possibly
// written "%2e" or "%2E".
func isDotSegment(seg []byte) bool {
	dots := 0
	for i := 0; i < len(seg); i++ {
		switch {
		case seg[i] == '.':
		case seg[i] == '%' && i+2 < len(seg) && seg[i+1] == '2' && seg[i+2]|0x20 == 'e':
			i += 2
		default:
			return false
		}
		dots++
	}
	return dots == 1 || dots == 2
}

// redirect answers 307 (RFC 9110 §15.4.8: the method and body are kept)
// with Location naming path, escaped, a "/" appended when slash is set,
// and the request's query.
func (r *Router) redirect(c *brisk.Ctx, path []byte, slash bool) {
	q := c.Request.Query()
	loc := field("Location", 3*len(path)+2+len(q))
	loc.b = appendEscapedPath(loc.b, path)
	if slash {
		loc.b = append(loc.b, '/')
	}
	if len(q) > 0 {
		loc.b = append(append(loc.b, '?'), q...)
	}
	r.reply(c, 307, ErrRedirect)
	setField(c, loc)
}

// appendEscapedPath appends path, a Request.Path, percent-encoding what
// net/url encodes in a path (all but unreserved characters and
// "$&+,/:;=@"), except "%", which in Request.Path always starts an escape
// left encoded.
func appendEscapedPath(dst, path []byte) []byte {
	for _, c := range path {
		if pathKeepTable[c] != 0 {
			dst = append(dst, c)
		} else {
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// pathKeepTable is 1 at the bytes appendEscapedPath copies as they are.
const pathKeepTable = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x01\x01\x01\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x00" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x01" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x01\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
