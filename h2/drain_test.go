package h2

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestDrainGoAway: Server.Drain sends GOAWAY on an HTTP/2 connection at
// once, lets its open stream finish with its context intact, and returns
// nil once the connection has closed, before ctx ends. (HTTP/2 has no
// "Connection: close": without the GOAWAY a client keeps sending requests
// to a draining server until ctx ends.)
func TestDrainGoAway(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	srv := &brisk.Server{H2C: true, DrainDelay: -1, Handler: h1Handler, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		if err := r.Context().Err(); err != nil {
			io.WriteString(w, err.Error())
			return
		}
		io.WriteString(w, "done")
	})
	if err := Configure(srv, Config{Handler: slow}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	fr, _ := h2cConn(t, ln.Addr().String())
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "x"}, {":path", "/"}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndStream: true, EndHeaders: true})
	<-entered

	drained := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		drained <- srv.Drain(ctx)
	}()
	var goAway *http2.GoAwayFrame
	var data []byte
	for goAway == nil || data == nil {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("reading frames: %v (GOAWAY %v, data %q)", err, goAway, data)
		}
		switch f := f.(type) {
		case *http2.GoAwayFrame:
			goAway = f
			close(release) // the GOAWAY came while stream 1 was open
		case *http2.DataFrame:
			data = append(data, f.Data()...)
		}
	}
	if goAway.ErrCode != http2.ErrCodeNo || goAway.LastStreamID != 1 {
		t.Errorf("GOAWAY %v last stream %d, want NO_ERROR, 1", goAway.ErrCode, goAway.LastStreamID)
	}
	if string(data) != "done" {
		t.Errorf("stream 1 data %q, want done", data)
	}
	if err := <-drained; err != nil {
		t.Fatalf("Drain: %v, want nil (the connection closed before ctx ended)", err)
	}
}
