package h2_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
)

// ExampleConfigure serves HTTP/1.1 with brisk's handler and HTTP/2 with an
// http.Handler on one TLS listener: ALPN offers h2 and http/1.1, and each
// connection goes to the server of the protocol it chose. The
// certificate is a throwaway one from brisktest.
func ExampleConfigure() {
	certs := brisktest.NewTLSCerts() // for tests only
	srv := &brisk.Server{
		Handler:   func(c *brisk.Ctx) { c.Response.SetBodyString("HTTP/1.1 from brisk") },
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{certs.Server}},
	}
	err := h2.Configure(srv, h2.Config{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s from x/net/http2", r.Proto)
	})})
	if err != nil {
		fmt.Println(err)
		return
	}
	ln := brisktest.NewListener()
	go srv.ServeTLS(ln, "", "")
	defer srv.Shutdown(context.Background())

	var h2only http.Protocols
	h2only.SetHTTP2(true)
	client := &http.Client{Transport: &http.Transport{
		Protocols:       &h2only,
		TLSClientConfig: certs.ClientConfig(), // trusts the throwaway authority
		DialContext:     ln.DialContext,       // the transport runs TLS over it
	}}
	defer client.CloseIdleConnections() // before Shutdown: no GOAWAY wait
	resp, err := client.Get("https://localhost/")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body))
	// Output:
	// HTTP/2.0 from x/net/http2
}

// ExampleConfigure_h2c serves HTTP/2 with prior knowledge on cleartext
// (Server.H2C): a connection that opens with the HTTP/2 preface is
// HTTP/2, any other is HTTP/1.1.
func ExampleConfigure_h2c() {
	srv := &brisk.Server{H2C: true, Handler: func(c *brisk.Ctx) { c.Response.SetBodyString("HTTP/1.1") }}
	h2.Configure(srv, h2.Config{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	})})
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	var priorKnowledge http.Protocols
	priorKnowledge.SetUnencryptedHTTP2(true) // "http" URLs, h2c with prior knowledge
	h2c := &http.Client{Transport: &http.Transport{Protocols: &priorKnowledge, DialContext: ln.DialContext}}
	h1 := &http.Client{Transport: &http.Transport{DialContext: ln.DialContext}}
	defer h2c.CloseIdleConnections()
	defer h1.CloseIdleConnections()
	for _, c := range []*http.Client{h2c, h1} {
		resp, err := c.Get("http://localhost/")
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(string(body))
	}
	// Output:
	// HTTP/2.0
	// HTTP/1.1
}
