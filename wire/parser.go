package wire

import "github.com/brisk-http/brisk/internal/ascii"

// Default limits used when a Parser field is zero.
const (
	DefaultMaxRequestLineBytes = 8 << 10  // 8 KiB
	DefaultMaxHeaderBytes      = 64 << 10 // 64 KiB
)

// Parser holds the limits and leniencies for parsing heads. The zero value
// is strict with default limits. A Parser is read-only while parsing and
// may be shared by goroutines.
type Parser struct {
	// MaxRequestLineBytes is the largest request line, in bytes, excluding
	// its CRLF. Zero means DefaultMaxRequestLineBytes (8 KiB); negative
	// means no limit beyond MaxHeaderBytes. A longer line is
	// ErrRequestLineTooLong (414), reported as soon as the received part
	// of the line is longer, without waiting for its end.
	MaxRequestLineBytes int

	// MaxHeaderBytes is the largest head, in bytes: start line, field
	// section and the final CRLF (empty lines before a request line
	// count too). Zero means DefaultMaxHeaderBytes (64 KiB); negative
	// means no limit. A larger head is ErrHeaderTooLarge (431), reported as
	// soon as that many bytes arrived without the head ending.
	MaxHeaderBytes int

	// AllowBareLF accepts a lone LF as a line ending (RFC 9112 §2.2 MAY).
	// Off by default: a bare LF is ErrLineEnding. A bare CR is always
	// ErrLineEnding.
	AllowBareLF bool

	// AllowEmptyHost accepts an empty Host field value in a request whose
	// target is in origin-form or asterisk-form (RFC 9112 §3.2 lets a
	// client send one when the target URI has no authority). Off by
	// default: an "http" target URI needs an authority (RFC 9110 §4.2.1),
	// so an empty Host is ErrHost (400).
	AllowEmptyHost bool

	// AllowObsFold accepts obs-fold in a response (RFC 9112 §5.2: a user
	// agent MUST replace each obs-fold with SP before interpreting the
	// field): ParseResponse then writes SP over each obs-fold in buf (the
	// CRLF and the SP and HTAB around it, so the head keeps its length),
	// which joins the continuation line to the field value before it, and
	// sets FieldSection.ObsFold. Off by default: obs-fold is ErrObsFold.
	// A field line that starts with SP or HTAB is still ErrObsFold when it
	// is the first one (it continues no field) or when it continues a
	// Content-Length, Transfer-Encoding or Connection field, whose earlier
	// part has been interpreted already. ParseRequest ignores it: a request
	// with obs-fold is always ErrObsFold (400).
	AllowObsFold bool

	// noLookAhead turns the start-line fast paths off (lookahead.go),
	// noQuickFields the field-line one (quickFields):
	// benchmarks measure what a miss costs with them, tests run the strict
	// paths alone (strictPaths).
	noLookAhead, noQuickFields bool
}

// maxEmptyLines is how many empty lines (CRLF) before a request line are
// skipped (RFC 9112 §2.2: a server SHOULD ignore at least one). One more is
// ErrRequestLine.
const maxEmptyLines = 2

