package brisk

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// HTTP/2 in the client (ClientConfig.HTTP2): the seam to the HTTP/2
// layer, and one exchange on an HTTP/2 stream. The connections are in
// client_h2_pool.go, the request is mapped in client_h2_request.go and
// the response in client_h2_response.go.

// HTTP2Transport is the HTTP/2 layer of a Client or HostClient
// (ClientConfig.HTTP2), the client's mirror of Server.HTTP2: package
// h2's Transport implements it with golang.org/x/net/http2, so that
// programs without an HTTP/2 client do not link it. One
// HTTP2Transport may serve any number of Clients; it must be safe for
// concurrent use.
type HTTP2Transport interface {
	// NewClientConn takes over nc, a TLS connection whose handshake
	// chose "h2" by ALPN (RFC 9113 §3.2), sends the client connection
	// preface (RFC 9113 §3.4) and returns the connection, ready for
	// requests, applying conf to it. On error nc is closed.
	NewClientConn(nc net.Conn, conf HTTP2ConnConfig) (HTTP2Conn, error)
}

// HTTP2ConnConfig is what the client asks of each HTTP/2 connection:
// its ClientConfig limits, defaults applied. It is comparable, so that
// an HTTP2Transport can keep one configuration per value.
type HTTP2ConnConfig struct {
	// MaxHeaderBytes bounds the field section of a response, and its
	// trailer section, as RFC 9113 §6.5.2 counts it (each field's name
	// and value, plus 32 bytes), and is sent as
	// SETTINGS_MAX_HEADER_LIST_SIZE. A larger one fails the request with
	// an error satisfying errors.Is(err, wire.ErrHeaderTooLarge).
	MaxHeaderBytes int

	// IdleTimeout closes the connection once it has had no stream open
	// for that long; zero means never.
	IdleTimeout time.Duration

	// ExpectContinueTimeout is how long a request with a body and
	// "Expect: 100-continue" waits for a 100 (Continue) or a final
	// response before it sends its body (RFC 9110 §10.1.1). It is never
	// zero: no limit is a very long one.
	ExpectContinueTimeout time.Duration
}

// HTTP2Conn is one HTTP/2 connection of an HTTP2Transport. It is safe for
// concurrent use: each RoundTrip is a stream of its own.
type HTTP2Conn interface {
	// RoundTrip sends req on a new stream, reserved by ReserveNewRequest,
	// and returns the response once its head has arrived, its body to be
	// read from the Response's Body (and then its Trailer). req's
	// context bounds the whole stream: once it is done the stream is
	// reset (RST_STREAM) and RoundTrip, or a read of the body, fails. A
	// request beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS waits
	// for a stream to end. req.Body, when set, is closed once the stream
	// no longer needs it, possibly after RoundTrip returned.
	//
	// An error of RoundTrip satisfies errors.Is with ErrNotProcessed
	// when the server did not process the request (RFC 9113 §8.7:
	// REFUSED_STREAM, or a GOAWAY whose last stream is below the
	// request's), with wire.ErrHeaderTooLarge when the response's field
	// section was over HTTP2ConnConfig.MaxHeaderBytes; the client takes
	// any other failure of RoundTrip, or of a read of the body, as
	// ErrConnectionClosed.
	RoundTrip(req *http.Request) (*http.Response, error)

	// ReserveNewRequest reports whether the connection can take a new
	// request (it is open, received no GOAWAY, and its stream identifiers
	// are not exhausted), and if so reserves a stream for the next
	// RoundTrip.
	ReserveNewRequest() bool

	// Close closes the connection at once; its streams fail.
	Close() error
}

// h2Config returns the HTTP2ConnConfig of hc's limits.
func (hc *HostClient) h2Config() HTTP2ConnConfig {
	expect := hc.lim.expectTimeout
	if expect == 0 {
		expect = math.MaxInt64 // only the request's deadline
	}
	return HTTP2ConnConfig{
		MaxHeaderBytes:        hc.lim.maxHeader,
		IdleTimeout:           hc.lim.idleTimeout,
		ExpectContinueTimeout: expect,
	}
}

// sendH2 runs one exchange of x to target t on an HTTP/2 stream when hc's
// origin speaks HTTP/2: it reports false, having sent nothing, when the
// origin chose HTTP/1.1 (see ClientConfig.HTTP2). A request the server
// did not process (ErrNotProcessed), and an idempotent one whose reused
// connection failed before the response head, are sent again on another
// connection, as MaxIdempotentRetries allows.
func (hc *HostClient) sendH2(x *exchange, t *target) (*BodyStream, bool, error) {
	now := time.Now()
	s := newH2Stream(hc, x.ctx, x.deadlineAt(now, hc.lim.timeout))
	for attempt := 0; ; attempt++ {
		c, reused, http1, err := hc.h2.acquire(hc, s, s.deadline)
		if http1 {
			s.stop()
			return nil, false, nil
		}
		if err != nil {
			s.stop()
			return nil, true, s.fail(err)
		}
		s.conn = c
		err = s.roundTrip(x, t)
		if err == nil {
			break
		}
		s.release()
		err = s.fail(err)
		retries := hc.lim.retries
		if !errors.Is(err, ErrNotProcessed) {
			retries = 0
			if reused && errors.Is(err, ErrConnectionClosed) {
				retries = x.retries(hc)
			}
		}
		if attempt < retries && x.req.stream.resendable() && s.Err() == nil {
			s.reset()
			continue
		}
		s.stop()
		return nil, true, err
	}
	if err := s.acceptHead(x.resp); err != nil {
		s.end()
		return nil, true, err
	}
	if x.stream {
		return s.bodyStream(x)
	}
	err := s.readBodyInto(x.resp)
	s.end()
	return nil, true, err
}

