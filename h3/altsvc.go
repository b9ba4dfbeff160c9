package h3

import (
	"time"

	"github.com/brisk-http/brisk"
)

// defaultAltSvcMaxAge is the Alt-Svc "ma" when Config.AltSvcMaxAge is
// zero.
const defaultAltSvcMaxAge = 24 * time.Hour

// AltSvc returns a handler that runs next and advertises HTTP/3 on the
// responses of the requests that did not come on it: an Alt-Svc field
// (RFC 7838 §3) naming "h3" on the UDP port served (Config.AltSvcPort, or
// that of the socket of the last Serve), so that a browser may use
// HTTP/3 for the origin's next requests. The field is set before next
// runs, which may replace or delete it; nothing is set until a socket is
// served. It applies on
// HTTP/1.1, TLS and h2 alike (a client learns of HTTP/3 on any of
// them; RFC 9114 §3.1.1); wrap the Handler with it after Configure, as
// HTTP/3 requests need no advertisement.
func (s *Server) AltSvc(next brisk.Handler) brisk.Handler {
	return func(c *brisk.Ctx) {
		if v := s.altSvc.Load(); v != nil && c.Proto() != "HTTP/3.0" {
			c.Response.Header.Set("Alt-Svc", *v)
		}
		next(c)
	}
}
