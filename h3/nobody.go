package h3

import (
	"bytes"
	"io"
	"net/http"
)

// noBodyMethods are the methods whose requests rarely carry content (RFC
// 9110 §9.3: it has no defined semantics for them).
var noBodyMethods = map[string]bool{"GET": true, "HEAD": true, "OPTIONS": true, "DELETE": true, "TRACE": true}

// settleBody gives r http.NoBody as its body when it is a request of a
// noBodyMethods method without a Content-Length whose stream ends with
// its HEADERS frame, as a client sends one without content: quic-go
// reports its length unknown (-1) until the stream's end is read, and the
// brisk handler would see a chunked body to read (and the client-close
// watch would begin only once it was read). It waits for the request
// stream's first DATA frame or its end, which such clients send with the
// HEADERS frame. Other requests are left as they are. False means the
// stream failed: there is nothing to answer.
func settleBody(r *http.Request) bool {
	if r.ContentLength != -1 || r.Body == nil || !noBodyMethods[r.Method] {
		return true
	}
	var first [1]byte
	n, err := r.Body.Read(first[:])
	switch {
	case n == 0 && err == io.EOF: // read whole: nothing to close
		r.Body, r.ContentLength = http.NoBody, 0
	case n == 1:
		r.Body = readCloser{io.MultiReader(bytes.NewReader(first[:]), r.Body), r.Body}
	case err != nil:
		return false
	}
	return true
}

// readCloser reads from Reader and closes with Closer.
type readCloser struct {
	io.Reader
	io.Closer
}