// h2Stream is one exchange on an HTTP/2 stream, for as long as its
// response body is being read. It is the stream's context too: done
// when the exchange's context is, or at the exchange's deadline.
type h2Stream struct {
	hc         *HostClient
	user       context.Context // the exchange's (x.ctx)
	deadline   time.Time       // zero: none
	timer      *time.Timer     // ends the context at deadline; nil: none
	stopParent func() bool     // stops following user's cancellation; nil: none

	mu      sync.Mutex
	done    chan struct{} // made on first use; nil with no deadline and user never done
	err     error         // the context's Err once done
	expired bool          // done at the deadline

	conn   *h2Conn        // the connection, while the stream holds it
	resp   *http.Response // the response received
	body   *h2Body        // the request body being sent; nil: none
	decode bool           // the client added Accept-Encoding (see ClientConfig.Decoders)
	url    url.URL        // the request's
	req    http.Request   // the request, before its context is set

	interim interimState // interim responses (client_h2_request.go)
}

// newH2Stream starts an exchange bounded by user and deadline (zero:
// none).
func newH2Stream(hc *HostClient, user context.Context, deadline time.Time) *h2Stream {
	s := &h2Stream{hc: hc, user: user, deadline: deadline}
	if user.Done() != nil {
		s.stopParent = context.AfterFunc(user, func() { s.cancel(user.Err(), false) })
	}
	if !deadline.IsZero() {
		s.timer = time.AfterFunc(time.Until(deadline), func() { s.cancel(context.DeadlineExceeded, true) })
	}
	return s
}

// Deadline implements context.Context.
func (s *h2Stream) Deadline() (time.Time, bool) {
	if t, ok := s.user.Deadline(); ok && (s.deadline.IsZero() || t.Before(s.deadline)) {
		return t, true
	}
	return s.deadline, !s.deadline.IsZero()
}

// Done implements context.Context.
func (s *h2Stream) Done() <-chan struct{} {
	if s.timer == nil && s.stopParent == nil {
		return nil // never done
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done == nil {
		s.done = make(chan struct{})
		if s.err != nil {
			close(s.done)
		}
	}
	return s.done
}

// Err implements context.Context.
func (s *h2Stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Value implements context.Context: the exchange context's values.
func (s *h2Stream) Value(key any) any { return s.user.Value(key) }

// cancel ends the context with err; expired says it is the deadline's.
func (s *h2Stream) cancel(err error, expired bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err, s.expired = err, expired
	if s.done != nil {
		close(s.done)
	}
}

// timedOut reports whether the deadline ended the context.
func (s *h2Stream) timedOut() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.expired
}

// reset prepares s for another attempt after a failed one.
func (s *h2Stream) reset() {
	s.resp, s.body, s.decode = nil, nil, false
	s.interim = interimState{}
}

// roundTrip sends x.req on s.conn and receives the response head.
func (s *h2Stream) roundTrip(x *exchange, t *target) error {
	hreq, err := s.newRequest(x, t)
	if err != nil {
		return err
	}
	x.resp.resetReceived()
	resp, err := s.conn.cc.RoundTrip(hreq)
	if err != nil {
		return err
	}
	s.resp = resp
	return nil
}

// fail returns the error that ends the exchange after err: the context's
// or the deadline's, the request body's, an interim handler's, else err,
// taken as ErrConnectionClosed unless it is one of the errors HTTP2Conn
// documents.
func (s *h2Stream) fail(err error) error {
	if s.user.Err() != nil {
		return ctxError(s.user)
	}
	if s.timedOut() {
		return wrapTimeout(os.ErrDeadlineExceeded)
	}
	if s.body != nil {
		if berr := s.body.failure(); berr != nil {
			return berr
		}
	}
	if ierr := s.interim.failure(); ierr != nil {
		return ierr
	}
	for _, known := range [...]error{ErrNotProcessed, ErrConnectionClosed, ErrTimeout, ErrInvalidRequest,
		ErrRequestBody, ErrBodyNotRewindable, ErrBodyTooLarge, ErrContentEncoding, wire.ErrHeaderTooLarge, wire.ErrTooManyFields} {
		if errors.Is(err, known) {
			return err
		}
	}
	return fmt.Errorf("%w: %w", ErrConnectionClosed, err)
}

// release gives the stream's connection back to the pool once the
// request body is no longer read. Closing the response body resets a
// stream still open (a request body still being sent is not needed once
// the response is complete) and waits for the stream's end, which
// closes the request body; after a failed RoundTrip the stream has
// ended or is ending.
func (s *h2Stream) release() {
	if s.resp != nil {
		s.resp.Body.Close()
	}
	if s.body != nil {
		<-s.body.closed
	}
	if s.conn != nil {
		s.hc.h2.release(s.conn)
		s.conn = nil
	}
}

// stop ends the exchange's deadline and the following of its context.
func (s *h2Stream) stop() {
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.stopParent != nil {
		s.stopParent()
	}
}

// end ends the exchange: the connection back to the pool, the deadline
// and context stopped.
func (s *h2Stream) end() {
	s.release()
	s.stop()
}
