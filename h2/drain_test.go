package h2

import (
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestDrainGoAway: Server.Drain sends GOAWAY on an HTTP/2 connection at
// once, lets its open stream finish with its context intact, and returns
// nil once the connection has closed, before ctx ends. (HTTP/2 has no
// "Connection: close": without the GOAWAY a client keeps sending requests
// to a draining server until ctx ends.)
func TestDrainGoAway(t *testing.T) {
	srv := &brisk.Server{H2C: true, DrainDelay: -1, Handler: h1Handler, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	respond := func(w http.ResponseWriter, r *http.Request) {
		if err := r.Context().Err(); err != nil {
			io.WriteString(w, err.Error())
			return
		}
		io.WriteString(w, "done")
	}
	if err := goAwayOpenStream(t, srv, respond, srv.Drain, 10*time.Second); err != nil {
		t.Fatalf("Drain: %v, want nil (the connection closed before ctx ended)", err)
	}
}
