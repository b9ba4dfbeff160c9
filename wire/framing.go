package wire

import (
	"github.com/brisk-http/brisk/internal/ascii"
)

// note records what the field id: value, whose value starts at offset
// off, says about framing and the connection (RFC 9112 §6, §9; RFC 9110
// §7.2, §10.1.1). Host and Expect are interpreted in requests only, and
// Expect from HTTP/1.1 on.
//
// A Host field (RFC 9112 §3.2) must be the only one and hold uri-host
// [":" port]; an empty value is allowed only with AllowEmptyHost
// (checkRequest then checks the target form). It is checked here, the
// most frequent case, without another call.
func (p *Parser) note(fs *FieldSection, id fieldID, value []byte, off int, minor uint8, request bool) error {
	switch id {
	case fieldHost:
		if !request {
			break
		}
		if fs.Host != nil || !ValidHost(value, false) && (len(value) > 0 || !p.AllowEmptyHost) {
			return fail(ErrHost, off)
		}
		fs.Host = value
	case fieldExpect:
		if request && minor >= 1 && ascii.EqualFold(value, "100-continue") {
			fs.Expect100 = true
		}
	case fieldConnection:
		if string(value) == "keep-alive" { // the usual value, without another call
			fs.ConnectionKeepAlive = true
			break
		}
		noteConnection(fs, value)
	case fieldContentLength:
		return noteContentLength(fs, value, off)
	case fieldTransferEncoding:
		return noteTransferEncoding(fs, value, off)
	}
	return nil
}

// noteConnection sets the "close" and "keep-alive" options of a Connection
// field, a comma-separated list of tokens (RFC 9110 §7.6.1).
func noteConnection(fs *FieldSection, value []byte) {
	switch { // a single option, without searching for commas
	case len(value) == len("keep-alive") && ascii.EqualFoldLower(value, "keep-alive"):
		fs.ConnectionKeepAlive = true
		return
	case len(value) == len("close") && ascii.EqualFoldLower(value, "close"):
		fs.ConnectionClose = true
		return
	}
	for value != nil {
		var opt []byte
		opt, value = nextElement(value)
		switch {
		case ascii.EqualFoldLower(opt, "close"):
			fs.ConnectionClose = true
		case ascii.EqualFoldLower(opt, "keep-alive"):
			fs.ConnectionKeepAlive = true
		}
	}
}

// noteContentLength checks a Content-Length field (RFC 9112 §6.3 rule 5,
// RFC 9110 §8.6): 1*DIGIT within int64, at most 19 digits (so 20 or more,
// even leading zeros, are refused). A list of byte-identical elements, or
// a value byte-identical to an earlier field line's, is collapsed to one
// (RFC 9110 §8.6 allows this for identical values); any other difference
// (even "05" after "5", which net/http also refuses), sign, space, empty
// element or overflow is ErrContentLength.
func noteContentLength(fs *FieldSection, value []byte, off int) error {
	for {
		var elem []byte
		elem, value = nextElement(value)
		n, ok := ParseDecimal(elem)
		if !ok || fs.ContentLength >= 0 && string(elem) != string(fs.contentLengthText) {
			return fail(ErrContentLength, off)
		}
		fs.ContentLength, fs.contentLengthText = n, elem
		if value == nil {
			return nil
		}
	}
}

