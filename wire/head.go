package wire

// Field is one field line (RFC 9112 §5). Name is exactly as received; Value
// has leading and trailing whitespace (SP, HTAB) removed. Both alias the
// parsed input and are valid as long as it is; the capacity of each is its
// length, so appending to one copies it rather than writing over the
// input.
type Field struct {
	Name, Value []byte
}

// TargetForm is the form of a request-target (RFC 9112 §3.2).
type TargetForm uint8

// The request-target forms.
const (
	OriginForm    TargetForm = iota // absolute-path [ "?" query ], e.g. /a?b
	AbsoluteForm                    // absolute-URI, e.g. http://example.com/a
	AuthorityForm                   // host:port, CONNECT only
	AsteriskForm                    // "*", OPTIONS only
)

// Framing says how a message body is delimited (RFC 9112 §6.3).
type Framing uint8

// The framings.
const (
	FramingNone    Framing = iota // no body
	FramingLength                 // exactly ContentLength bytes
	FramingChunked                // chunked transfer coding; decode with ChunkedDecoder
	FramingClose                  // response body runs until the connection closes
)

// FieldSection is the part shared by request and response heads: the field
// lines and what the parser learned from them while scanning.
type FieldSection struct {
	// Fields holds the parsed field lines in wire order. Before parsing the
	// caller sets it to a zero-length slice of its own storage
	// (Reset does); the parser appends and never grows it beyond its
	// capacity: one more field line is ErrTooManyFields.
	Fields []Field

	// Raw is the field section exactly as received: from the first byte of
	// the first field line through the CRLF that ends the last field line.
	// It does not include the empty line (final CRLF) that ends the head,
	// nor any body byte. It is empty when there are no field lines.
	Raw []byte

	// ContentLength is the validated Content-Length, or -1 when absent.
	ContentLength int64

	// contentLengthText is the first Content-Length element as received;
	// repeats must match it byte for byte.
	contentLengthText []byte

	// Chunked reports a Transfer-Encoding whose final coding is chunked.
	Chunked bool

	// TransferEncoding reports that a Transfer-Encoding field was present.
	TransferEncoding bool

	// ConnectionClose and ConnectionKeepAlive report the "close" and
	// "keep-alive" connection options (RFC 9112 §9.3, §9.6).
	ConnectionClose, ConnectionKeepAlive bool

	// Expect100 reports "Expect: 100-continue" (RFC 9110 §10.1.1).
	Expect100 bool

	// Host is the value of the single Host field, nil when absent.
	Host []byte

	// ObsFold reports that a field value was continued by obs-fold and
	// the obs-fold replaced with SP in the parsed input (only
	// ParseResponse with Parser.AllowObsFold). Raw then holds the
	// replaced bytes too.
	ObsFold bool
}

// RequestHead is a parsed request line and field section. Slices alias the
// buffer given to Parser.ParseRequest.
type RequestHead struct {
	Method []byte     // token, e.g. GET
	Target []byte     // request-target exactly as received
	Form   TargetForm // form of Target
	Minor  uint8      // HTTP/1.Minor; the major version is always 1
	FieldSection

	scan scanState
}

// ResponseHead is a parsed status line and field section. Slices alias the
// buffer given to Parser.ParseResponse.
type ResponseHead struct {
	Minor      uint8  // HTTP/1.Minor
	StatusCode int    // 100..599 (RFC 9110 §15)
	Reason     []byte // reason-phrase, possibly empty
	FieldSection

	scan scanState
}

// scanState remembers how far a head has been parsed, so that a call with
// more bytes resumes where the previous one stopped.
type scanState struct {
	next   int // offset of the first line not yet parsed
	search int // offset up to which no LF was found after next

	base      *byte // &buf[0] of the previous call; another buffer restarts the parse
	fieldsAt  int   // offset of the first field line (Raw starts here); 0 while the start line is pending
	empty     uint8 // empty lines skipped before the request line
	tokenDone bool  // the partial line's method or field name has ended
}

// Reset prepares h to parse a new request head into storage: Fields
// becomes storage[:0], and the capacity of storage is the most field lines
// the head may have (one more is ErrTooManyFields). h keeps storage until
// the next Reset; the caller owns it.
func (h *RequestHead) Reset(storage []Field) {
	*h = RequestHead{FieldSection: FieldSection{Fields: storage[:0], ContentLength: -1}}
}

// Reset prepares h to parse a new response head into storage, as
// RequestHead.Reset does.
func (h *ResponseHead) Reset(storage []Field) {
	*h = ResponseHead{FieldSection: FieldSection{Fields: storage[:0], ContentLength: -1}}
}
