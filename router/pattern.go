package router

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// PatternError is a pattern refused by Router.Register (and Handle, Mount,
// which panic with it).
type PatternError struct {
	// Pattern is the refused pattern, group prefix included.
	Pattern string
	// Conflict is the registered pattern it conflicts with; empty for a
	// syntax error.
	Conflict string
	// Offset is the byte offset in Pattern of a syntax error; -1 for a
	// conflict.
	Offset int
	// Reason says what is wrong, e.g. `both match "/a/b"`.
	Reason string
}

// Error names the pattern (and the one it conflicts with) and the reason.
func (e *PatternError) Error() string {
	if e.Conflict != "" {
		return fmt.Sprintf("router: pattern %q conflicts with %q: %s", e.Pattern, e.Conflict, e.Reason)
	}
	return fmt.Sprintf("router: pattern %q: at offset %d: %s", e.Pattern, e.Offset, e.Reason)
}

// Unwrap returns ErrPatternConflict or ErrPatternSyntax.
func (e *PatternError) Unwrap() error {
	if e.Conflict != "" {
		return ErrPatternConflict
	}
	return ErrPatternSyntax
}

// segKind is what a pattern segment matches.
type segKind uint8

const (
	segLit   segKind = iota // one path segment equal to s
	segSlash                // "{$}": the trailing "/" of the path
	segWild                 // "{s}": any one non-empty segment
	segMulti                // "{s...}", or a trailing "/" (s empty): the rest of the path
)

// segment is one piece of a pattern's path, as in net/http: "/a/" is the
// literal "a" and an anonymous multi, "/a/{$}" the literal "a" and a slash.
type segment struct {
	kind segKind
	s    string // segLit: the literal in Request.Path's form; wildcards: the name
}

// pattern is a parsed route pattern.
type pattern struct {
	str    string
	method string // "" matches any method
	host   string // lower case; "" matches any host
	segs   []segment
}

func (p *pattern) last() segment { return p.segs[len(p.segs)-1] }

// parsePattern parses s, "[METHOD ][HOST]/[PATH]" (net/http.ServeMux's
// syntax, Go 1.22): METHOD a token followed by spaces or tabs, HOST a
// uri-host without port, PATH segments that are literals, "{name}",
// "{name...}" (last) or "{$}" (last). Each literal segment is
// percent-decoded, then put in Request.Path's form (see literalForm).
func parsePattern(s string) (*pattern, error) {
	fail := func(off int, format string, args ...any) (*pattern, error) {
		return nil, &PatternError{Pattern: s, Offset: off, Reason: fmt.Sprintf(format, args...)}
	}
	if s == "" {
		return fail(0, "empty pattern")
	}
	p := &pattern{str: s}
	rest, off := s, 0
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		p.method = s[:i]
		rest = strings.TrimLeft(s[i+1:], " \t")
		off = len(s) - len(rest)
		if !ascii.IsTokenString([]byte(p.method)) {
			return fail(0, "invalid method %q", p.method)
		}
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return fail(off, "host/path missing /")
	}
	if err := checkPatternHost(rest[:i]); err != "" {
		return fail(off, "%s", err)
	}
	p.host = strings.ToLower(rest[:i])
	off += i
	path := rest[i:]
	if c := cleanPatternPath(path); c != path {
		return fail(off, "unclean path can never match (requests are routed by their normalized path %q)", c)
	}
	seen := map[string]bool{}
	for len(path) > 0 {
		path = path[1:] // invariant: path[0] == '/'
		off++
		if path == "" {
			p.segs = append(p.segs, segment{kind: segMulti})
			break
		}
		n := strings.IndexByte(path, '/')
		if n < 0 {
			n = len(path)
		}
		seg := path[:n]
		path = path[n:]
		sg, err := parseSegment(seg, path == "", seen)
		if err != "" {
			return fail(off, "%s", err)
		}
		p.segs = append(p.segs, sg)
		off += n
	}
	return p, nil
}

