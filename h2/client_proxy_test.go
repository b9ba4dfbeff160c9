package h2

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/proxyproto"
)

// TestClientH2ProxyHeader: the PROXY header (ClientConfig.ProxyHeader)
// goes first on an HTTP/2 connection, before TLS, as on HTTP/1.1: the
// brisk handler behind it sees its source as the client's address, on
// HTTP/2.
func TestClientH2ProxyHeader(t *testing.T) {
	srv := &brisk.Server{
		Handler:       func(c *brisk.Ctx) { c.Response.SetBodyString(c.Proto() + " " + c.RemoteAddr().String()) },
		ProxyProtocol: &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
	}
	if err := Configure(srv, Config{}); err != nil {
		t.Fatal(err)
	}
	addr := serve(t, srv, true)
	c, _ := h2BriskClient(t)
	src := &net.TCPAddr{IP: net.IPv4(203, 0, 113, 7), Port: 4242}
	c.ProxyHeader = func(nc net.Conn) *proxyproto.Header { return proxyproto.NewHeader(2, src, nc.RemoteAddr()) }
	for range 2 {
		resp := get(t, c, "https://"+addr+"/")
		if want := "HTTP/2.0 203.0.113.7:4242"; string(resp.Body()) != want || resp.Proto() != "HTTP/2.0" {
			t.Errorf("body %q, Proto %q; want %q", resp.Body(), resp.Proto(), want)
		}
	}
}

// connectProxy is an HTTP proxy that tunnels CONNECT requests (RFC 9110
// §9.3.6) and counts them.
func connectProxy(t *testing.T) (string, *atomic.Int64) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				br := bufio.NewReader(nc)
				req, err := http.ReadRequest(br)
				if err != nil || req.Method != "CONNECT" {
					io.WriteString(nc, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
					return
				}
				up, err := net.Dial("tcp", req.Host)
				if err != nil {
					io.WriteString(nc, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
					return
				}
				defer up.Close()
				n.Add(1)
				io.WriteString(nc, "HTTP/1.1 200 OK\r\n\r\n")
				go io.Copy(up, br)
				io.Copy(nc, up)
			}()
		}
	}()
	return ln.Addr().String(), &n
}

// TestClientH2ConnectTunnel: an "https" origin reached through an HTTP
// proxy's CONNECT tunnel may choose HTTP/2; the requests share the one
// tunnelled connection.
func TestClientH2ConnectTunnel(t *testing.T) {
	p := startNetHTTP(t)
	proxyAddr, tunnels := connectProxy(t)
	_, a := testCert(t)
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{
		HTTP2:     &Transport{},
		TLSConfig: &tls.Config{RootCAs: a.Pool},
		Proxy:     brisk.ProxyURL(&url.URL{Scheme: "http", Host: proxyAddr}),
	}}
	t.Cleanup(c.CloseIdleConnections)
	for range 3 {
		resp := get(t, c, p.url+"/get")
		if !strings.HasPrefix(string(resp.Body()), "proto=HTTP/2.0") || resp.Proto() != "HTTP/2.0" {
			t.Errorf("body %q, Proto %q; want HTTP/2.0", resp.Body(), resp.Proto())
		}
	}
	if n := tunnels.Load(); n != 1 {
		t.Errorf("%d tunnels; want 1", n)
	}
}
