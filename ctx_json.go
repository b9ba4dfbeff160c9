package brisk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/brisk-http/brisk/internal/ascii"
)

// JSONCodec plugs a JSON encoder and decoder into Ctx.JSON and
// Ctx.DecodeJSON (Server.JSON). Each nil function means encoding/json's.
//
// A faster library is plugged with a function for each, e.g. with
// github.com/segmentio/encoding/json:
//
//	srv.JSON = &brisk.JSONCodec{
//		Append: func(dst []byte, v any) ([]byte, error) {
//			return json.Append(dst, v, json.EscapeHTML|json.SortMapKeys)
//		},
//		Unmarshal: json.Unmarshal,
//	}
type JSONCodec struct {
	// Append appends the JSON encoding of v to dst and returns the
	// extended slice, as append does; Ctx.JSON gives it the response's
	// body buffer, so the encoding is written in place, with no copy.
	// On an error the bytes it appended are dropped.
	Append func(dst []byte, v any) ([]byte, error)

	// Unmarshal decodes the JSON value in data, which it must not keep,
	// into v, as encoding/json.Unmarshal does: one value, with only white
	// space around it.
	Unmarshal func(data []byte, v any) error
}

// Errors of Ctx.DecodeJSON, given to the ErrorHandler with its status.
var (
	// ErrNotJSON: the request's Content-Type is not application/json or
	// a "+json" media type (RFC 8259 §11, RFC 6839 §3.1), or is absent.
	// → 415 (RFC 9110 §15.5.16).
	ErrNotJSON = errors.New("brisk: request content is not JSON")

	// ErrUnsupportedEncoding: the request body has a content coding, a
	// Content-Encoding other than identity (RFC 9110 §8.4), which
	// DecodeJSON does not decode. → 415 (RFC 9110 §15.5.16), with
	// "Accept-Encoding: identity" (§12.5.3), before any read. Package
	// compress decodes such bodies (compress.BodyReader).
	ErrUnsupportedEncoding = errors.New("brisk: request Content-Encoding not supported")

	// ErrInvalidJSON: the body is not one JSON value, or does not decode
	// into the value given (the decoder's error is wrapped too:
	// errors.As finds a *json.SyntaxError or *json.UnmarshalTypeError
	// with encoding/json). → 400.
	ErrInvalidJSON = errors.New("brisk: invalid JSON body")
)

// JSON answers with status code code and the JSON encoding of v as the
// body, replacing the body set so far, with "Content-Type:
// application/json" (RFC 8259 §11; no charset: JSON is UTF-8). With
// encoding/json (Server.JSON nil or without Append) the body ends in a
// newline, HTML characters are escaped, and the encoding is copied once
// from encoding/json's pooled buffer into the body; with an Append of
// Server.JSON it is appended to the body in place. An encoding error
// (an unsupported type, a failing MarshalJSON) answers 500 through
// Server.ErrorHandler and is returned. Once a streamed body
// (Ctx.BodyWriter) has started, the encoding is written to it and code
// no longer applies.
func (c *Ctx) JSON(code int, v any) error {
	r := &c.Response
	if r.stream != nil && r.stream.started {
		return c.jsonStream(v)
	}
	r.body = r.body[:0]
	var err error
	if enc := c.jsonCodec(); enc != nil && enc.Append != nil {
		r.body, err = enc.Append(r.body, v)
	} else {
		err = json.NewEncoder(r).Encode(v)
	}
	if err != nil {
		c.Error(500, err)
		return err
	}
	r.status = code
	r.Header.Set("Content-Type", "application/json")
	return nil
}

// jsonStream writes the encoding of v to a started streamed body.
func (c *Ctx) jsonStream(v any) error {
	if enc := c.jsonCodec(); enc != nil && enc.Append != nil {
		b, err := enc.Append(nil, v)
		if err == nil {
			_, err = c.bw.Write(b)
		}
		return err
	}
	return json.NewEncoder(&c.bw).Encode(v)
}

