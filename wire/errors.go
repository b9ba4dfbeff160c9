package wire

import (
	"errors"
	"strconv"
)

// Kind is the closed set of reasons the codec rejects input. Kind
// implements error, so each constant is a sentinel usable with errors.Is,
// whether it is returned bare or wrapped in an *Error that adds the byte
// offset.
type Kind uint8

// The error kinds. The server maps each to one status code in exactly one
// table (brisk's errors.go); the status noted here is that mapping.
const (
	// ErrNeedMore is not a failure: the input ends before the element being
	// parsed does. Call again with more bytes. It is returned bare.
	ErrNeedMore Kind = iota + 1

	ErrRequestLine        // malformed request line (separators, missing parts) → 400
	ErrMethod             // method is not a token (RFC 9110 §9.1) → 400
	ErrTarget             // invalid request-target or form not allowed for the method (RFC 9112 §3.2) → 400
	ErrVersion            // not HTTP/DIGIT.DIGIT (RFC 9112 §2.3) → 400
	ErrVersionUnsupported // well-formed but major version is not 1 → 505
	ErrRequestLineTooLong // request line longer than the limit → 414
	ErrStatusLine         // malformed status line (RFC 9112 §4); client side only → 400 in the table
	ErrStatusCode         // status code not three digits, or outside 100..599 (RFC 9110 §15); client side only → 400 in the table
	ErrLineEnding         // bare CR anywhere, or bare LF when not allowed (RFC 9112 §2.2) → 400
	ErrFieldName          // field name empty or not a token, or whitespace before the colon (RFC 9112 §5.1) → 400
	ErrFieldValue         // CTL other than HTAB in a field value (RFC 9110 §5.5) → 400
	ErrObsFold            // line folding (RFC 9112 §5.2) → 400
	ErrHeaderTooLarge     // head larger than the limit (RFC 6585 §5) → 431
	ErrTooManyFields      // more field lines than the caller's storage holds → 431
	ErrHost               // missing (HTTP/1.1), repeated or invalid Host (RFC 9112 §3.2) → 400
	ErrContentLength      // invalid or conflicting Content-Length (RFC 9112 §6.3) → 400
	ErrFraming            // Content-Length with Transfer-Encoding, chunked twice, TE in HTTP/1.0 (RFC 9112 §6.1) → 400
	ErrTransferCoding     // final transfer coding is not chunked, or unknown coding (RFC 9112 §6.1) → 501
	ErrChunkSize          // chunk-size not 1..16 hex digits (RFC 9112 §7.1) → 400
	ErrChunkExt           // malformed chunk-ext (RFC 9112 §7.1.1) → 400
	ErrChunkData          // chunk data not followed by CRLF → 400
	ErrChunkOverhead      // chunk extensions or framing beyond the overhead limit (CVE-2023-39326 class) → 400
	ErrTrailerTooLarge    // trailer section beyond its limit → 431
	ErrBodyTooLarge       // body beyond a limit (used by callers of the chunked decoder) → 413
	kindCount
)

var kindText = [kindCount]string{
	ErrNeedMore:           "wire: need more input",
	ErrRequestLine:        "wire: malformed request line",
	ErrMethod:             "wire: invalid method",
	ErrTarget:             "wire: invalid request-target",
	ErrVersion:            "wire: malformed HTTP version",
	ErrVersionUnsupported: "wire: HTTP version not supported",
	ErrRequestLineTooLong: "wire: request line too long",
	ErrStatusLine:         "wire: malformed status line",
	ErrStatusCode:         "wire: invalid status code",
	ErrLineEnding:         "wire: invalid line ending",
	ErrFieldName:          "wire: invalid field name",
	ErrFieldValue:         "wire: invalid field value",
	ErrObsFold:            "wire: obsolete line folding",
	ErrHeaderTooLarge:     "wire: header section too large",
	ErrTooManyFields:      "wire: too many fields",
	ErrHost:               "wire: missing, repeated or invalid Host",
	ErrContentLength:      "wire: invalid Content-Length",
	ErrFraming:            "wire: ambiguous message framing",
	ErrTransferCoding:     "wire: unsupported transfer coding",
	ErrChunkSize:          "wire: invalid chunk size",
	ErrChunkExt:           "wire: invalid chunk extension",
	ErrChunkData:          "wire: chunk data not followed by CRLF",
	ErrChunkOverhead:      "wire: chunk framing overhead too large",
	ErrTrailerTooLarge:    "wire: trailer section too large",
	ErrBodyTooLarge:       "wire: body too large",
}

// Error implements error.
func (k Kind) Error() string {
	if k == 0 || k >= kindCount {
		return "wire: unknown error kind " + strconv.Itoa(int(k))
	}
	return kindText[k]
}

// Error is a parse failure: its Kind and the byte offset, counted from the
// start of the input given to the parser, of the first byte found invalid.
// errors.Is(err, k) reports whether err has kind k.
type Error struct {
	Kind   Kind // why the input was rejected; never ErrNeedMore
	Offset int  // index of the first invalid byte in the parser's input
}

// Error implements error.
func (e *Error) Error() string {
	return e.Kind.Error() + " at byte " + strconv.Itoa(e.Offset)
}

// Unwrap returns the Kind, so errors.Is and errors.As see it.
func (e *Error) Unwrap() error { return e.Kind }

// fail returns an *Error of kind k at offset off. Errors are off the steady
// state, so the allocation is acceptable.
func fail(k Kind, off int) error { return &Error{Kind: k, Offset: off} }

// needMore reports whether err is ErrNeedMore, with a type assertion
// rather than an interface comparison (which calls into the runtime).
func needMore(err error) bool {
	k, ok := err.(Kind)
	return ok && k == ErrNeedMore
}

// KindOf returns the Kind in err's chain (err itself, an *Error, or an
// error wrapping either, as brisk's client errors do), or 0 when there is
// none (nil, I/O errors). A bare Kind or *Error is recognised without
// errors.As, so the check is cheap on the parser's hot path.
func KindOf(err error) Kind {
	for {
		switch e := err.(type) {
		case nil:
			return 0
		case Kind:
			return e
		case *Error:
			return e.Kind
		case interface{ As(any) bool }, interface{ Unwrap() []error }:
			var k Kind
			if errors.As(err, &k) {
				return k
			}
			return 0
		case interface{ Unwrap() error }:
			err = e.Unwrap() // a chain without allocating (errors.As's target escapes)
		default:
			return 0 // an I/O error such as io.EOF: no allocation either
		}
	}
}
