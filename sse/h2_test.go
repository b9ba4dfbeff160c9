package sse_test

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/sse"
)

// TestHTTP2: over h2 each event is flushed in its own right, and a
// client resetting the stream ends Serve: by default through the
// context, with IgnoreClientClose at the next keep-alive's write.
func TestHTTP2(t *testing.T) {
	for _, cancelOnClose := range []bool{true, false} {
		testHTTP2(t, cancelOnClose)
	}
}

func testHTTP2(t *testing.T, cancelOnClose bool) {
	ack := make(chan struct{})
	served := make(chan error, 1)
	srv := &brisk.Server{IgnoreClientClose: !cancelOnClose, Logger: slog.New(slog.DiscardHandler), Handler: func(c *brisk.Ctx) {
		keepAlive := time.Duration(-1)
		if !cancelOnClose {
			keepAlive = 10 * time.Millisecond
		}
		s, err := sse.New(c, &sse.Options{KeepAlive: keepAlive})
		if err != nil {
			served <- err
			return
		}
		s.Send(sse.Event{Data: "one"})
		select {
		case <-ack:
		case <-time.After(10 * time.Second):
			served <- errors.New("no acknowledgement: the event was not flushed")
			return
		}
		served <- s.Serve(nil)
	}}
	if err := h2.Configure(srv, h2.Config{}); err != nil {
		t.Fatal(err)
	}
	certs := brisktest.NewTLSCerts()
	srv.TLSConfig = certs.ServerConfig()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.ServeTLS(ln, "", "")
	defer srv.Shutdown(context.Background())

	var protocols http.Protocols
	protocols.SetHTTP2(true)
	tr := &http.Transport{TLSClientConfig: certs.ClientConfig(), Protocols: &protocols}
	defer tr.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://"+ln.Addr().String()+"/", nil)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%s %v", resp.Proto, resp.Header)
	}
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); line != "data: one\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	ack <- struct{}{}
	cancel() // RST_STREAM
	select {
	case err := <-served:
		if cancelOnClose && !errors.Is(err, context.Canceled) || err == nil {
			t.Errorf("IgnoreClientClose=%v: Serve: %v", !cancelOnClose, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the client reset the stream")
	}
}
