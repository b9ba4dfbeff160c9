package h3

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// Serve serves HTTP/3 on pc, a UDP socket, until Shutdown (of s or of
// the brisk.Server); it then returns http.ErrServerClosed. pc is not
// closed: the caller closes it once Serve returned and Done is closed.
// Serve may be called for several sockets at once.
func (s *Server) Serve(pc net.PacketConn) error {
	s.noteAltSvc(pc.LocalAddr())
	return s.h3.Serve(pc)
}

// ListenAndServe listens on the UDP address addr (":443" when empty) and
// serves HTTP/3 on it (Serve); the socket is closed once Shutdown has
// ended. It returns http.ErrServerClosed after Shutdown.
func (s *Server) ListenAndServe(addr string) error {
	if addr == "" {
		addr = ":443"
	}
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.sockets = append(s.sockets, pc)
	s.mu.Unlock()
	select {
	case <-s.done: // shut down before the socket was open
		pc.Close()
		return http.ErrServerClosed
	default:
	}
	return s.Serve(pc)
}

// connContext counts c among the brisk.Server's connections for as long
// as it lives, or closes it when the brisk.Server refuses it (MaxConns
// reached, Shutdown begun).
func (s *Server) connContext(ctx context.Context, c *quic.Conn) context.Context {
	if !s.count(1) {
		code := http3.ErrCodeExcessiveLoad
		if s.bridge.Draining() {
			code = http3.ErrCodeNoError
		}
		c.CloseWithError(quic.ApplicationErrorCode(code), "")
		return ctx
	}
	return s.track(ctx, c)
}

// Shutdown sends GOAWAY on every connection (RFC 9114 §5.2), refuses new
// ones, and cancels the requests' contexts, as brisk.Server.Shutdown does
// for HTTP/1.1; it returns at once and may be called again at no cost.
// brisk.Server.Shutdown calls it: wait with that. Connections close once
// their requests have ended and the client closed them, or at their
// IdleTimeout; Done is closed then.
func (s *Server) Shutdown() {
	s.goAway()
	s.closeIdle()
	s.stopOnce.Do(func() { go s.bridge.Shutdown(context.Background()) })
}

// Drain sends GOAWAY on every connection and refuses new ones, letting
// the open requests finish with their contexts intact;
// brisk.Server.Drain calls it. It returns at once and may be called
// again at no cost.
func (s *Server) Drain() {
	s.goAway()
	s.closeIdle()
}

// Close closes every connection at once (H3_NO_ERROR), aborting the
// requests in flight, and the sockets of ListenAndServe.
func (s *Server) Close() error {
	err := s.h3.Close()
	s.goAway()
	return err
}

// Done returns a channel closed once a graceful shutdown (Shutdown, Drain)
// or Close ended: every HTTP/3 connection is closed.
func (s *Server) Done() <-chan struct{} { return s.done }

// goAway begins the graceful shutdown once.
func (s *Server) goAway() {
	s.graceOnce.Do(func() {
		s.mu.Lock()
		s.goAwayAt = time.Now()
		s.mu.Unlock()
		go func() {
			s.h3.Shutdown(context.Background())
			s.mu.Lock()
			for _, pc := range s.sockets {
				pc.Close()
			}
			s.sockets = nil
			s.mu.Unlock()
			close(s.done)
		}()
	})
}

// noteAltSvc records the Alt-Svc field value for a socket at addr,
// unless Config.AltSvcPort fixes the port.
func (s *Server) noteAltSvc(addr net.Addr) {
	port := s.conf.AltSvcPort
	if port == 0 {
		if ua, ok := addr.(*net.UDPAddr); ok {
			port = ua.Port
		}
	}
	if port == 0 {
		return
	}
	age := s.conf.AltSvcMaxAge
	if age == 0 {
		age = defaultAltSvcMaxAge
	}
	v := `h3=":` + strconv.Itoa(port) + `"; ma=` + strconv.FormatInt(int64(age.Seconds()), 10)
	s.altSvc.Store(&v)
}
