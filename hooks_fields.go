package brisk

import (
	"net/netip"

	"github.com/brisk-http/brisk/internal/ascii"
)

// loggedFields sets the fields of in that access logs record (Host,
// UserAgent, Referer, RequestID, ClientIP) from the current request: one
// pass over its fields, no allocation; the slices alias the request.
func (c *conn) loggedFields(in *RequestInfo) {
	r := &c.ctx.Request
	in.Host = r.Host()
	in.UserAgent, in.Referer, in.RequestID = nil, nil, nil
	for i := range r.Header.fields {
		f := &r.Header.fields[i]
		var dst *[]byte
		switch len(f.Name) {
		case len("User-Agent"):
			dst = &in.UserAgent
			if !ascii.EqualFold(f.Name, "User-Agent") {
				continue
			}
		case len("Referer"):
			dst = &in.Referer
			if !ascii.EqualFold(f.Name, "Referer") {
				continue
			}
		case len("X-Request-ID"):
			dst = &in.RequestID
			if !ascii.EqualFold(f.Name, "X-Request-ID") {
				continue
			}
		default:
			continue
		}
		if *dst == nil && len(f.Value) > 0 {
			*dst = f.Value
		}
	}
	in.ClientIP = netip.Addr{}
	if len(c.srv.TrustedProxies) > 0 {
		in.ClientIP = c.ctx.ClientIP()
	}
}
