package interop

import (
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// serve runs s on a loopback port until the test ends and returns its
// address.
func serve(t *testing.T, s *brisk.Server) string {
	t.Helper()
	return testserver.Start(t, testserver.Quiet(s))
}

// serveHTTP serves the net/http handler h through brisk.FromHTTP and
// returns the base URL.
func serveHTTP(t *testing.T, h http.Handler) string {
	t.Helper()
	return "http://" + serve(t, &brisk.Server{Handler: brisk.FromHTTP(h)})
}

// get fetches url and returns the response with its whole body.
var get = peer.Get