// DecodeJSON reads the request body and decodes it into v with
// encoding/json.Unmarshal (or Server.JSON's Unmarshal). limit is the
// largest body accepted, in bytes; zero or negative means
// Server.MaxBodyBytes alone, which also bounds a larger limit. On
// failure it answers through Server.ErrorHandler and returns the error
// (the Handler should then return): 415 with ErrNotJSON for a
// Content-Type other than JSON's, checked before any read; 415 with
// ErrUnsupportedEncoding and "Accept-Encoding: identity" for a body with
// a content coding (gzip, ...), also before any read; 413 with
// ErrBodyTooLarge for a body larger than limit (a Content-Length above
// it is refused without reading the body, a chunked body once it grows
// past it), and the connection is closed; 400 with ErrInvalidJSON for a
// body that does not decode (an empty one included); and the status of
// ErrorStatus for a failed read (400 for a body cut short, 408 for a
// timeout). The body is read whole, in the connection's buffer when it
// fits there, and is not kept by v beyond what the decoder copies.
func (c *Ctx) DecodeJSON(v any, limit int64) error {
	if !isJSONType(c.Request.Header.Get("Content-Type")) {
		c.Error(415, ErrNotJSON)
		return ErrNotJSON
	}
	if hasContentCoding(&c.Request.Header) {
		c.Response.Header.Set("Accept-Encoding", "identity")
		c.Error(415, ErrUnsupportedEncoding)
		return ErrUnsupportedEncoding
	}
	if limit > 0 && c.Request.ContentLength() > limit {
		c.Error(413, ErrBodyTooLarge)
		return ErrBodyTooLarge
	}
	body, err := c.readBodyUpTo(limit)
	if err != nil {
		c.Error(ErrorStatus(err), err)
		return err
	}
	unmarshal := json.Unmarshal
	if enc := c.jsonCodec(); enc != nil && enc.Unmarshal != nil {
		unmarshal = enc.Unmarshal
	}
	if err := unmarshal(body, v); err != nil {
		err = fmt.Errorf("%w: %w", ErrInvalidJSON, err)
		c.Error(400, err)
		return err
	}
	return nil
}

// readBodyUpTo is Request.Body with the body limited to limit bytes too
// (when positive and below Server.MaxBodyBytes), for this request only.
func (c *Ctx) readBodyUpTo(limit int64) ([]byte, error) {
	if c.c == nil || limit <= 0 {
		return c.Request.Body()
	}
	d := &c.c.body.dec
	if old := d.MaxBytes; old <= 0 || limit < old {
		d.MaxBytes = limit
		defer func() { d.MaxBytes = old }()
	}
	return c.Request.Body()
}

// jsonCodec returns the Server's JSONCodec, nil for none.
func (c *Ctx) jsonCodec() *JSONCodec {
	if c.c == nil {
		return nil
	}
	return c.c.srv.JSON
}

// hasContentCoding reports whether h has a Content-Encoding naming a
// coding other than identity (RFC 9110 §8.4: a list, over one or more
// field lines).
func hasContentCoding(h *Header) bool {
	for v := range h.Values("Content-Encoding") {
		for coding := range bytes.SplitSeq(v, []byte(",")) {
			if c := bytes.TrimSpace(coding); len(c) > 0 && !ascii.EqualFold(c, "identity") {
				return true
			}
		}
	}
	return false
}

// isJSONType reports whether the media type of the Content-Type value ct
// is application/json or application/*+json, ignoring case and
// parameters (RFC 9110 §8.3.1).
func isJSONType(ct []byte) bool {
	if i := bytes.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = bytes.TrimRight(ct, " \t")
	const app = "application/"
	if len(ct) < len(app) || !ascii.EqualFold(ct[:len(app)], app) {
		return false
	}
	sub := ct[len(app):]
	return ascii.EqualFold(sub, "json") ||
		len(sub) > len("+json") && ascii.EqualFold(sub[len(sub)-len("+json"):], "+json")
}