// ParseDecimal parses s as 1*DIGIT (the grammar of a Content-Length
// value, RFC 9110 §8.6) into an int64; ok is false for anything else,
// including a value above the largest int64.
func ParseDecimal(s []byte) (n int64, ok bool) {
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range s {
		if !ascii.IsDigit(c) {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	return int64(u), u <= 1<<63-1
}

// noteTransferEncoding checks a Transfer-Encoding field (RFC 9112 §6.1),
// a comma-separated list of codings continuing those of earlier field
// lines. brisk decodes only chunked, which must be the final coding and
// appear once:
//   - an element that is not a bare token (empty, quoted, with parameters)
//     is ErrFraming (400);
//   - chunked twice, or a coding after chunked, is ErrFraming (400: RFC
//     9112 §6.3 rule 4, the body length cannot be determined);
//   - any other coding (gzip, identity, unknown) is ErrTransferCoding
//     (501, RFC 9112 §6.1).
func noteTransferEncoding(fs *FieldSection, value []byte, off int) error {
	fs.TransferEncoding = true
	other := false
	for {
		var coding []byte
		coding, value = nextElement(value)
		switch {
		case !ascii.IsTokenString(coding), fs.Chunked:
			return fail(ErrFraming, off)
		case ascii.EqualFoldLower(coding, "chunked"):
			fs.Chunked = true
		default:
			other = true
		}
		if value == nil {
			break
		}
	}
	if other {
		return fail(ErrTransferCoding, off)
	}
	return nil
}

// nextElement splits a list (RFC 9110 §5.6.1) value at its first comma
// and returns the first element and the rest after the comma, both without
// leading or trailing OWS. rest is nil when there is no comma, and empty
// but not nil after a trailing comma (one more, empty element). value has
// no leading or trailing OWS and is not nil.
func nextElement(value []byte) (elem, rest []byte) {
	i := 0
	for i < len(value) && value[i] != ',' {
		i++
	}
	elem = value[:i]
	for len(elem) > 0 && ascii.IsOWS(elem[len(elem)-1]) {
		elem = elem[:len(elem)-1]
	}
	if i == len(value) {
		return elem, nil
	}
	rest = value[i+1:]
	for len(rest) > 0 && ascii.IsOWS(rest[0]) {
		rest = rest[1:]
	}
	return elem, rest
}

// checkRequest applies the rules that need the whole request head:
// Content-Length with Transfer-Encoding is ErrFraming (RFC 9112 §6.1: a
// smuggling vector; brisk rejects instead of letting chunked win), as is
// Transfer-Encoding in an HTTP/1.0 request (§6.1: the framing is faulty);
// an HTTP/1.1 request needs Host (§3.2), and an empty Host needs a target
// without authority (origin-form or asterisk-form). The usual head, with
// a Host value and no Transfer-Encoding, passes without another call.
func (p *Parser) checkRequest(h *RequestHead) error {
	if len(h.Host) > 0 && !h.TransferEncoding {
		return nil
	}
	return p.checkRequestFields(h)
}

// checkRequestFields is checkRequest for a head without a Host value or
// with Transfer-Encoding.
func (p *Parser) checkRequestFields(h *RequestHead) error {
	if err := checkFraming(&h.FieldSection, h.Minor, h.scan.fieldsAt); err != nil {
		return err
	}
	switch {
	case h.Host == nil && h.Minor >= 1:
		return fail(ErrHost, h.scan.fieldsAt)
	case h.Host != nil && len(h.Host) == 0 && h.Form != OriginForm && h.Form != AsteriskForm:
		return fail(ErrHost, h.scan.fieldsAt)
	}
	return nil
}

// checkResponse applies the framing rules of checkRequest to a response.
// RFC 9112 §6.3 lets Transfer-Encoding override Content-Length in a
// response; brisk's client is stricter and rejects both with ErrFraming,
// as it rejects Transfer-Encoding in an HTTP/1.0 response and, in
// noteTransferEncoding, a final coding other than chunked (which RFC 9112
// would read until the connection closes).
func checkResponse(h *ResponseHead) error {
	return checkFraming(&h.FieldSection, h.Minor, h.scan.fieldsAt)
}

// checkFraming reports ErrFraming for Transfer-Encoding together with
// Content-Length or in an HTTP/1.0 message.
func checkFraming(fs *FieldSection, minor uint8, off int) error {
	if fs.TransferEncoding && (fs.ContentLength >= 0 || minor == 0) {
		return fail(ErrFraming, off)
	}
	return nil
}
