package files

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Byte ranges (RFC 9110 §14).

// DefaultMaxRanges is the default bound on the ranges of one Range field.
const DefaultMaxRanges = 16

// byteRange is one satisfiable range of a representation: length bytes
// from start.
type byteRange struct {
	start, length int64
}

// contentRange returns the Content-Range value for r of a representation
// of size bytes: "bytes 0-99/1000" (RFC 9110 §14.4).
func (r byteRange) contentRange(size int64) string {
	var b [64]byte
	return string(r.appendContentRange(b[:0], size))
}

// appendContentRange appends the Content-Range value for r to b.
func (r byteRange) appendContentRange(b []byte, size int64) []byte {
	b = append(b, "bytes "...)
	b = strconv.AppendInt(b, r.start, 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, r.start+r.length-1, 10)
	b = append(b, '/')
	return strconv.AppendInt(b, size, 10)
}

// unsatisfiedRange returns the Content-Range of a 416 response for a
// representation of size bytes: "bytes */1000".
func unsatisfiedRange(size int64) string {
	return "bytes */" + strconv.FormatInt(size, 10)
}

// rangeOutcome is what to do about a Range field.
type rangeOutcome uint8

const (
	rangeIgnore        rangeOutcome = iota // serve the whole representation (200)
	rangePartial                           // serve the ranges (206)
	rangeUnsatisfiable                     // 416 with Content-Range: bytes */size
)

// parseRange evaluates a Range value against a representation of size
// bytes (RFC 9110 §14.1.2, §14.2) and appends its satisfiable ranges to dst.
//
// A value that is not `bytes=range-set` (another unit, a syntax error, a
// last-pos below its first-pos) is ignored, as RFC 9110 allows. So is a
// value of more than maxRanges ranges, or of several ranges that overlap
// or add up to more than size: answering them would send more than the
// whole representation (the amplification of RFC 9110 §17.15), so the
// whole is sent once instead. A valid value none of whose ranges is
// satisfiable (a first-pos at or past size, a suffix-length of 0) gives
// rangeUnsatisfiable. Parsing stops after maxRanges+1 elements.
func parseRange(v []byte, size int64, maxRanges int, dst []byteRange) ([]byteRange, rangeOutcome) {
	v = ascii.TrimOWS(v)
	if len(v) < 6 || !ascii.EqualFold(v[:6], "bytes=") {
		return dst, rangeIgnore
	}
	v = v[6:]
	n := 0
	for len(v) > 0 {
		var spec []byte
		spec, v, _ = bytes.Cut(v, []byte{','})
		spec = ascii.TrimOWS(spec)
		if len(spec) == 0 {
			continue // empty list elements are allowed (RFC 9110 §5.6.1)
		}
		if n++; n > maxRanges {
			return dst[:0], rangeIgnore
		}
		r, ok, valid := parseRangeSpec(spec, size)
		if !valid {
			return dst[:0], rangeIgnore
		}
		if ok {
			dst = append(dst, r)
		}
	}
	switch {
	case n == 0:
		return dst, rangeIgnore
	case len(dst) == 0:
		return dst, rangeUnsatisfiable
	case len(dst) > 1 && !disjointWithin(dst, size):
		return dst[:0], rangeIgnore
	}
	return dst, rangePartial
}

// parseRangeSpec parses `first-pos "-" [ last-pos ]` or `"-" suffix-length`
// against size: valid is false for a syntax error, ok false for a valid but
// unsatisfiable range.
func parseRangeSpec(spec []byte, size int64) (r byteRange, ok, valid bool) {
	i := bytes.IndexByte(spec, '-')
	if i < 0 {
		return r, false, false
	}
	first, last := spec[:i], spec[i+1:]
	if len(first) == 0 { // suffix-range
		n, good := parsePos(last)
		if !good {
			return r, false, false
		}
		if n == 0 || size == 0 {
			return r, false, true
		}
		n = min(n, size)
		return byteRange{start: size - n, length: n}, true, true
	}
	start, good := parsePos(first)
	if !good {
		return r, false, false
	}
	end := int64(-1)
	if len(last) > 0 {
		if end, good = parsePos(last); !good || end < start {
			return r, false, false
		}
	}
	if start >= size {
		return r, false, true
	}
	if end < 0 || end >= size {
		end = size - 1
	}
	return byteRange{start: start, length: end - start + 1}, true, true
}

// parsePos parses 1*DIGIT; values past 18 digits saturate (they are past
// any size).
func parsePos(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < 1e17 {
			n = n*10 + int64(c-'0')
		} else {
			n = 1 << 62
		}
	}
	return n, true
}

// disjointWithin reports whether the ranges do not overlap and add up to
// at most size bytes. It sorts a copy of rs only when needed.
func disjointWithin(rs []byteRange, size int64) bool {
	var total int64
	sorted := true
	for i, r := range rs {
		total += r.length
		if i > 0 && r.start < rs[i-1].start {
			sorted = false
		}
	}
	if total > size {
		return false
	}
	if !sorted {
		rs = slices.Clone(rs)
		slices.SortFunc(rs, func(a, b byteRange) int { return cmp.Compare(a.start, b.start) })
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].start < rs[i-1].start+rs[i-1].length {
			return false
		}
	}
	return true
}
