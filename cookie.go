package brisk

import (
	"bytes"
	"iter"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Request cookies (RFC 6265 §4.2, §5.4). A Cookie field value is a list of
// cookie-pairs "name=value" separated by ";". brisk reads it leniently in
// layout and strictly in content:
//   - optional whitespace around ";" and "=" is ignored, as are empty
//     pairs and pairs without "=";
//   - a pair whose name is not a token (RFC 9110 §5.6.2) or whose value is
//     not *cookie-octet (RFC 6265 §4.1.1; SP and "," are also accepted
//     inside a value, as user agents send them) is skipped, without
//     losing the valid pairs around it;
//   - a value enclosed in DQUOTEs is returned without them;
//   - names are case-sensitive, and the first valid pair with a name wins,
//     across all Cookie fields, in field order (RFC 6265 §5.4 step 2 keeps
//     the user agent's order, so the first is the most specific cookie).
//
// Scanning stops as soon as no "=" remains in the rest of a field value,
// so a value made only of ";" costs one memchr. Nothing allocates; names
// and values alias the field values.

// CookieValue returns the value of the first valid cookie-pair named name
// in the Cookie field value v. ok is false when there is none.
func CookieValue(v []byte, name string) (value []byte, ok bool) {
	if !validToken(name) {
		return nil, false
	}
	for len(v) > 0 {
		var n, val []byte
		if n, val, v = nextCookiePair(v); n == nil {
			return nil, false
		}
		if string(n) == name {
			if val, ok = cookiePairValue(val); ok {
				return val, true
			}
		}
	}
	return nil, false
}

// LookupCookie is CookieValue over several Cookie field values, in order,
// for example those of Header.Values("Cookie").
func LookupCookie(fieldValues iter.Seq[[]byte], name string) (value []byte, ok bool) {
	for v := range fieldValues {
		if value, ok = CookieValue(v, name); ok {
			return value, true
		}
	}
	return nil, false
}

// CookiePairs returns an iterator over the valid cookie-pairs of the Cookie
// field value v, in order, duplicates included.
func CookiePairs(v []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		for len(v) > 0 {
			var n, val []byte
			if n, val, v = nextCookiePair(v); n == nil {
				return
			}
			if !validToken(n) {
				continue
			}
			if val, ok := cookiePairValue(val); ok && !yield(n, val) {
				return
			}
		}
	}
}

// nextCookiePair returns the name and raw value of the next pair in v
// holding an "=", both trimmed of whitespace, and the rest of v after the
// ";" ending it. name is nil when no "=" remains. The name is not
// validated: it may be empty or hold any byte but ";" and "=".
func nextCookiePair(v []byte) (name, value, rest []byte) {
	eq := bytes.IndexByte(v, '=')
	if eq < 0 {
		return nil, nil, nil
	}
	if semi := bytes.LastIndexByte(v[:eq], ';'); semi >= 0 {
		v, eq = v[semi+1:], eq-semi-1
	}
	name, value = ascii.TrimOWS(v[:eq]), v[eq+1:]
	if semi := bytes.IndexByte(value, ';'); semi >= 0 {
		value, rest = value[:semi], value[semi+1:]
	}
	return name[:len(name):len(name)], ascii.TrimOWS(value), rest
}

// cookiePairValue validates the trimmed raw value of a cookie-pair and
// strips its enclosing DQUOTEs.
func cookiePairValue(v []byte) ([]byte, bool) {
	v, ok := unquoteCookieValue(v, ascii.CookieOctetLo|1<<' '|1<<',')
	if !ok {
		return nil, false
	}
	return v[:len(v):len(v)], true
}
