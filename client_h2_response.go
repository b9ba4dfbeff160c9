package brisk

import (
	"bytes"
	"io"
	"os"

	"github.com/brisk-http/brisk/wire"
)

// The response of an HTTP/2 stream as a brisk Response: its head, its
// body read whole (Do) or as a BodyStream, its trailer fields, decoded
// as on HTTP/1.1 (client_decompress.go).

// h2Decoders are the content decoders of one exchange on HTTP/2, pooled
// per HostClient (h2Pool.decs): the streams of a connection run at once,
// so they cannot share a connection's decoders as HTTP/1.1 exchanges do.
type h2Decoders struct {
	decs []Decoder
	raw  bytes.Reader
}

// acceptHead makes the response head received resp's: status code, no
// reason phrase (HTTP/2 has none), the fields in the order of their
// names, bounded by MaxResponseFields (more is wire.ErrTooManyFields),
// the TLS state of the connection and the protocol.
func (s *h2Stream) acceptHead(resp *Response) error {
	resp.resetReceived()
	r := s.resp
	resp.status = r.StatusCode
	resp.tls = s.conn.tls
	resp.proto = protoHTTP20
	if addHTTPHeader(&resp.Header, r.Header) > s.hc.lim.maxFields {
		return wire.ErrTooManyFields
	}
	return nil
}

// readBodyInto reads the whole body into resp, bounded by
// MaxResponseBodyBytes as on HTTP/1.1 (see clientConn.readBodyInto),
// then the trailer fields, and decodes it when the client asked for its
// coding.
func (s *h2Stream) readBodyInto(resp *Response) error {
	limit := s.hc.lim.maxBody
	claimed := s.resp.ContentLength // -1: unknown
	if limit >= 0 && claimed > limit {
		return bodyLimitError(limit, claimed)
	}
	b := resp.body[:0]
	for {
		if len(b) == cap(b) {
			n := int64(max(2*cap(b), 512))
			if claimed >= 0 && claimed+1 < n {
				n = max(claimed+1, int64(len(b))+1) // room to see the end
			}
			b = growTo(b, n, limit)
		}
		n, err := s.resp.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if limit >= 0 && int64(len(b)) > limit {
			resp.body = b[:0] // no partial body: see MaxResponseBodyBytes
			return bodyLimitError(limit, -1)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			resp.body = b
			return s.fail(err)
		}
	}
	resp.body = b
	s.takeTrailer(resp)
	if !s.decode {
		return nil
	}
	d, _ := s.hc.h2.decs.Get().(*h2Decoders)
	if d == nil {
		d = new(h2Decoders)
	}
	err := decodeInto(resp, s.hc.decoders, &d.decs, &d.raw, limit)
	d.raw.Reset(nil)
	s.hc.h2.decs.Put(d)
	return err
}

// takeTrailer copies the trailer fields received after the body into
// resp.Trailer.
func (s *h2Stream) takeTrailer(resp *Response) {
	resp.Trailer.Reset()
	addHTTPHeader(&resp.Trailer, s.resp.Trailer)
}

// bodyStream returns the BodyStream of the response (DoStream): the body
// is bounded by x.ctx from now on, no longer by Timeout.
func (s *h2Stream) bodyStream(x *exchange) (*BodyStream, bool, error) {
	if s.timer != nil && !x.explicit && !s.timer.Stop() {
		s.end() // the deadline passed as the head arrived
		return nil, true, wrapTimeout(os.ErrDeadlineExceeded)
	}
	bs := x.into
	if bs == nil {
		bs = new(BodyStream)
	}
	*bs = BodyStream{h2: s, resp: x.resp, ctx: x.ctx}
	if s.decode {
		if err := bs.decodeWith(s.hc.decoders); err != nil {
			return nil, true, err
		}
	}
	return bs, true, nil
}

// readH2 reads body bytes of an HTTP/2 response as received; at io.EOF
// the trailer fields are in the Response and the stream ends.
func (s *BodyStream) readH2(p []byte) (int, error) {
	st := s.h2
	n, err := st.resp.Body.Read(p)
	switch {
	case err == io.EOF:
		st.takeTrailer(s.resp)
		s.finish(true)
		s.err = io.EOF
	case err != nil:
		err = st.fail(err)
		s.finish(false)
		s.err = err
	}
	return n, err
}

// open reports whether the stream still holds its connection (HTTP/1.1)
// or stream (HTTP/2).
func (s *BodyStream) open() bool { return s.cc != nil || s.h2 != nil }