// ParseRequest parses a request head at the start of buf into h, which
// must have been Reset before the first call for this head.
//
// It returns the length of the head (empty lines skipped before the
// request line, request line, field section and final CRLF) when
// complete; ErrNeedMore when buf ends first; or an *Error whose Kind says
// why the head is invalid and whose Offset is the first bad byte. Errors
// are reported as soon as the bytes that prove them have arrived: a line
// is checked when it ends, and a bare CR, a bad method byte, obs-fold and
// the limits even before.
//
// After ErrNeedMore, call again with the same bytes extended by more
// input: the parse resumes where it stopped, so total work is linear in
// the head size however it arrives. The bytes already given must not
// change; if buf starts at another address than before (the caller moved
// the partial head), the parse restarts from its first byte.
//
// Up to two empty lines (CRLF) before the request line are skipped (RFC
// 9112 §2.2); a third is ErrRequestLine. A field line that starts with SP
// or HTAB is ErrObsFold, the first one included. The request-target must
// be in a form its method allows (RFC 9112 §3.2, reported in h.Form) with
// no '#' and no byte outside VCHAR; before the query every '%' must start
// a valid pct-encoding, while in the query a '%' not followed by two hex
// digits is a literal byte, as browsers send it ("?d=100%").
//
// When complete, the framing fields are validated (RFC 9112 §6.1, §6.3)
// and Host (§3.2); h's slices alias buf:
//   - Content-Length is 1 to 19 DIGITs within int64; a list ("5, 5") or
//     repeated field lines are accepted only when every element has the
//     same value; anything else is ErrContentLength;
//   - Transfer-Encoding is a list of bare tokens whose final coding must be
//     chunked, appearing once (else ErrFraming); any other coding is
//     ErrTransferCoding;
//   - Content-Length together with Transfer-Encoding, and
//     Transfer-Encoding in an HTTP/1.0 request, are ErrFraming;
//   - an HTTP/1.1 request needs exactly one valid Host field (ErrHost); an
//     empty one only with AllowEmptyHost and a target without authority.
//
// Parsing allocates only to return an *Error.
func (p *Parser) ParseRequest(buf []byte, h *RequestHead) (int, error) {
	if h.scan.inLine(buf, p) {
		return 0, ErrNeedMore
	}
	return p.parseHead(buf, h, nil)
}

// ParseResponse is ParseRequest for a response head (status line and field
// section), used by the client. MaxRequestLineBytes does not apply; Host
// and Expect are not interpreted. With AllowObsFold, obs-fold is accepted
// and replaced with SP in buf (see AllowObsFold), else it is ErrObsFold. The framing rules are those of
// ParseRequest, applied to the response: both Content-Length and
// Transfer-Encoding is ErrFraming, although RFC 9112 §6.3 would let
// chunked win, and a final coding other than chunked is
// ErrTransferCoding rather than a body read until the connection closes.
func (p *Parser) ParseResponse(buf []byte, h *ResponseHead) (int, error) {
	if h.scan.inLine(buf, p) {
		return 0, ErrNeedMore
	}
	return p.parseHead(buf, nil, h)
}

