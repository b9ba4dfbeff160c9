package compress

import (
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/etag"
)

// matchNotModified gives a 304 with a strong ETag the validator of the
// representation the client holds (RFC 9110 §15.4.5: the ETag a 200
// would have carried). A 200 the middleware compressed carried the weak
// form W/"x" of the handler's "x"; a client revalidating that copy sends
// W/"x" in If-None-Match, which matches "x" by the weak comparison, and
// the handler answers 304 with "x". When If-None-Match lists W/"x" but
// not "x", the 304 gets W/"x" and "Vary: Accept-Encoding", as the 200
// had; otherwise it is left alone. The list is read as brisk reads it
// (package internal/etag): a malformed element ends it. scratch is as
// for setWeakETag.
func matchNotModified(c *brisk.Ctx, scratch *[]byte) {
	h := &c.Response.Header
	tag := h.Get("ETag")
	if len(tag) < 2 || tag[0] != '"' {
		return
	}
	weak, strong := false, false
	for v := range c.Request.Header.Values("If-None-Match") {
		for {
			t, rest, ok := etag.Next(v)
			if !ok {
				break
			}
			v = rest
			if o, isWeak := etag.Split(t); string(o) == string(tag) {
				weak, strong = weak || isWeak, strong || !isWeak
			}
		}
	}
	if !weak || strong {
		return
	}
	setWeakETag(h, tag, scratch)
	addVary(h)
}
