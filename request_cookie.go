package brisk

import "iter"

// Cookie returns the value of the first valid cookie named name in the
// request's Cookie fields, in field order (see CookieValue for the
// parsing rules, RFC 6265 §5.4), or nil when there is none. DQUOTEs
// around the value are removed. The value is valid until the handler
// returns. It does not allocate.
func (r *Request) Cookie(name string) []byte {
	for fv := range r.Header.Values("Cookie") {
		if v, ok := CookieValue(fv, name); ok {
			return v
		}
	}
	return nil
}

// Cookies iterates over the valid cookie-pairs of all Cookie fields, in
// order, duplicates included (see CookiePairs). Names and values are valid
// until the handler returns.
func (r *Request) Cookies() iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		for fv := range r.Header.Values("Cookie") {
			for n, v := range CookiePairs(fv) {
				if !yield(n, v) {
					return
				}
			}
		}
	}
}
