package h3_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h3"
	"github.com/quic-go/quic-go/http3"
)

// ExampleConfigure serves a brisk handler over HTTP/3 on a UDP socket
// and asks it with quic-go's HTTP/3 client. The certificate is a
// throwaway one from brisktest.
func ExampleConfigure() {
	certs := brisktest.NewTLSCerts() // for tests only
	srv := &brisk.Server{
		Handler:   func(c *brisk.Ctx) { c.Response.SetBodyString(c.Proto() + " from brisk") },
		TLSConfig: certs.ServerConfig(),
	}
	s3, err := h3.Configure(srv, h3.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv.Handler = s3.AltSvc(srv.Handler) // TCP responses advertise HTTP/3
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pc.Close()
	go s3.Serve(pc)
	defer srv.Shutdown(context.Background()) // GOAWAY on HTTP/3 too

	tr := &http3.Transport{TLSClientConfig: certs.ClientConfig()}
	defer tr.Close()
	resp, err := (&http.Client{Transport: tr}).Get("https://" + pc.LocalAddr().String() + "/")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Proto, string(body))
	// Output: HTTP/3.0 HTTP/3.0 from brisk
}
