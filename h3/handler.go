package h3

import "net/http"

// ServeHTTP serves an HTTP/3 request from quic-go with the
// brisk.Server's Handler, through the bridge: it settles the body of a
// request without content (settleBody) and counts the request on its
// connection for the graceful shutdown (begin, end). One function, so
// that the bridge's one stack growth copies few frames.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if q, _ := r.Context().Value(qconnKey{}).(*qconn); q != nil {
		s.begin(q)
		defer s.end(q)
	}
	if settleBody(r) {
		s.handler.ServeHTTP(w, r)
	}
}
