package brisk

import "github.com/brisk-http/brisk/wire"

// SetCookie adds a Set-Cookie field holding c (RFC 6265 §4.1), encoded by
// SetCookie.AppendTo. An invalid cookie, one that would inject into the
// field (CR, LF, ";", CTLs, a name that is not a token: the CVE-2024-47764
// class), adds nothing and returns AppendTo's error. c is copied; each
// call adds one field. It does not allocate once the Header's storage has
// grown.
func (r *Response) SetCookie(c *SetCookie) error {
	h := &r.Header
	start := len(h.arena)
	arena, err := c.AppendTo(append(h.arena, "Set-Cookie"...))
	if err != nil {
		h.arena = h.arena[:start]
		return err
	}
	h.arena = arena
	name := arena[start : start+len("Set-Cookie") : start+len("Set-Cookie")]
	value := arena[start+len(name) : len(arena) : len(arena)]
	h.fields = append(h.fields, wire.Field{Name: name, Value: value})
	return nil
}
