package brisk

import (
	"bytes"
	"io"
	"mime/multipart"
)

// Default multipart limits, used when a MultipartLimits field is zero.
const (
	DefaultMaxMultipartParts  = 1000     // parts
	DefaultMaxMultipartMemory = 10 << 20 // 10 MiB
	DefaultMaxMultipartDisk   = 32 << 20 // 32 MiB
)

// MultipartLimits bounds the resources ParseMultipart may use. Zero or
// negative fields take the Default* values above; there is no "unlimited".
type MultipartLimits struct {
	// MaxParts is the largest number of parts. Zero or negative means
	// DefaultMaxMultipartParts (1000); more is ErrMultipartParts (413).
	// The standard library applies its own cap as well (1000 by default,
	// GODEBUG multipartmaxparts).
	MaxParts int

	// MaxMemoryBytes is how much file content is kept in memory, in
	// bytes; larger files go to temporary files on disk. Zero or negative
	// means DefaultMaxMultipartMemory (10 MiB). Non-file values are always kept
	// in memory, within MaxMemoryBytes plus the standard library's 10 MiB
	// allowance.
	MaxMemoryBytes int64

	// MaxDiskBytes bounds what may be written to temporary files, in bytes.
	// Zero or negative means DefaultMaxMultipartDisk (32 MiB). It is enforced by
	// refusing a body longer than MaxMemoryBytes + MaxDiskBytes (part
	// headers and delimiters included): ErrMultipartTooLarge (413).
	MaxDiskBytes int64
}

// ParseMultipart reads a multipart/form-data body (RFC 7578) with the given
// boundary (see MultipartBoundary) through the standard library's
// mime/multipart, within limits.
//
// On success the caller owns the form and must call form.RemoveAll when
// done with it, which deletes its temporary files; the server does so
// after the handler returns. On error no temporary file is left behind.
// Errors: ErrMultipartParts, ErrMultipartTooLarge, or a mime/multipart
// error for a malformed body (answer 400), or the error of body.
func ParseMultipart(body io.Reader, boundary string, limits MultipartLimits) (*multipart.Form, error) {
	limits = limits.withDefaults()
	r := &limitedPartsReader{
		r:         body,
		remaining: limits.MaxMemoryBytes + limits.MaxDiskBytes,
		delimiter: []byte("--" + boundary),
		maxDelims: limits.MaxParts + 1, // the close-delimiter ends the last part
	}
	form, err := multipart.NewReader(r, boundary).ReadForm(limits.MaxMemoryBytes)
	if r.err != nil { // our limit, whatever multipart wrapped it in
		err = r.err
	}
	if err != nil {
		if form != nil {
			form.RemoveAll()
		}
		return nil, err
	}
	return form, nil
}

// withDefaults returns l with zero fields replaced by the defaults.
func (l MultipartLimits) withDefaults() MultipartLimits {
	if l.MaxParts <= 0 {
		l.MaxParts = DefaultMaxMultipartParts
	}
	if l.MaxMemoryBytes <= 0 {
		l.MaxMemoryBytes = DefaultMaxMultipartMemory
	}
	if l.MaxDiskBytes <= 0 {
		l.MaxDiskBytes = DefaultMaxMultipartDisk
	}
	return l
}

// limitedPartsReader passes a multipart body through, failing once it is
// longer than remaining bytes or holds more than maxDelims occurrences of
// delimiter ("--" boundary), which bounds the number of parts: the
// boundary cannot occur inside a part (RFC 2046 §5.1.1).
type limitedPartsReader struct {
	r         io.Reader
	remaining int64
	delimiter []byte
	maxDelims int
	delims    int
	tail      []byte // last len(delimiter)-1 bytes seen, for matches across reads
	span      []byte // scratch: tail followed by the start of the next read
	err       error  // the limit error, sticky
}

// Read implements io.Reader.
func (l *limitedPartsReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if int64(len(p)) > l.remaining+1 {
		p = p[:l.remaining+1]
	}
	n, err := l.r.Read(p)
	l.remaining -= int64(n)
	if l.remaining < 0 {
		l.err = ErrMultipartTooLarge
		return 0, l.err
	}
	if l.countDelimiters(p[:n]) > l.maxDelims {
		l.err = ErrMultipartParts
		return 0, l.err
	}
	return n, err
}

// countDelimiters adds the occurrences of the delimiter in b, including
// those that start in the bytes before b, to the running count and
// returns it.
func (l *limitedPartsReader) countDelimiters(b []byte) int {
	keep := len(l.delimiter) - 1
	l.span = append(append(l.span[:0], l.tail...), b[:min(len(b), keep)]...)
	l.delims += bytes.Count(l.span, l.delimiter) + bytes.Count(b, l.delimiter)
	if len(b) >= keep {
		l.tail = append(l.tail[:0], b[len(b)-keep:]...)
	} else {
		l.tail = append(l.tail[:0], l.span[max(0, len(l.span)-keep):]...)
	}
	return l.delims
}
