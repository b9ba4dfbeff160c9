package brisk

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/brisk-http/brisk/internal/ascii"
)

// SameSite is the SameSite attribute of a cookie (RFC 6265bis §4.1.2.7).
type SameSite uint8

// The SameSite values. SameSiteDefault writes no attribute, leaving the
// user agent's default (Lax in current browsers).
const (
	SameSiteDefault SameSite = iota
	SameSiteLax
	SameSiteStrict
	SameSiteNone // requires Secure
)

// imfFixdate is the layout of an IMF-fixdate (RFC 9110 §5.6.7).
const imfFixdate = "Mon, 02 Jan 2006 15:04:05 GMT"

// SetCookie is one Set-Cookie field value (RFC 6265 §4.1): a cookie for the
// server to send, or one the client received (see ParseSetCookie).
type SetCookie struct {
	// Name is the cookie-name, a token (RFC 6265 §4.1.1). Required.
	Name string

	// Value is the cookie-value: cookie-octets, optionally enclosed in
	// DQUOTEs, which are then part of the value. It may be empty.
	Value string

	// Path is the Path attribute, written unless empty; any CHAR but CTLs
	// and ";" (RFC 6265 §4.1.2.4).
	Path string

	// Domain is the Domain attribute, written unless empty: a host name,
	// optionally with a leading "." that user agents ignore
	// (RFC 6265 §4.1.2.3).
	Domain string

	// Expires is the Expires attribute, written as an IMF-fixdate in GMT
	// unless zero (RFC 6265 §4.1.2.1). Its year must be 1601..9999.
	Expires time.Time

	// MaxAge is the Max-Age attribute in seconds (RFC 6265 §4.1.2.2). Zero
	// writes none (the cookie lasts for the session unless Expires is set);
	// positive writes Max-Age=MaxAge; negative writes Max-Age=0, which
	// deletes the cookie now. ParseSetCookie maps back the same way.
	MaxAge int

	// Secure, HttpOnly and Partitioned are the flag attributes
	// (RFC 6265 §4.1.2.5-4.1.2.6, CHIPS). Partitioned requires Secure.
	Secure, HttpOnly, Partitioned bool

	// SameSite is the SameSite attribute; SameSiteNone requires Secure.
	SameSite SameSite
}

// AppendTo appends c as a Set-Cookie field value to dst and returns the
// extended slice. It refuses, rather than sanitizes, anything that would
// change the meaning of the field or inject into it (CR, LF, ";", other
// CTLs: the CVE-2024-47764 class), returning dst unchanged and:
//   - ErrCookieName when Name is not a token;
//   - ErrCookieValue when Value is not *cookie-octet or DQUOTE-enclosed
//     *cookie-octet (no SP, DQUOTE inside, ",", ";", "\", CTL, non-ASCII);
//   - ErrCookiePath, ErrCookieDomain for invalid attribute values;
//   - ErrCookieExpires when Expires is set outside years 1601..9999;
//   - ErrCookieSecure when Partitioned or SameSiteNone lacks Secure;
//   - ErrCookiePrefix when a "__Secure-" or "__Host-" name breaks its
//     prefix's rules (RFC 6265bis §4.1.3).
//
// It does not allocate when dst has room.
func (c *SetCookie) AppendTo(dst []byte) ([]byte, error) {
	if err := c.validate(); err != nil {
		return dst, err
	}
	dst = append(dst, c.Name...)
	dst = append(dst, '=')
	dst = append(dst, c.Value...)
	if c.Path != "" {
		dst = append(append(dst, "; Path="...), c.Path...)
	}
	if c.Domain != "" {
		dst = append(append(dst, "; Domain="...), c.Domain...)
	}
	if !c.Expires.IsZero() {
		dst = c.Expires.UTC().AppendFormat(append(dst, "; Expires="...), imfFixdate)
	}
	if c.MaxAge != 0 {
		dst = strconv.AppendInt(append(dst, "; Max-Age="...), int64(max(c.MaxAge, 0)), 10)
	}
	return c.appendFlags(dst), nil
}

// appendFlags appends the flag attributes and SameSite.
func (c *SetCookie) appendFlags(dst []byte) []byte {
	if c.Secure {
		dst = append(dst, "; Secure"...)
	}
	if c.HttpOnly {
		dst = append(dst, "; HttpOnly"...)
	}
	switch c.SameSite {
	case SameSiteLax:
		dst = append(dst, "; SameSite=Lax"...)
	case SameSiteStrict:
		dst = append(dst, "; SameSite=Strict"...)
	case SameSiteNone:
		dst = append(dst, "; SameSite=None"...)
	}
	if c.Partitioned {
		dst = append(dst, "; Partitioned"...)
	}
	return dst
}

// validate checks every part of c; see AppendTo.
func (c *SetCookie) validate() error {
	switch {
	case !validToken(c.Name):
		return ErrCookieName
	case !validCookieValue(c.Value):
		return ErrCookieValue
	case !validCookiePath(c.Path):
		return ErrCookiePath
	case c.Domain != "" && !validCookieDomain(c.Domain):
		return ErrCookieDomain
	case !c.Expires.IsZero() && (c.Expires.UTC().Year() < 1601 || c.Expires.UTC().Year() > 9999):
		return ErrCookieExpires
	case (c.Partitioned || c.SameSite == SameSiteNone) && !c.Secure:
		return ErrCookieSecure
	case strings.HasPrefix(c.Name, "__Secure-") && !c.Secure,
		strings.HasPrefix(c.Name, "__Host-") && (!c.Secure || c.Domain != "" || c.Path != "/"):
		return ErrCookiePrefix
	}
	return nil
}