// parseHead is ParseRequest when req is not nil, else ParseResponse: the
// two differ only in the start line and the final checks.
func (p *Parser) parseHead(buf []byte, req *RequestHead, resp *ResponseHead) (int, error) {
	var fs *FieldSection
	var st *scanState
	if req != nil {
		fs, st = &req.FieldSection, &req.scan
	} else {
		fs, st = &resp.FieldSection, &resp.scan
	}
	if len(buf) == 0 {
		return 0, ErrNeedMore
	}
	if st.moved(buf) {
		if st.base != nil {
			if req != nil {
				req.Reset(req.Fields)
			} else {
				resp.Reset(resp.Fields)
			}
		}
		st.base = &buf[0]
	}
	maxLine, maxHead := p.limits()
	b := window(buf, maxHead)
	var err error
	switch {
	case st.startLineDone():
	case req != nil:
		err = p.requestLine(b, req, maxLine)
	default:
		err = p.statusLine(b, resp)
	}
	if err != nil {
		return 0, tooLarge(err, len(buf), maxHead)
	}
	minor := uint8(0)
	if req != nil {
		minor = req.Minor
	} else {
		minor = resp.Minor
	}
	n, err := p.fieldSection(b, fs, st, minor, req != nil)
	if err != nil {
		return 0, tooLarge(err, len(buf), maxHead)
	}
	if req != nil {
		err = p.checkRequest(req)
	} else {
		err = checkResponse(resp)
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// moved reports whether buf (not empty) is not the buffer of the previous
// call: another first byte, or shorter than what was scanned. It is true
// for the first call too.
func (st *scanState) moved(buf []byte) bool {
	return st.base != &buf[0] || st.search > len(buf) || st.next > len(buf)
}

// startLineDone reports whether the start line has been parsed: the field
// lines then start at fieldsAt, after it.
func (st *scanState) startLineDone() bool { return st.fieldsAt > 0 }

// inLine is the fast path for a head arriving in small pieces: it
// reports, having recorded it, that buf only extends a partial field line
// by at most 8 bytes that can neither end the line nor make it invalid
// (tchars or the colon in the name, neither CR nor LF in the value),
// within p's head size limit. The full check would give ErrNeedMore too.
// A head not parsed before has no partial line: that test is inlined.
func (st *scanState) inLine(buf []byte, p *Parser) bool {
	return st.search > st.next && st.extendsLine(buf, p)
}

// extendsLine is inLine once a partial line was scanned.
func (st *scanState) extendsLine(buf []byte, p *Parser) bool {
	s := st.search
	if s >= len(buf) || len(buf)-s > 8 || !st.startLineDone() ||
		st.base != &buf[0] || buf[s-1] == '\r' {
		return false
	}
	if _, max := p.limits(); max >= 0 && len(buf) >= max {
		return false
	}
	done := st.tokenDone
	for _, c := range buf[s:] {
		switch {
		case done:
			if c == '\r' || c == '\n' {
				return false
			}
		case c == ':':
			done = true
		case !ascii.IsToken(c):
			return false
		}
	}
	st.search, st.tokenDone = len(buf), done
	return true
}

// limits returns the effective limits; -1 means none.
func (p *Parser) limits() (line, head int) {
	line, head = p.MaxRequestLineBytes, p.MaxHeaderBytes
	switch {
	case line == 0:
		line = DefaultMaxRequestLineBytes
	case line < 0:
		line = -1
	}
	switch {
	case head == 0:
		head = DefaultMaxHeaderBytes
	case head < 0:
		head = -1
	}
	return line, head
}

// window returns the part of buf a head of at most max bytes can occupy.
func window(buf []byte, max int) []byte {
	if max >= 0 && len(buf) > max {
		return buf[:max]
	}
	return buf
}

// tooLarge turns ErrNeedMore into ErrHeaderTooLarge when n bytes, at least
// the limit max, did not hold the whole head.
func tooLarge(err error, n, max int) error {
	if needMore(err) && max >= 0 && n >= max {
		return fail(ErrHeaderTooLarge, max)
	}
	return err
}

// Framing returns how the body of the request with head h is delimited:
// FramingChunked, FramingLength (with h.ContentLength) or FramingNone
// (RFC 9112 §6.3 rules 4-7).
func (h *RequestHead) Framing() Framing {
	switch {
	case h.Chunked:
		return FramingChunked
	case h.ContentLength >= 0:
		return FramingLength
	}
	return FramingNone
}

// KeepAlive reports whether the connection may stay open after this
// request: HTTP/1.1 unless "Connection: close"; HTTP/1.0 only with
// "Connection: keep-alive" (RFC 9112 §9.3).
func (h *RequestHead) KeepAlive() bool { return h.keepAlive(h.Minor) }

// KeepAlive reports whether the server lets the connection stay open
// after this response, by the same rule as RequestHead.KeepAlive (RFC 9112
// §9.3). The caller still closes after a close-delimited body
// (FramingClose) or a 101.
func (h *ResponseHead) KeepAlive() bool { return h.keepAlive(h.Minor) }

// Interim reports a 1xx response that a final response follows: any 1xx
// but 101 Switching Protocols, which ends HTTP on the connection (RFC 9110
// §15.2).
func (h *ResponseHead) Interim() bool { return h.StatusCode < 200 && h.StatusCode != 101 }

// keepAlive is the persistence rule of RFC 9112 §9.3, shared by both
// heads: HTTP/1.1 unless "close"; HTTP/1.0 only with "keep-alive".
func (fs *FieldSection) keepAlive(minor uint8) bool {
	if fs.ConnectionClose {
		return false
	}
	return minor >= 1 || fs.ConnectionKeepAlive
}

// Framing returns how the body of the response with head h is delimited.
// headRequest reports that it answers a HEAD request. 1xx, 204 and 304
// responses and responses to HEAD have no body (RFC 9112 §6.3 rules 1-7).
func (h *ResponseHead) Framing(headRequest bool) Framing {
	switch {
	case headRequest, h.StatusCode < 200, h.StatusCode == 204, h.StatusCode == 304:
		return FramingNone
	case h.Chunked:
		return FramingChunked
	case h.ContentLength >= 0:
		return FramingLength
	}
	return FramingClose
}
