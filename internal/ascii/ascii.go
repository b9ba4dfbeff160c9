// Package ascii holds the byte classes, the word-at-a-time (SWAR) helpers
// and the bitmap scans (Match) shared by brisk's HTTP/1.1 codec. Everything
// here is read-only; the tables are computed once from the RFC grammar
// strings below.
package ascii

// Byte classes, as bits of Class.
const (
	// Token marks tchar (RFC 9110 §5.6.2): the bytes of methods, field
	// names and transfer codings.
	Token uint8 = 1 << iota
	// Host marks the bytes of a reg-name (RFC 3986 §3.2.2) that stand
	// for themselves: unreserved and sub-delims. "%" (pct-encoding) is
	// not marked: the caller checks what follows it.
	Host
	// Digit marks 0-9.
	Digit
	// Hex marks 0-9, A-F, a-f.
	Hex
	// FieldVChar marks the bytes of a field value (RFC 9110 §5.5): HTAB,
	// SP, VCHAR and obs-text (0x80-0xFF).
	FieldVChar
	// QDText marks qdtext (RFC 9110 §5.6.4): FieldVChar but DQUOTE and
	// backslash.
	QDText
	// Form marks the bytes with a meaning in a query string or an
	// application/x-www-form-urlencoded body (WHATWG URL Standard §5.1):
	// "%", "&", "+" and "=".
	Form
)

const (
	tcharSet   = "!#$%&'*+-.^_`|~" + digits + letters
	digits     = "0123456789"
	letters    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	unreserved = letters + digits + "-._~"
	subDelims  = "!$&'()*+,;="
	hostSet    = unreserved + subDelims
	hexSet     = digits + "ABCDEFabcdef"
	lo, hi     = 0x0101010101010101, 0x8080808080808080
)

// Class maps each byte to its class bits. Read-only.
var Class = classes()

func classes() (t [256]uint8) {
	for _, s := range []struct {
		set string
		bit uint8
	}{{tcharSet, Token}, {hostSet, Host}, {digits, Digit}, {hexSet, Hex}, {"%&+=", Form}} {
		for i := 0; i < len(s.set); i++ {
			t[s.set[i]] |= s.bit
		}
	}
	for c := 0; c < 256; c++ {
		if c > ' ' && c != 0x7f || c == ' ' || c == '\t' {
			t[c] |= FieldVChar
			if c != '"' && c != '\\' {
				t[c] |= QDText
			}
		}
	}
	return t
}

// IsToken reports whether b is a tchar.
func IsToken(b byte) bool { return Class[b]&Token != 0 }

// IsDigit reports whether b is 0-9.
func IsDigit(b byte) bool { return b-'0' < 10 }

// IsTokenString reports whether s is a non-empty token (RFC 9110 §5.6.2).
func IsTokenString(s []byte) bool {
	return len(s) > 0 && Run(s, Token) == len(s)
}

// Run returns the length of the run of bytes of s, from its start, whose
// Class has every bit of class set. It tests four bytes at a time.
func Run(s []byte, class uint8) int {
	i := 0
	for ; i+4 <= len(s); i += 4 {
		w := s[i : i+4 : i+4]
		if Class[w[0]]&Class[w[1]]&Class[w[2]]&Class[w[3]]&class != class {
			break
		}
	}
	for i < len(s) && Class[s[i]]&class == class {
		i++
	}
	return i
}

// EqualFoldLower reports whether s equals lower ignoring ASCII case. lower
// must consist of lower-case letters, digits and '-' only, and s of tchars:
// then setting bit 0x20 of each byte of s is an exact case fold. It
// compares eight bytes at a time.
func EqualFoldLower(s []byte, lower string) bool {
	n := len(s)
	if n != len(lower) {
		return false
	}
	if n < 8 {
		for i := 0; i < n; i++ {
			if s[i]|0x20 != lower[i] {
				return false
			}
		}
		return true
	}
	for i := 0; i+8 < n; i += 8 {
		if load64(s[i:i+8])|lo*0x20 != load64s(lower[i:i+8]) {
			return false
		}
	}
	return load64(s[n-8:])|lo*0x20 == load64s(lower[n-8:])
}

func load64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func load64s(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// Bytes is the constraint of the functions that take a string or a byte
// slice alike.
type Bytes interface{ ~string | ~[]byte }

// EqualFold reports whether a and b are equal ignoring ASCII case (the
// comparison of field names and other tokens, RFC 9110 §5.1).
func EqualFold[A, B Bytes](a A, b B) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x != y && (x|0x20 != y|0x20 || x|0x20-'a' > 'z'-'a') {
			return false
		}
	}
	return true
}

// Less returns a word with bit 7 of the lowest byte of x that is below n
// set (bits above it may be spurious), or 0 when no byte of x is below n.
// n must be at most 128. Bytes at or above 0x80 never count as below n.
func Less(x uint64, n byte) uint64 { return (x - lo*uint64(n)) &^ x & hi }

// Zero returns a word whose lowest set bit marks the lowest zero byte of x,
// or 0 when x has no zero byte.
func Zero(x uint64) uint64 { return (x - lo) &^ x & hi }

// Repeat returns a word with b in every byte.
func Repeat(b byte) uint64 { return lo * uint64(b) }

// ValueStop returns a word whose lowest set bit (bit 7 of a byte) marks,
// in little-endian order, the first byte of x that may end or invalidate
// a field value, or 0 when all eight bytes are VCHAR, SP or obs-text (RFC
// 9110 §5.5). Every CTL (0x00-0x1F) and DEL is marked; so are HTAB,
// 0x80-0x9F and 0xFF, which are valid: the caller checks the marked byte
// with Class (FieldVChar) and goes on after it when valid. Four
// operations: add one to each byte (a carry only leaves a 0xFF byte,
// which is marked), drop bit 7 (DEL becomes 0), mark what is then below
// 0x21 (a borrow only marks bytes above a marked one).
func ValueStop(x uint64) uint64 {
	return ((x+lo)&^hi - lo*0x21) & hi
}

// TargetStop is the exact form of ValueStop for request-target bytes (RFC 9112 §3.2):
// it also stops at SP, '#', '%' (for the caller to check pct-encoding)
// and bytes at or above 0x80.
//
// It marks exactly the first such byte (bytes above it may be marked too).
func TargetStop(x uint64) uint64 {
	return Less(x, 0x21) | Zero(x^lo*0x7f) | Zero(x^lo*'#') | Zero(x^lo*'%') | x&hi
}

// IsOWS reports whether c is optional whitespace: SP or HTAB (RFC 9110
// §5.6.3).
func IsOWS(c byte) bool { return c == ' ' || c == '\t' }

// TrimOWS returns b without its leading and trailing SP and HTAB.
func TrimOWS(b []byte) []byte {
	for len(b) > 0 && IsOWS(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && IsOWS(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
