package compress

import "github.com/brisk-http/brisk"

// matchNotModified gives a 304 with a strong ETag the validator of the
// representation the client holds (RFC 9110 §15.4.5: the ETag a 200
// would have carried). A 200 the middleware compressed carried the weak
// form W/"x" of the handler's "x"; a client revalidating that copy sends
// W/"x" in If-None-Match, which matches "x" by the weak comparison, and
// the handler answers 304 with "x". When If-None-Match lists W/"x" but
// not "x", the 304 gets W/"x" and "Vary: Accept-Encoding", as the 200
// had; otherwise it is left alone.
func matchNotModified(c *brisk.Ctx) {
	h := &c.Response.Header
	tag := h.Get("ETag")
	if len(tag) < 2 || tag[0] != '"' {
		return
	}
	weak, strong := false, false
	for v := range c.Request.Header.Values("If-None-Match") {
		for len(v) > 0 {
			var t []byte
			var isWeak bool
			t, isWeak, v = nextTag(v)
			if t == nil {
				break
			}
			if string(t) == string(tag) {
				weak, strong = weak || isWeak, strong || !isWeak
			}
		}
	}
	if !weak || strong {
		return
	}
	setWeakETag(h, tag)
	addVary(h)
}

// nextTag returns the first entity-tag of a comma-separated list (RFC 9110
// §8.8.3), quoted and without its "W/", whether it had one, and the rest
// of the list; t is nil when the list does not start with an
// entity-tag.
func nextTag(v []byte) (t []byte, weak bool, rest []byte) {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t' || v[0] == ',') {
		v = v[1:]
	}
	if len(v) >= 2 && v[0] == 'W' && v[1] == '/' {
		weak, v = true, v[2:]
	}
	if len(v) < 2 || v[0] != '"' {
		return nil, false, nil
	}
	for i := 1; i < len(v); i++ {
		if v[i] == '"' {
			return v[:i+1], weak, v[i+1:]
		}
	}
	return nil, false, nil
}
