package brisk

import "github.com/brisk-http/brisk/wire"

// Byte classes used by the request-target, cookie and args code. Each class
// is a pair of 64-bit masks over US-ASCII (bit c of lo for c < 64, bit c-64
// of hi for 64 <= c < 128); bytes >= 0x80 belong to no class. Constants,
// not tables, so there is no package-level mutable state. The masks are
// checked against their RFC definitions in charclass_test.go.
const (
	// cookie-octet (RFC 6265 §4.1.1): %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E
	cookieOctetLo = 0xf7ffeffa00000000
	cookieOctetHi = 0x7fffffffefffffff

	// av-octet (RFC 6265 §4.1.1): any CHAR except CTLs or ";"
	avOctetLo = 0xf7ffffff00000000
	avOctetHi = 0x7fffffffffffffff
)

// inClass reports whether c is in the class given by its two masks.
func inClass(c byte, lo, hi uint64) bool {
	if c < 64 {
		return lo>>c&1 != 0
	}
	if c < 128 {
		return hi>>(c-64)&1 != 0
	}
	return false
}

// validToken reports whether b is a non-empty token (RFC 9110 §5.6.2).
func validToken[T string | []byte](b T) bool { return wire.ValidFieldName(b) }

// isCTL reports whether c is a control character: %x00-1F or DEL
// (RFC 5234 §B.1).
func isCTL(c byte) bool { return c < 0x20 || c == 0x7f }

// hexValue is the value of each hexadecimal digit, indexed by byte, and
// 0xff for every other byte (a string constant: no mutable state).
const hexValue = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\xff\xff\xff\xff\xff\xff" +
	"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"

// isOWS reports whether c is optional whitespace: SP or HTAB (RFC 9110 §5.6.3).
func isOWS(c byte) bool { return c == ' ' || c == '\t' }

// trimOWS removes leading and trailing SP and HTAB from b.
func trimOWS(b []byte) []byte {
	for len(b) > 0 && isOWS(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isOWS(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
