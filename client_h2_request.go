package brisk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/brisk-http/brisk/wire"
)

// A brisk Request as the net/http request an HTTP2Conn sends on a
// stream (RFC 9113 §8.3.1): its method, target and Host become the
// pseudo-header fields, its fields those HTTP/2 allows, its body (bytes
// or stream) the stream's DATA frames.

// h2Dropped are the request fields not sent on HTTP/2: the client
// manages Host (":authority") and Content-Length, and the
// connection-specific ones are malformed there (RFC 9113 §8.2.2).
// Connection and the fields it names go too (h2DropConnection), and TE
// unless it is "trailers".
var h2Dropped = []string{"Host", "Content-Length", "Transfer-Encoding", "Keep-Alive", "Proxy-Connection", "Upgrade"}

// newRequest returns the net/http request carrying x.req to target t on
// s's stream, under s.ctx. Its checks are those of appendRequest: an
// invalid method, target, Host or field is ErrInvalidRequest, and nothing
// is sent.
func (s *h2Stream) newRequest(x *exchange, t *target) (*http.Request, error) {
	req := x.req
	method := req.head.Method
	if len(method) == 0 {
		method = methodGet
	}
	var enc []byte
	rt, ok := requestTarget(&enc, t)
	fields := req.Header.fields
	if !ok || !validToken(method) || !validHostBytes(t.host) || wire.ScanOutgoing(fields).Invalid != nil ||
		len(t.cookies) > 0 && !wire.ValidFieldValue(t.cookies) || len(rt) == 0 {
		return nil, ErrInvalidRequest
	}
	h := make(http.Header, len(fields)+2)
	addFields(h, fields, req.Header.arena, make([]string, len(fields)), h2Dropped)
	h2DropConnection(h)
	if _, ok := h["User-Agent"]; !ok {
		h["User-Agent"] = nil // none, as on HTTP/1.1 (not net/http's default)
	}
	if len(t.cookies) > 0 {
		if vv := h["Cookie"]; len(vv) > 0 {
			vv[0] += "; " + string(t.cookies)
		} else {
			h["Cookie"] = []string{string(t.cookies)}
		}
	}
	m := methodString(method)
	if t.acceptEncoding != nil && m != "HEAD" && !req.Header.Has("Accept-Encoding") && !req.Header.Has("Range") {
		h["Accept-Encoding"] = s.hc.h2.accept // read-only: net/http's layers do not modify values
		s.decode = true
	}
	host := s.hc.h2.hostString(t.host)
	target := string(rt)
	if strings.HasPrefix(target, "//") {
		// URL.RequestURI would read "//..." as a network-path
		// reference; net/http's HTTP/2 layer strips "https://"+host.
		target = "//" + host + target
	}
	s.url = url.URL{Scheme: "https", Host: host, Opaque: target}
	s.req = http.Request{
		Method:     m,
		URL:        &s.url,
		Proto:      "HTTP/2.0",
		ProtoMajor: 2,
		Header:     h,
		Host:       host,
	}
	ctx := context.Context(s)
	if req.interim != nil {
		s.interim.handler = req.interim
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{Got1xxResponse: s.interim.got})
	}
	hreq := s.req.WithContext(ctx)
	if err := s.setBody(hreq, req); err != nil {
		return nil, err
	}
	return hreq, nil
}

// h2DropConnection deletes from h the Connection field and the fields it
// names, and a TE field other than "trailers" (RFC 9113 §8.2.2).
func h2DropConnection(h http.Header) {
	for _, v := range h["Connection"] {
		for name := range strings.SplitSeq(v, ",") {
			delete(h, textproto.CanonicalMIMEHeaderKey(textproto.TrimString(name)))
		}
	}
	delete(h, "Connection")
	if vv, ok := h["Te"]; ok {
		if slices.ContainsFunc(vv, func(v string) bool { return wire.HasToken([]byte(v), "trailers") }) {
			h["Te"] = []string{"trailers"}
		} else {
			delete(h, "Te")
		}
	}
}

