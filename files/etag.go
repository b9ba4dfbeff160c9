package files

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"strconv"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/internal/etag"
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
// of entity-tags) matches tag, by the strong comparison (both tags strong
// and equal) or the weak one (equal opaque-tags). "*" matches any current
// representation. A malformed element ends its field line's list. An
// empty tag matches only "*". The work is linear in the fields' length.
func etagMatch(h *brisk.Header, name string, tag []byte, strong bool) bool {
	opaque, weak := etag.Split(tag)
	for v := range h.Values(name) {
		for {
			t, rest, ok := etag.Next(v)
			if !ok {
				break
			}
			v = rest
			if string(t) == "*" {
				return true
			}
			o, w := etag.Split(t)
			if tag != nil && string(o) == string(opaque) && (!strong || !w && !weak) {
				return true
			}
		}
	}
	return false
}

// isStrongETag reports whether v is a single strong entity-tag.
func isStrongETag(v []byte) bool {
	tag, rest, ok := etag.Next(v)
	return ok && len(ascii.TrimOWS(rest)) == 0 && len(tag) >= 2 && tag[0] == '"'
}
