package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/h3"
)

// h3Options is the -h3 flag of `brisk serve`.
type h3Options struct {
	on bool // HTTP/3 on the UDP port of the first listener
}

var errH3TLS = errors.New("-h3 needs -tls or -cert and -key: HTTP/3 is always encrypted")

// register adds the flag to fs.
func (o *h3Options) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.on, "h3", false, "also serve HTTP/3 (QUIC) on the UDP port of the same number as -addr's (needs -tls or -cert); HTTP/1.1 responses advertise it with Alt-Svc")
}

// check reports the error of -h3 without HTTPS.
func (o *h3Options) check(https bool) error {
	if o.on && !https {
		return errH3TLS
	}
	return nil
}

// start, with -h3, serves HTTP/3 for srv (its Handler and limits as they
// are now; srv.Shutdown and Drain end it) on the UDP address of tcp's
// host and port, prints it on stdout, and wraps srv.Handler to advertise
// it. A failure of the UDP socket is sent on served. The returned
// function closes the socket, once srv has shut down.
func (o *h3Options) start(srv *brisk.Server, tcp net.Addr, stdout io.Writer, served chan<- error) (stop func(), err error) {
	if !o.on {
		return func() {}, nil
	}
	s3, err := h3.Configure(srv, h3.Config{})
	if err != nil {
		return nil, err
	}
	pc, err := net.ListenPacket("udp", tcp.String())
	if err != nil {
		return nil, fmt.Errorf("HTTP/3: %w", err)
	}
	srv.Handler = s3.AltSvc(srv.Handler)
	fmt.Fprintf(stdout, "brisk: HTTP/3 on udp %s\n", pc.LocalAddr())
	go func() {
		if err := s3.Serve(pc); err != nil && !errors.Is(err, http.ErrServerClosed) {
			served <- fmt.Errorf("HTTP/3: %w", err)
		}
	}()
	return func() { pc.Close() }, nil
}
