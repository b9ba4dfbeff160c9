package wire

import (
	"bytes"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Default limits of ChunkedDecoder, used when the field is zero.
const (
	DefaultMaxExtensionBytes = 4 << 10  // 4 KiB of chunk-ext per chunk line
	DefaultMaxOverheadBytes  = 16 << 10 // 16 KiB of framing before the 16:1 overhead ratio applies
	DefaultMaxTrailerBytes   = 8 << 10  // 8 KiB of trailer section
)

// chunkOverheadRatio is the most framing bytes a chunked body may carry
// per byte of chunk data once its framing exceeds MaxOverheadBytes (see
// ChunkedDecoder.MaxOverheadBytes). One-byte chunks ("1\r\nX\r\n") cost 5.
const chunkOverheadRatio = 16

// ChunkedDecoder decodes the chunked transfer coding (RFC 9112 §7.1) in
// place and incrementally: input may arrive split at any byte, and the
// result does not depend on where it was split. The zero value is ready to
// use with the default limits and discards trailer fields after validating
// them. A ChunkedDecoder is not safe for concurrent use.
//
// The grammar is applied strictly: chunk-size is 1 to 16 HEXDIG (leading
// zeros count) and at most 2^63-1; no whitespace anywhere in a chunk line
// (the BWS that RFC 9112 §7.1.1 tolerates around ";" and "=" is rejected);
// chunk-ext names are tokens and values are tokens or quoted-strings
// (RFC 9110 §5.6); every line, and the chunk data, ends in CRLF exactly;
// trailer field lines follow the field rules of RFC 9112 §5 and RFC 9110
// §5.5, as the head's field lines do.
type ChunkedDecoder struct {
	// MaxExtensionBytes bounds the chunk-ext of one chunk line: the bytes
	// from its first ";" up to, excluding, the CRLF. Zero means
	// DefaultMaxExtensionBytes (4 KiB); negative means no per-line limit
	// (MaxOverheadBytes still applies). A longer chunk-ext is
	// ErrChunkOverhead (400), detected as soon as the limit is passed.
	MaxExtensionBytes int

	// MaxOverheadBytes bounds the framing that is not chunk data: chunk
	// lines with their CRLF and the CRLF after each chunk's data (the
	// trailer section is bounded separately). Up to MaxOverheadBytes of
	// framing are always accepted; past it, the framing must stay at most
	// chunkOverheadRatio (16) times the chunk data bytes declared so far,
	// or Decode fails with ErrChunkOverhead (400). This bounds what a
	// sender of tiny chunks with long extensions makes the server read for
	// little data (the CVE-2023-39326 class). Zero means
	// DefaultMaxOverheadBytes (16 KiB); negative means no limit.
	MaxOverheadBytes int

	// MaxTrailerBytes bounds the trailer section: the field lines after
	// the last chunk and the final CRLF, in bytes. Zero means
	// DefaultMaxTrailerBytes (8 KiB); negative means no limit but the
	// caller's buffer. A larger section is ErrTrailerTooLarge (431).
	MaxTrailerBytes int

	// Trailers receives the trailer fields (RFC 9112 §7.1.2). Set it to
	// a zero-length slice of caller storage (Reset keeps it); Decode never
	// grows it beyond its capacity: one field more is ErrTooManyFields
	// (431). A nil Trailers validates trailer fields and discards them.
	// The fields are filled in when Done becomes true; their slices alias
	// the src of that Decode call (see Decode) and are valid as long as
	// those bytes are.
	Trailers []Field

	state    chunkState
	digits   uint8 // HEXDIG read in the current chunk-size
	ext      int   // chunk-ext bytes in the current chunk line
	size     int64 // chunk-size being read, then data bytes left in the chunk
	data     int64 // chunk data bytes declared so far, the current chunk's once its size is complete
	overhead int64 // framing bytes read
	base     int   // bytes consumed by earlier Decode calls, for error offsets
	tscan    int   // trailer: offset of the first line not yet validated
	tsearch  int   // trailer: offset up to which no LF was found after tscan
	tlines   int   // trailer: field lines validated
	err      error // sticky: the error returned, once Decode failed
}

// chunkState is the element of the chunked body being read. The states
// before csData are framing, read byte by byte (see frame).
type chunkState uint8

const (
	csSize          chunkState = iota // chunk-size HEXDIG
	csExtName0                        // first byte of a chunk-ext-name, after ";"
	csExtName                         // chunk-ext-name
	csExtVal0                         // first byte of a chunk-ext-val, after "="
	csExtToken                        // chunk-ext-val as a token
	csExtQuoted                       // inside a quoted-string
	csExtQuotedPair                   // after a backslash in a quoted-string
	csExtQuotedEnd                    // after the closing DQUOTE
	csLineLF                          // after the CR ending a chunk line
	csDataCR                          // after chunk data: CR
	csDataLF                          // after chunk data: LF
	csData                            // chunk data
	csTrailer                         // trailer section, read whole
	csDone                            // final CRLF read
)

// Decode decodes the chunked bytes in src, moving the chunk data to the
// front of src with copy. It returns n, the number of body bytes now in
// src[:n], and consumed, the number of bytes of src used, n <= consumed.
//
// Decode never returns ErrNeedMore. A nil error with Done false means the
// body continues: deliver src[:n], keep src[consumed:], and call again
// with those kept bytes followed by more input (the next src must begin
// with them). Chunk lines and chunk data are consumed as they arrive;
// only the trailer section is left unconsumed until it is complete, so
// the caller's buffer must hold more than MaxTrailerBytes bytes for that
// limit to be the one reached.
//
// When Done reports true, the last chunk and the trailer section have
// been read, Trailers is filled, and src[consumed:] is the next message,
// left untouched. Further calls return 0, 0, nil.
//
// On failure the error is an *Error whose Offset counts bytes from the
// first byte given to Decode since Reset; src[:n] holds the data decoded
// before the invalid byte and consumed is that byte's index in src. The
// decoder then stays failed and returns the same error until Reset.
func (d *ChunkedDecoder) Decode(src []byte) (n, consumed int, err error) {
	if d.err != nil {
		return 0, 0, d.err
	}
	r, w := 0, 0
	for r < len(src) {
		switch d.state {
		case csData:
			k := len(src) - r
			if int64(k) > d.size {
				k = int(d.size)
			}
			if w != r {
				copy(src[w:], src[r:r+k])
			}
			w, r = w+k, r+k
			if d.size -= int64(k); d.size == 0 {
				d.state = csDataCR
			}
		case csTrailer:
			end, k, off := d.trailer(src[r:])
			if k != 0 {
				return w, r + off, d.fail(k, r+off)
			}
			if end == 0 {
				d.base += r
				return w, r, nil
			}
			r += end
			d.state = csDone
		case csDone:
			d.base += r
			return w, r, nil
		default:
			var k Kind
			if r, k = d.frame(src, r); k != 0 {
				return w, r, d.fail(k, r)
			}
		}
	}
	d.base += r
	return w, r, nil
}

// Done reports whether the last chunk and the trailer section were decoded.
func (d *ChunkedDecoder) Done() bool { return d.state == csDone }

// Reset prepares d for a new body, keeping its limits and trailer storage
// (Trailers is truncated to length zero).
func (d *ChunkedDecoder) Reset() {
	*d = ChunkedDecoder{
		MaxExtensionBytes: d.MaxExtensionBytes,
		MaxOverheadBytes:  d.MaxOverheadBytes,
		MaxTrailerBytes:   d.MaxTrailerBytes,
		Trailers:          d.Trailers[:0],
	}
}

// fail records and returns the error of kind k at offset off of this
// call's src.
func (d *ChunkedDecoder) fail(k Kind, off int) error {
	d.err = fail(k, d.base+off)
	return d.err
}

// frame reads framing bytes (chunk lines, the CRLF after chunk data) from
// src[r:] until the state leaves them or src ends. It returns the offset of
// the first byte not consumed, or of the invalid byte with its Kind.
//
// The limits are checked at every byte once the chunk-size is complete, so
// the outcome and its offset do not depend on how the input is split.
func (d *ChunkedDecoder) frame(src []byte, r int) (int, Kind) {
	maxOver := int64(limitOr(d.MaxOverheadBytes, DefaultMaxOverheadBytes))
	if d.state == csDataCR && len(src)-r >= 2 && src[r] == '\r' && src[r+1] == '\n' {
		r += 2
		d.overhead += 2
		d.state = csSize
	}
	if d.state == csSize && d.digits == 0 {
		if end := d.plainLine(src, r, maxOver); end > r {
			return end, 0
		}
	}
	maxExt := limitOr(d.MaxExtensionBytes, DefaultMaxExtensionBytes)
	for ; r < len(src) && d.state < csData; r++ {
		if k := d.step(src[r]); k != 0 {
			return r, k
		}
		d.overhead++
		if d.state >= csExtName0 && d.state <= csExtQuotedEnd {
			if d.ext++; d.ext > maxExt {
				return r, ErrChunkOverhead
			}
		}
		if !overheadOK(d.overhead, d.data, maxOver) && d.sizeKnown() {
			return r, ErrChunkOverhead
		}
	}
	return r, 0
}

// plainLine reads the common chunk line, 1 to 15 HEXDIG then CRLF,
// whole from src[r:] and returns the offset after it. It returns r,
// changing nothing, for any other line, an incomplete one, or one that
// breaks the overhead limit: the byte loop then reads it and reports the
// error at the same offset as for any split of the input.
func (d *ChunkedDecoder) plainLine(src []byte, r int, maxOver int64) int {
	i, size := r, int64(0)
	for ; i < len(src) && i-r < 15 && ascii.Class[src[i]]&ascii.Hex != 0; i++ {
		size = size<<4 | int64(ascii.HexValue[src[i]])
	}
	if i == r || len(src)-i < 2 || src[i] != '\r' || src[i+1] != '\n' {
		return r
	}
	over, data := d.overhead+int64(i+2-r), d.data+size
	if !overheadOK(over, data, maxOver) {
		return r
	}
	d.overhead, d.data, d.size = over, data, size
	if d.state = csData; size == 0 {
		d.state = csTrailer
	}
	return i + 2
}

// sizeKnown reports whether the current chunk's size is complete and
// counted in d.data: from the byte after its last HEXDIG through its
// data.
func (d *ChunkedDecoder) sizeKnown() bool {
	return d.state != csSize && d.state != csDataCR && d.state != csDataLF
}

// overheadOK reports whether over bytes of framing are within the limit
// for data bytes of chunk data declared: at most maxOver, or at most
// chunkOverheadRatio times data.
func overheadOK(over, data, maxOver int64) bool {
	return over <= maxOver || data > (1<<63-1)/chunkOverheadRatio || over <= chunkOverheadRatio*data
}

// step advances the framing state over one byte c.
func (d *ChunkedDecoder) step(c byte) Kind {
	switch d.state {
	case csSize:
		return d.sizeByte(c)
	case csExtName0:
		if ascii.Class[c]&ascii.Token == 0 {
			return ErrChunkExt
		}
		d.state = csExtName
	case csExtName:
		if ascii.Class[c]&ascii.Token != 0 {
			return 0
		}
		if c == '=' {
			d.state = csExtVal0
			return 0
		}
		return d.extEnd(c)
	case csExtVal0:
		switch {
		case ascii.Class[c]&ascii.Token != 0:
			d.state = csExtToken
		case c == '"':
			d.state = csExtQuoted
		default:
			return ErrChunkExt
		}
	case csExtToken:
		if ascii.Class[c]&ascii.Token != 0 {
			return 0
		}
		return d.extEnd(c)
	case csExtQuoted:
		switch {
		case c == '"':
			d.state = csExtQuotedEnd
		case c == '\\':
			d.state = csExtQuotedPair
		case ascii.Class[c]&ascii.QDText == 0:
			return ErrChunkExt
		}
	case csExtQuotedPair:
		if ascii.Class[c]&ascii.FieldVChar == 0 {
			return ErrChunkExt
		}
		d.state = csExtQuoted
	case csExtQuotedEnd:
		return d.extEnd(c)
	case csLineLF:
		return d.lineEnd(c)
	case csDataCR:
		if c != '\r' {
			return ErrChunkData
		}
		d.state = csDataLF
	case csDataLF:
		if c != '\n' {
			return ErrChunkData
		}
		d.state = csSize
	}
	return 0
}

// sizeByte reads one byte of chunk-size or the byte after it.
func (d *ChunkedDecoder) sizeByte(c byte) Kind {
	switch {
	case ascii.Class[c]&ascii.Hex != 0:
		// 16 digits at most; refuse a shift that would pass 2^63-1.
		if d.digits == 16 || d.size>>59 != 0 {
			return ErrChunkSize
		}
		d.size = d.size<<4 | int64(ascii.HexValue[c])
		d.digits++
	case d.digits == 0:
		return ErrChunkSize
	case c == ';':
		d.state = csExtName0
	case c == '\r':
		d.state = csLineLF
	case c == '\n':
		return ErrLineEnding
	default:
		return ErrChunkSize
	}
	if d.state != csSize {
		d.data += d.size
	}
	return 0
}

// extEnd reads the byte after a complete chunk-ext name or value.
func (d *ChunkedDecoder) extEnd(c byte) Kind {
	switch c {
	case ';':
		d.state = csExtName0
	case '\r':
		d.state = csLineLF
	case '\n':
		return ErrLineEnding
	default:
		return ErrChunkExt
	}
	return 0
}

// lineEnd reads the LF that must follow the CR ending a chunk line.
func (d *ChunkedDecoder) lineEnd(c byte) Kind {
	if c != '\n' {
		return ErrLineEnding
	}
	d.digits, d.ext = 0, 0
	if d.size == 0 {
		d.state = csTrailer
		return 0
	}
	d.state = csData
	return 0
}

// trailer scans the trailer section at the start of p: field lines, then
// CRLF (RFC 9112 §7.1.2). It returns the section's length when complete,
// or 0 when p ends first; lines already validated are not scanned again
// by the next call. On failure it returns the Kind and offset in p.
func (d *ChunkedDecoder) trailer(p []byte) (end int, k Kind, off int) {
	if d.tsearch > len(p) { // the caller did not keep the bytes: rescan
		d.tscan, d.tsearch, d.tlines = 0, 0, 0
	}
	limit := limitOr(d.MaxTrailerBytes, DefaultMaxTrailerBytes)
	for {
		i := bytes.IndexByte(p[d.tsearch:], '\n')
		if i < 0 {
			d.tsearch = len(p)
			if len(p) > limit {
				return 0, ErrTrailerTooLarge, limit
			}
			return 0, 0, 0
		}
		end = d.tsearch + i + 1
		if end > limit {
			return 0, ErrTrailerTooLarge, limit
		}
		if end-d.tscan < 2 || p[end-2] != '\r' {
			return 0, ErrLineEnding, end - 1
		}
		if end-d.tscan == 2 {
			d.fillTrailers(p[:d.tscan])
			return end, 0, 0
		}
		if _, _, _, stop, _, k := splitFieldLine(p[d.tscan:end]); k != 0 {
			return 0, k, d.tscan + stop
		}
		if d.Trailers != nil && d.tlines == cap(d.Trailers) {
			return 0, ErrTooManyFields, d.tscan
		}
		d.tlines++
		d.tscan, d.tsearch = end, end
	}
}

// fillTrailers appends the fields of the validated field lines in p, each
// ending in CRLF, to d.Trailers.
func (d *ChunkedDecoder) fillTrailers(p []byte) {
	if d.Trailers == nil {
		return
	}
	d.Trailers = d.Trailers[:0]
	for len(p) > 0 {
		colon, v0, v1, stop, _, _ := splitFieldLine(p)
		d.Trailers = append(d.Trailers, Field{Name: p[:colon:colon], Value: p[v0:v1:v1]})
		p = p[stop+2:]
	}
}

// limitOr returns v, or def when v is zero, or the largest int when v is
// negative (no limit).
func limitOr(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return int(^uint(0) >> 1)
	}
	return v
}