// parseSegment parses one path segment of a pattern; last reports that
// no segment follows. It returns a reason when the segment is refused.
func parseSegment(seg string, last bool, seen map[string]bool) (segment, string) {
	j := strings.IndexByte(seg, '{')
	if j < 0 {
		lit := literalForm(seg)
		if lit == "." || lit == ".." {
			return segment{}, "segment decodes to a dot-segment and can never match"
		}
		return segment{kind: segLit, s: lit}, ""
	}
	if j != 0 {
		return segment{}, "bad wildcard segment (must start with '{')"
	}
	if seg[len(seg)-1] != '}' {
		return segment{}, "bad wildcard segment (must end with '}')"
	}
	name := seg[1 : len(seg)-1]
	if name == "$" {
		if !last {
			return segment{}, "{$} not at end"
		}
		return segment{kind: segSlash}, ""
	}
	kind := segWild
	if n, ok := strings.CutSuffix(name, "..."); ok {
		if !last {
			return segment{}, "{...} wildcard not at end"
		}
		name, kind = n, segMulti
	}
	switch {
	case name == "":
		return segment{}, "empty wildcard"
	case !validWildcardName(name):
		return segment{}, fmt.Sprintf("bad wildcard name %q", name)
	case seen[name]:
		return segment{}, fmt.Sprintf("duplicate wildcard name %q", name)
	}
	seen[name] = true
	return segment{kind: kind, s: name}, ""
}

// validWildcardName reports whether s is a Go identifier.
func validWildcardName(s string) bool {
	for i, c := range s {
		if !unicode.IsLetter(c) && c != '_' && (i == 0 || !unicode.IsDigit(c)) {
			return false
		}
	}
	return s != ""
}

// checkPatternHost returns why h cannot be a pattern's host, or "".
func checkPatternHost(h string) string {
	switch {
	case h == "":
		return ""
	case strings.IndexByte(h, '{') >= 0:
		return "host contains '{' (missing initial '/'?)"
	case !wire.ValidHost([]byte(h), false):
		return fmt.Sprintf("invalid host %q", h)
	case strings.IndexByte(h[strings.LastIndexByte(h, ']')+1:], ':') >= 0:
		return "host with a port can never match (the port of a request's host is ignored)"
	}
	return ""
}

// cleanPatternPath removes dot-segments and repeated slashes from a
// pattern's path, keeping a trailing "/" (RFC 3986 §5.2.4).
func cleanPatternPath(p string) string {
	b, err := brisk.DecodePath(nil, []byte(strings.ReplaceAll(p, "%", "%25")))
	if err != nil {
		return p
	}
	return strings.ReplaceAll(string(b), "%25", "%")
}

// literalForm returns the literal segment seg as it appears in
// Request.Path: percent-decoded, except that "/", "\", "%" and control
// characters are encoded as "%XX" in upper case (see brisk.DecodePath). An
// invalid escape ("%zz") is taken literally, as net/http does. Comparing
// this form byte by byte with a segment of Request.Path compares the
// decoded octets, as net/http.ServeMux does.
func literalForm(seg string) string {
	dec, ok := unescapeAll([]byte(seg), nil)
	if !ok {
		dec = []byte(seg)
	}
	var b []byte
	for _, c := range dec {
		if keepEncoded(c) {
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// unescapeAll appends to dst s with every "%XX" decoded. ok is false when
// s holds an invalid escape.
func unescapeAll(s, dst []byte) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			dst = append(dst, s[i])
			continue
		}
		if i+2 >= len(s) {
			return dst, false
		}
		h, okh := unhex(s[i+1])
		l, okl := unhex(s[i+2])
		if !okh || !okl {
			return dst, false
		}
		dst = append(dst, h<<4|l)
		i += 2
	}
	return dst, true
}

// unhex returns the value of the hexadecimal digit c, false when c is
// not one.
func unhex(c byte) (byte, bool) {
	switch l := c | 0x20; {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= l && l <= 'f':
		return l - 'a' + 10, true
	}
	return 0, false
}

// keepEncoded reports whether brisk.DecodePath leaves the byte b encoded
// in Request.Path: "/", "\", "%" and the control characters.
func keepEncoded(b byte) bool {
	return b == '/' || b == '\\' || b == '%' || b < 0x20 || b == 0x7f
}

const upperHex = "0123456789ABCDEF"