// validCookieValue reports whether v is cookie-value (RFC 6265 §4.1.1).
func validCookieValue[T string | []byte](v T) bool {
	_, ok := unquoteCookieValue(v, ascii.CookieOctetLo)
	return ok
}

// unquoteCookieValue strips the DQUOTEs around a cookie-value and reports
// whether every byte left is in the class lo, ascii.CookieOctetHi: ascii.CookieOctetLo
// for cookie-octets (RFC 6265 §4.1.1), with SP and "," added by a
// lenient reader.
func unquoteCookieValue[T string | []byte](v T, lo uint64) (T, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	for i := 0; i < len(v); i++ {
		if !ascii.InMask(v[i], lo, ascii.CookieOctetHi) {
			return v, false
		}
	}
	return v, true
}

// validCookiePath reports whether p is *av-octet (RFC 6265 §4.1.1).
func validCookiePath(p string) bool {
	for i := 0; i < len(p); i++ {
		if !ascii.InMask(p[i], ascii.AVOctetLo, ascii.AVOctetHi) {
			return false
		}
	}
	return true
}

// validCookieDomain reports whether d is a host name (RFC 1034 §3.5, as
// relaxed by RFC 1123 §2.1: labels of letters, digits and "-" that neither
// start nor end with "-", 1..63 bytes each, 253 in all), optionally after
// one leading ".".
func validCookieDomain(d string) bool {
	d = strings.TrimPrefix(d, ".")
	if len(d) == 0 || len(d) > 253 {
		return false
	}
	for label := range strings.SplitSeq(d, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// ParseSetCookie parses the Set-Cookie field value v received by a client
// into c, following the user agent algorithm of RFC 6265 §5.2:
//   - the name-value pair before the first ";" must hold "="; name and
//     value are trimmed of whitespace; the name must be a token and the
//     value *cookie-octet, optionally in DQUOTEs (kept);
//   - attribute names are case-insensitive; unknown attributes, and known
//     ones with a value that does not parse, are ignored: Expires must be
//     an HTTP-date (RFC 9110 §5.6.7), Max-Age an integer, Path must start
//     with "/", SameSite one of Strict, Lax or None;
//   - Max-Age wins over Expires for the user agent, but both are reported;
//     a Max-Age of zero or less is reported as MaxAge -1.
//
// Errors: ErrSetCookieSyntax (no "=" in the pair), ErrCookieName,
// ErrCookieValue. c is overwritten; its strings are copies of v.
func ParseSetCookie(v []byte, c *SetCookie) error {
	*c = SetCookie{}
	pair, attrs, _ := bytes.Cut(v, []byte{';'})
	name, value, ok := bytes.Cut(pair, []byte{'='})
	if !ok {
		return ErrSetCookieSyntax
	}
	name, value = ascii.TrimOWS(name), ascii.TrimOWS(value)
	if !validToken(name) {
		return ErrCookieName
	}
	if !validCookieValue(value) {
		return ErrCookieValue
	}
	c.Name, c.Value = string(name), string(value)
	for len(attrs) > 0 {
		var av []byte
		av, attrs, _ = bytes.Cut(attrs, []byte{';'})
		k, val, _ := bytes.Cut(av, []byte{'='})
		c.setAttribute(ascii.TrimOWS(k), ascii.TrimOWS(val))
	}
	return nil
}

// setAttribute applies one cookie-av (RFC 6265 §5.2.1-5.2.6), ignoring
// unknown names and unparsable values.
func (c *SetCookie) setAttribute(k, v []byte) {
	switch {
	case ascii.EqualFold(k, "expires"):
		if t, ok := parseHTTPDate(string(v)); ok {
			c.Expires = t
		}
	case ascii.EqualFold(k, "max-age"):
		if n, err := strconv.Atoi(string(v)); err == nil && len(v) > 0 && v[0] != '+' {
			c.MaxAge = n
			if n <= 0 {
				c.MaxAge = -1
			}
		}
	case ascii.EqualFold(k, "domain"):
		if len(v) > 0 {
			c.Domain = string(bytes.TrimPrefix(v, []byte{'.'}))
		}
	case ascii.EqualFold(k, "path"):
		if len(v) > 0 && v[0] == '/' {
			c.Path = string(v)
		}
	case ascii.EqualFold(k, "secure"):
		c.Secure = true
	case ascii.EqualFold(k, "httponly"):
		c.HttpOnly = true
	case ascii.EqualFold(k, "partitioned"):
		c.Partitioned = true
	case ascii.EqualFold(k, "samesite"):
		c.SameSite = parseSameSite(v)
	}
}

// parseSameSite maps a SameSite attribute value, case-insensitively, to its
// constant; an unknown value is SameSiteDefault.
func parseSameSite(v []byte) SameSite {
	switch {
	case ascii.EqualFold(v, "lax"):
		return SameSiteLax
	case ascii.EqualFold(v, "strict"):
		return SameSiteStrict
	case ascii.EqualFold(v, "none"):
		return SameSiteNone
	}
	return SameSiteDefault
}

// parseHTTPDate parses an HTTP-date in any of its three formats:
// IMF-fixdate, obsolete RFC 850 and asctime (RFC 9110 §5.6.7).
func parseHTTPDate(s string) (time.Time, bool) {
	for _, layout := range [...]string{imfFixdate, "Monday, 02-Jan-06 15:04:05 GMT", "Mon Jan _2 15:04:05 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
