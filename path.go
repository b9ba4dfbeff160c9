package brisk

import "github.com/brisk-http/brisk/internal/ascii"

// DecodePath appends to dst the percent-decoded (RFC 3986 §2.1) and
// normalized form of rawPath, the path component of an origin-form or
// absolute-form request-target, and returns the extended slice. It does not
// allocate when dst has room for len(rawPath)+1 bytes; the result never
// aliases rawPath, which is left unchanged.
//
// Octets that would change the path's structure or that no resource name
// needs stay percent-encoded, in uppercase: "%2F" ("/"), "%5C" ("\"),
// "%25" ("%") and the control characters %x00-1F and %x7F (NUL, CR, LF,
// ...). So "/a%2Fb" is one segment "a%2Fb", and a "%" in the result always
// starts such an escape: the result is unambiguous and must not be decoded
// again. This follows RFC 3986 §6.2.2.2, which allows decoding only octets
// whose meaning does not change, and keeps brisk's view of the path equal
// to that of a proxy that normalizes the same way.
//
// The result always starts with "/" and can never name anything above the
// root:
//   - escapes of unreserved characters are decoded before dot-segments are
//     removed, so "%2e%2e" and ".%2E" act like "..";
//   - dot-segments are removed (RFC 3986 §5.2.4): "." disappears, ".."
//     removes the previous segment and, at the root, is dropped, so
//     "/../../etc/passwd" yields "/etc/passwd";
//   - empty segments ("//") are collapsed into one "/";
//   - a trailing "/" is kept ("/a/" stays "/a/"), and a path ending in a
//     dot-segment ends in "/" ("/a/b/.." yields "/a/").
//
// An empty rawPath yields "/" (RFC 9112 §3.2.2). Errors, with dst returned
// unextended:
//   - ErrPathStart when a non-empty rawPath does not start with "/";
//   - ErrPathEscape for "%" not followed by two hex digits ("%zz", "%4");
//   - ErrPathByte when rawPath holds a raw (unencoded) control character
//     or backslash, which are not valid in a request-target at all.
//
// Other bytes, including decoded non-ASCII ones, are kept; validating the
// raw target's grammar is the request-line parser's job (RFC 9112 §3.2).
func DecodePath(dst, rawPath []byte) ([]byte, error) {
	if len(rawPath) > 0 {
		if rawPath[0] != '/' {
			return dst, ErrPathStart
		}
		if ascii.PlainPath(rawPath) { // cleanPath: nothing to decode or remove
			return append(dst, rawPath...), nil
		}
	}
	out := append(dst, '/')
	root := len(out) // out[root:] is the path after the leading "/"
	seg := root      // start of the segment being decoded
	for i := 1; i < len(rawPath); i++ {
		j := i
		for j < len(rawPath) && pathSpecialTable[rawPath[j]] == 0 {
			j++
		}
		out = append(out, rawPath[i:j]...) // a run of plain bytes
		if i = j; i == len(rawPath) {
			break
		}
		c := rawPath[i]
		if c == '%' {
			b, ok := unescapeAt(rawPath, i)
			if !ok {
				return dst, ErrPathEscape
			}
			i += 2
			if keepEncoded(b) {
				out = append(out, '%', upperHex[b>>4], upperHex[b&15])
				continue
			}
			c = b
		}
		switch {
		case c == '/':
			out = endSegment(out, root, seg, true)
			seg = len(out)
		case ascii.IsCTL(c) || c == '\\':
			return dst, ErrPathByte
		default:
			out = append(out, c)
		}
	}
	return endSegment(out, root, seg, false), nil
}

// keepEncoded reports whether the octet b, when percent-encoded in a path,
// stays encoded in DecodePath's result.
func keepEncoded(b byte) bool {
	return b == '/' || b == '\\' || b == '%' || ascii.IsCTL(b)
}

const upperHex = "0123456789ABCDEF"

// cleanPath reports whether DecodePath would return p unchanged: p starts
// with "/", holds no byte DecodePath decodes or refuses
// ("%", "\\", CTLs), and no "/" followed by "/" or "." (a conservative test
// for empty and dot-segments: "/.well-known" is not clean, though it
// decodes to itself). It reads p once, sixteen bytes at a time
// (ascii.PlainPath).
func cleanPath(p []byte) bool {
	return len(p) > 0 && p[0] == '/' && ascii.PlainPath(p)
}

// pathSpecialTable is 1 at the bytes DecodePath must look at: "%", "/",
// "\\", CTLs and DEL (a string constant indexed by byte: no
// package-level mutable state; path_test.go checks it).
const pathSpecialTable = "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// endSegment finishes the segment out[seg:] of a path whose first segment
// starts at root (just after the leading "/"). slash reports that a "/"
// follows the segment. A "." segment is removed, a ".." segment removes
// itself and the previous segment, if any; an empty segment followed by a
// "/" is dropped, so slashes never repeat.
func endSegment(out []byte, root, seg int, slash bool) []byte {
	switch s := out[seg:]; {
	case len(s) == 0:
		return out // "//" or leading "/": out already ends in "/"
	case len(s) == 1 && s[0] == '.':
		return out[:seg]
	case len(s) == 2 && s[0] == '.' && s[1] == '.':
		return out[:parentStart(out, root, seg)]
	}
	if slash {
		out = append(out, '/')
	}
	return out
}

// parentStart returns where the segment before the one starting at seg
// starts, or root when there is none: removing out[parentStart:] removes the
// previous segment and keeps its leading "/".
func parentStart(out []byte, root, seg int) int {
	if seg <= root {
		return root
	}
	i := seg - 1 // out[i] is the "/" ending the previous segment
	for i > root && out[i-1] != '/' {
		i--
	}
	return i
}
