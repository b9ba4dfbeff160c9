// Command tls serves the plaintext response over HTTPS, HTTP/1.1 and
// HTTP/2 (ALPN), for bench/tls.sh: -s brisk is brisk with h2.Configure
// and a net/http handler for HTTP/2 (x/net/http2's own cost), -s bridge
// is brisk with its own handler on HTTP/2 too (through the net/http
// adaptor), -s nethttp is net/http.Server with the same handler, -s xnet
// is golang.org/x/net/http2's Server alone (HTTP/2 only, no brisk), for
// telling brisk's hand-over from x/net's own cost. The certificate files
// are made by the script.
package main

import (
	"crypto/tls"
	"flag"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/h2"
	"golang.org/x/net/http2"
)

func main() {
	kind := flag.String("s", "brisk", "server: `brisk`, bridge, nethttp or xnet")
	addr := flag.String("addr", "127.0.0.1:8443", "listen `address`")
	certFile := flag.String("cert", "cert.pem", "PEM certificate `file`")
	keyFile := flag.String("key", "key.pem", "PEM key `file`")
	profile := flag.String("cpuprofile", "", "write a CPU profile to `file` until SIGTERM or SIGINT")
	flag.Parse()
	if *profile != "" {
		profileUntilSignal(*profile)
	}
	body := []byte("Hello, World!")
	hh := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = []string{"text/plain"}
		w.Write(body)
	})
	if *kind == "nethttp" {
		s := &http.Server{Addr: *addr, Handler: hh, ErrorLog: log.New(io.Discard, "", 0)}
		log.Fatal(s.ListenAndServeTLS(*certFile, *keyFile))
	}
	if *kind == "xnet" {
		log.Fatal(serveXNet(*addr, *certFile, *keyFile, hh))
	}
	s := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBody(body)
	}}
	conf := h2.Config{Handler: hh}
	if *kind == "bridge" {
		conf.Handler = nil // s.Handler
	}
	if err := h2.Configure(s, conf); err != nil {
		log.Fatal(err)
	}
	s.TLSConfig = &tls.Config{}
	log.Fatal(s.ListenAndServeTLS(*addr, *certFile, *keyFile))
}

// serveXNet serves h on addr with x/net/http2's Server alone: each
// connection that ALPN takes to "h2" is handed to http2.Server.ServeConn
// as its *tls.Conn, the others closed.
func serveXNet(addr, certFile, keyFile string, h http.Handler) error {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return err
	}
	ln, err := tls.Listen("tcp", addr, &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}})
	if err != nil {
		return err
	}
	h1 := &http.Server{Handler: h, ErrorLog: log.New(io.Discard, "", 0)}
	var h2s http2.Server
	for {
		nc, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			defer nc.Close()
			tc := nc.(*tls.Conn)
			if tc.Handshake() != nil || tc.ConnectionState().NegotiatedProtocol != "h2" {
				return
			}
			h2s.ServeConn(tc, &http2.ServeConnOpts{BaseConfig: h1, Handler: h})
		}()
	}
}

// profileUntilSignal profiles the CPU into file until SIGTERM or SIGINT,
// then exits.
func profileUntilSignal(file string) {
	f, err := os.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sig
		pprof.StopCPUProfile()
		f.Close()
		os.Exit(0)
	}()
}
