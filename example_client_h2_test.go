package brisk_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
)

// ExampleClient_http2 speaks HTTP/2 to an "https" origin that chooses it
// by ALPN: ClientConfig.HTTP2 set to package h2's Transport. The
// requests of one origin share one connection, each on a stream of its
// own; a response says which protocol it came in. The server here is a
// brisk server with HTTP/2, on an in-memory listener, with throwaway
// certificates from brisktest.
func ExampleClient_http2() {
	certs := brisktest.NewTLSCerts() // for tests only
	srv := &brisk.Server{
		Handler:   func(c *brisk.Ctx) { fmt.Fprintf(&c.Response, "hello over %s", c.Proto()) },
		TLSConfig: certs.ServerConfig(),
	}
	h2.Configure(srv, h2.Config{}) // the server offers h2 by ALPN
	ln := brisktest.NewListener()
	go srv.ServeTLS(ln, "", "")
	defer srv.Shutdown(context.Background())

	var dials int
	var mu sync.Mutex
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{
		HTTP2:     &h2.Transport{}, // offer h2, then http/1.1
		TLSConfig: certs.ClientConfig(),
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dials++
			mu.Unlock()
			return ln.DialContext(ctx, network, addr)
		},
	}}
	var wg sync.WaitGroup
	for range 10 { // ten requests at once: ten streams on one connection
		wg.Go(func() {
			var req brisk.Request
			var resp brisk.Response
			req.SetURI("https://localhost/")
			if err := c.Do(&req, &resp); err != nil {
				fmt.Println(err)
			}
		})
	}
	wg.Wait()

	var req brisk.Request
	var resp brisk.Response
	req.SetURI("https://localhost/")
	s, err := c.DoStream(context.Background(), &req, &resp) // a body read as it arrives
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(s)
	s.Close()
	fmt.Println(resp.StatusCode(), resp.Proto(), resp.TLS().NegotiatedProtocol)
	fmt.Println(string(body))
	fmt.Println("connections:", dials)
	// Output:
	// 200 HTTP/2.0 h2
	// hello over HTTP/2.0
	// connections: 1
}
