package h3

import (
	"context"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// closeIdleAfter is how long after GOAWAY a connection without requests
// in its handlers is closed by the server: time for the requests the
// client sent before it saw the GOAWAY to reach their handlers.
const closeIdleAfter = 100 * time.Millisecond

// qconn is a QUIC connection being served and the number of its requests
// in their handlers.
type qconn struct {
	c       *quic.Conn
	active  int
	lastEnd time.Time // when the last request left its handler
}

// qconnKey is the context key of a connection's *qconn.
type qconnKey struct{}

// track adds c to the connections served, for closeIdle, and returns
// ctx with it.
func (s *Server) track(ctx context.Context, c *quic.Conn) context.Context {
	q := &qconn{c: c}
	s.mu.Lock()
	s.conns[q] = struct{}{}
	s.mu.Unlock()
	context.AfterFunc(c.Context(), func() {
		s.mu.Lock()
		delete(s.conns, q)
		s.mu.Unlock()
		s.count(-1)
	})
	return context.WithValue(ctx, qconnKey{}, q)
}

// begin counts a request of q entering its handler.
func (s *Server) begin(q *qconn) {
	s.mu.Lock()
	q.active++
	s.mu.Unlock()
}

// end counts a request of q leaving its handler; once the graceful
// shutdown has begun, the connection is closed (H3_NO_ERROR) when its
// last one ends, as RFC 9114 §5.2 lets the server do after GOAWAY,
// rather than wait for the client to close it.
func (s *Server) end(q *qconn) {
	s.mu.Lock()
	q.active--
	q.lastEnd = time.Now()
	idle := q.active == 0 && !s.goAwayAt.IsZero()
	s.mu.Unlock()
	if idle {
		// After the handler's response is sent: quic-go ends the stream
		// once ServeHTTP returns.
		time.AfterFunc(closeIdleAfter, func() { s.closeIfIdle(q) })
	}
}

// closeIdle closes, closeIdleAfter after GOAWAY, the connections without
// requests in their handlers for closeIdleAfter (time for the last
// response to leave). It is called at each Shutdown and Drain.
func (s *Server) closeIdle() {
	s.mu.Lock()
	var idle []*qconn
	if !s.goAwayAt.IsZero() && time.Since(s.goAwayAt) >= closeIdleAfter {
		for q := range s.conns {
			if q.idle() {
				idle = append(idle, q)
			}
		}
	}
	s.mu.Unlock()
	for _, q := range idle {
		q.c.CloseWithError(quic.ApplicationErrorCode(http3.ErrCodeNoError), "")
	}
}

// closeIfIdle closes q when it has no request in its handlers.
func (s *Server) closeIfIdle(q *qconn) {
	s.mu.Lock()
	idle := q.idle()
	s.mu.Unlock()
	if idle {
		q.c.CloseWithError(quic.ApplicationErrorCode(http3.ErrCodeNoError), "")
	}
}

// idle reports whether q has had no request in its handlers for
// closeIdleAfter; the Server's mu is held.
func (q *qconn) idle() bool {
	return q.active == 0 && time.Since(q.lastEnd) >= closeIdleAfter
}
