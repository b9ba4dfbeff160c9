package brisk

import "github.com/brisk-http/brisk/internal/ascii"

// loggedFields sets the fields of in that access logs record (Host,
// UserAgent, Referer, RequestID, ClientIP) from the current request: one
// pass over its fields, no allocation; the slices alias the request.
func (c *conn) loggedFields(in *RequestInfo) {
	r := &c.ctx.Request
	in.Host = r.Host()
	in.UserAgent, in.Referer, in.RequestID = nil, nil, nil
	for i := range r.Header.fields {
		f := &r.Header.fields[i]
		if len(f.Value) == 0 {
			continue
		}
		var dst *[]byte
		switch {
		case ascii.EqualFold(f.Name, "User-Agent"):
			dst = &in.UserAgent
		case ascii.EqualFold(f.Name, "Referer"):
			dst = &in.Referer
		case ascii.EqualFold(f.Name, "X-Request-ID"):
			dst = &in.RequestID
		default:
			continue
		}
		if *dst == nil {
			*dst = f.Value
		}
	}
	in.ClientIP = c.ctx.ClientIP()
}
