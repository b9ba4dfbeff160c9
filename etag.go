package brisk

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"strconv"
	"time"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Entity tags (RFC 9110 §8.8.3) and their comparison (§8.8.3.2).

// sizeModTimeETag appends a strong entity tag made of a file's size and
// modification time (Unix nanoseconds), both in hex: "1f4-17b0c4d2a1e3f000".
func sizeModTimeETag(b []byte, size int64, modtime time.Time) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, size, 16)
	b = append(b, '-')
	b = strconv.AppendInt(b, modtime.UnixNano(), 16)
	return append(b, '"')
}

// hashETag returns a strong entity tag made of the SHA-256 of r's content
// (its first 144 bits, in unpadded base64url), read as a stream.
func hashETag(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	var sum [sha256.Size]byte
	return `"` + base64.RawURLEncoding.EncodeToString(h.Sum(sum[:0])[:18]) + `"`, nil
}

// encodedETag appends "-" and the content coding to etag inside its
// quotes ("abc" and "br" give "abc-br"), so each encoding of a file has
// its own tag. An empty coding leaves etag as is.
func encodedETag(etag []byte, coding string) []byte {
	if coding == "" || len(etag) < 2 {
		return etag
	}
	etag = append(etag[:len(etag)-1], '-')
	etag = append(etag, coding...)
	return append(etag, '"')
}

// etagMatch reports whether one of the entity tags in the fields named
// name of h (If-Match or If-None-Match: each "*" or a comma-separated list
// of entity-tags) matches etag, by the strong comparison (both tags strong
// and equal) or the weak one (equal opaque-tags). "*" matches any current
// representation. A malformed element ends its field line's list. An
// empty etag matches only "*". The work is linear in the fields' length.
func etagMatch(h *Header, name string, etag []byte, strong bool) bool {
	opaque, weak := splitETag(etag)
	for v := range h.Values(name) {
		for {
			tag, rest, ok := nextETag(v)
			if !ok {
				break
			}
			v = rest
			if string(tag) == "*" {
				return true
			}
			o, w := splitETag(tag)
			if etag != nil && string(o) == string(opaque) && (!strong || !w && !weak) {
				return true
			}
		}
	}
	return false
}

// nextETag returns the next element of a list of entity-tags: "*" or
// `[ "W/" ] DQUOTE *etagc DQUOTE`, skipping OWS and empty elements. ok is
// false at the end of the list or at a malformed element.
func nextETag(v []byte) (tag, rest []byte, ok bool) {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t' || v[0] == ',') {
		v = v[1:]
	}
	switch {
	case len(v) == 0:
		return nil, nil, false
	case v[0] == '*':
		return v[:1], v[1:], true
	}
	i := 0
	if len(v) >= 2 && v[0] == 'W' && v[1] == '/' {
		i = 2
	}
	if i >= len(v) || v[i] != '"' {
		return nil, nil, false
	}
	for j := i + 1; j < len(v); j++ {
		switch c := v[j]; {
		case c == '"':
			return v[:j+1], v[j+1:], true
		case c < 0x21 || c == 0x7f:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// splitETag returns the opaque-tag of an entity-tag (quotes included) and
// whether it is weak ("W/" prefix).
func splitETag(tag []byte) (opaque []byte, weak bool) {
	if len(tag) >= 2 && tag[0] == 'W' && tag[1] == '/' {
		return tag[2:], true
	}
	return tag, false
}

// isStrongETag reports whether v is a single strong entity-tag.
func isStrongETag(v []byte) bool {
	tag, rest, ok := nextETag(v)
	return ok && len(ascii.TrimOWS(rest)) == 0 && len(tag) >= 2 && tag[0] == '"'
}