// setBody gives hreq the body of req: its bytes, or its stream (with
// trailer fields when of unknown size, as on HTTP/1.1). Once set,
// s.body is closed by the HTTP/2 layer when the stream no longer needs
// it (see release).
func (s *h2Stream) setBody(hreq *http.Request, req *Request) error {
	st := &req.stream
	if !st.set {
		if len(req.body) == 0 {
			return nil
		}
		b := &h2Body{src: bytes.NewReader(req.body), remain: int64(len(req.body)), closed: make(chan struct{})}
		hreq.Body, hreq.ContentLength, s.body = b, int64(len(req.body)), b
		return nil
	}
	src, err := st.reader()
	if err != nil {
		return err
	}
	st.r = nil // the body closes it (h2Body.Close), maybe on another goroutine
	b := &h2Body{src: src, remain: st.size, closed: make(chan struct{})}
	if st.size == 0 {
		b.Close()
		return nil
	}
	if st.size < 0 && len(req.Trailer.fields) > 0 {
		if !validFields(&req.Trailer) {
			b.Close()
			return ErrInvalidRequest
		}
		hreq.Trailer = make(http.Header, len(req.Trailer.fields))
		for _, f := range req.Trailer.fields {
			hreq.Trailer[textproto.CanonicalMIMEHeaderKey(string(f.Name))] = nil
		}
		b.trailer, b.hreq = &req.Trailer, hreq
	}
	hreq.Body, hreq.ContentLength, s.body = b, st.size, b
	return nil
}

// h2Body is the body of a request sent on an HTTP/2 stream, read by the
// HTTP/2 layer on a goroutine of its own: at most remain bytes of src,
// each read as readBody does (what one Read returns).
type h2Body struct {
	src     io.Reader
	remain  int64         // bytes left to send; < 0: unknown, until io.EOF
	trailer *Header       // the request's trailer fields, copied into hreq.Trailer at io.EOF; nil: none
	hreq    *http.Request // with trailer
	closed  chan struct{} // closed by Close

	mu   sync.Mutex
	err  error // the body's failure (ErrRequestBody)
	done bool  // Close was called
}

func (b *h2Body) Read(p []byte) (int, error) {
	if b.remain == 0 {
		return 0, io.EOF
	}
	if b.remain > 0 && int64(len(p)) > b.remain {
		p = p[:b.remain]
	}
	n, err := readBody(b.src, p)
	if b.remain > 0 {
		if b.remain -= int64(n); b.remain == 0 && err == nil {
			err = io.EOF
		}
	}
	switch {
	case err == io.EOF && b.remain > 0:
		err = b.setFailure(fmt.Errorf("%w: %d bytes short of its length: %w", ErrRequestBody, b.remain, io.ErrUnexpectedEOF))
	case err == io.EOF && b.trailer != nil:
		if !validFields(b.trailer) {
			return n, b.setFailure(ErrInvalidRequest)
		}
		for _, f := range b.trailer.fields {
			k := textproto.CanonicalMIMEHeaderKey(string(f.Name))
			b.hreq.Trailer[k] = append(b.hreq.Trailer[k], string(f.Value))
		}
	case err != nil && err != io.EOF:
		b.setFailure(err)
	}
	return n, err
}

func (b *h2Body) setFailure(err error) error {
	b.mu.Lock()
	b.err = err
	b.mu.Unlock()
	return err
}

// failure returns the error that ended the body, nil when none.
func (b *h2Body) failure() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Close closes the source when it is an io.Closer (see SetBodyStream);
// the first call only.
func (b *h2Body) Close() error {
	b.mu.Lock()
	done := b.done
	b.done = true
	b.mu.Unlock()
	if !done {
		if c, ok := b.src.(io.Closer); ok {
			c.Close()
		}
		close(b.closed)
	}
	return nil
}

// interimState passes the interim responses of a stream to the
// request's handler (Request.SetInterimHandler), on the connection's
// reader goroutine.
type interimState struct {
	handler func(code int, h *Header) error
	n       int // interim responses received

	mu  sync.Mutex
	err error // the handler's error, or ErrTooManyInterimResponses
}

// got is the httptrace Got1xxResponse hook: 100 (Continue) is the HTTP/2
// layer's; the others go to the handler, their fields in the order of
// their names. More than maxInterimResponses end the stream.
func (st *interimState) got(code int, mh textproto.MIMEHeader) error {
	if st.n++; st.n > maxInterimResponses {
		return st.setFailure(ErrTooManyInterimResponses)
	}
	if code == 100 {
		return nil
	}
	var h Header
	addHTTPHeader(&h, http.Header(mh))
	if err := st.handler(code, &h); err != nil {
		return st.setFailure(err)
	}
	return nil
}

func (st *interimState) setFailure(err error) error {
	st.mu.Lock()
	st.err = err
	st.mu.Unlock()
	return err
}

// failure returns the error that ended the stream in got, nil when none.
func (st *interimState) failure() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.err
}

// addHTTPHeader adds the fields of src to h, in the order of their
// names, each name's values in order; it returns how many it added.
func addHTTPHeader(h *Header, src http.Header) int {
	var buf [16]string
	keys := buf[:0]
	for k := range src {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	n := 0
	for _, k := range keys {
		for _, v := range src[k] {
			h.Add(k, v)
			n++
		}
	}
	return n
}
