package reverseproxy

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
)

// switchProtocols completes an upgrade the upstream accepted (101): the
// client's connection is switched to the same protocol with the
// upstream's fields, and bytes are copied both ways (tunnel).
func (x *exchange) switchProtocols(s *brisk.BodyStream, u *upstream) {
	defer s.Close()
	c := x.c
	proto := x.resp.Header.Get("Upgrade")
	if !x.upgrade || len(proto) == 0 {
		x.fail(&Error{Phase: PhaseUpgrade, Upstream: u.name, Status: http.StatusBadGateway, Err: errUnaskedSwitch})
		return
	}
	x.copyFields(&c.Response.Header, &x.resp.Header)
	uc, urest, err := s.Hijack()
	if err != nil {
		x.fail(&Error{Phase: PhaseUpgrade, Upstream: u.name, Status: http.StatusBadGateway, Err: err})
		return
	}
	dc, drest, err := c.Upgrade(string(proto))
	if err != nil {
		uc.Close()
		c.Response.Header.Reset()
		x.fail(&Error{Phase: PhaseUpgrade, Upstream: u.name, Status: http.StatusBadGateway, Err: err})
		return
	}
	x.rec.Upgraded = true
	if err := tunnel(dc, drest, uc, urest, x.p.lim.idle); err != nil {
		x.rec.Err = &Error{Phase: PhaseUpgrade, Upstream: u.name, Err: err}
	}
}

// errUnaskedSwitch: the upstream answered 101 to a request that offered
// no upgrade, or without naming the protocol.
var errUnaskedSwitch = errors.New("reverseproxy: upstream switched protocols unasked")

// connect handles a CONNECT request (RFC 9110 §9.3.6) with Proxy.Connect,
// on HTTP/1 connections only: the HTTP/2 bridge cannot hand its stream
// over as a connection.
func (x *exchange) connect() {
	c := x.c
	if x.p.Connect == nil || !strings.HasPrefix(c.Request.Proto(), "HTTP/1.") {
		c.Response.Header.Set("Allow", "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE")
		x.fail(&Error{Phase: PhasePick, Status: http.StatusMethodNotAllowed, Err: ErrConnectRefused})
		return
	}
	nc, err := x.p.Connect(c)
	if err != nil {
		x.fail(&Error{Phase: PhaseDial, Status: http.StatusBadGateway, Err: err})
		return
	}
	dc, rest, err := c.Tunnel()
	if err != nil {
		nc.Close()
		x.fail(&Error{Phase: PhaseUpgrade, Status: http.StatusBadGateway, Err: err})
		return
	}
	x.rec.Upgraded = true
	if err := tunnel(dc, rest, nc, nil, x.p.lim.idle); err != nil {
		x.rec.Err = &Error{Phase: PhaseUpgrade, Err: err}
	}
}

// tunnel copies bytes between the client's connection dc and the
// upstream's uc, both ways, first the bytes each side sent ahead (drest to
// uc, urest to dc), until both directions end: an EOF is passed on as a
// half-close (when the connection supports it), an error or a side idle
// for idle (0: no limit) in either direction closes both. It closes both
// connections and returns the first error, nil when both ended with EOF.
func tunnel(dc net.Conn, drest []byte, uc net.Conn, urest []byte, idle time.Duration) error {
	var wg sync.WaitGroup
	var upErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		upErr = pipe(dc, uc, urest, idle)
	}()
	downErr := pipe(uc, dc, drest, idle)
	if downErr != nil {
		dc.Close()
		uc.Close()
	}
	wg.Wait()
	dc.Close()
	uc.Close()
	if downErr != nil {
		return downErr
	}
	return upErr
}

// pipe writes first, then copies src to dst, each read and write bounded
// by idle; at src's EOF it half-closes dst. On error it closes both.
func pipe(dst, src net.Conn, first []byte, idle time.Duration) error {
	err := pipeCopy(dst, src, first, idle)
	if err != nil {
		dst.Close()
		src.Close()
		return err
	}
	if cw, ok := dst.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	} else {
		dst.Close()
	}
	return nil
}

func pipeCopy(dst, src net.Conn, first []byte, idle time.Duration) error {
	var rd, wd idleDeadline
	if len(first) > 0 {
		if err := wd.write(dst, first, idle); err != nil {
			return err
		}
	}
	buf := make([]byte, copyBufSize)
	if raw, err := rawPipeCopy(dst, src, buf, &rd, &wd, idle); raw {
		if errors.Is(err, net.ErrClosed) {
			return nil // closed by the other direction
		}
		return err
	}
	for {
		if err := rd.extend(src.SetReadDeadline, idle); err != nil {
			return err
		}
		n, err := src.Read(buf)
		if n > 0 {
			if werr := wd.write(dst, buf[:n], idle); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil // closed by the other direction
			}
			return err
		}
	}
}

// idleDeadline is a read or write deadline kept at most idle ahead: it
// is moved by extend only when it would move by more than an eighth of
// idle (at most idleSlack), so that a busy tunnel does not reset its
// timer on every read and write; an idle side is cut after between
// idle minus that slack and idle.
type idleDeadline struct {
	armed time.Time // the deadline set; zero: none yet
}

// extend moves the deadline with set to now + idle when it lags by more
// than the slack; idle 0 means no deadline.
func (d *idleDeadline) extend(set func(time.Time) error, idle time.Duration) error {
	if idle <= 0 {
		return nil
	}
	t := time.Now().Add(idle)
	if t.Sub(d.armed) <= min(idle/8, idleSlack) {
		return nil
	}
	d.armed = t
	return set(t)
}

// write writes p to dst within the write deadline.
func (d *idleDeadline) write(dst net.Conn, p []byte, idle time.Duration) error {
	if err := d.extend(dst.SetWriteDeadline, idle); err != nil {
		return err
	}
	_, err := dst.Write(p)
	return err
}
