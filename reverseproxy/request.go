package reverseproxy

import (
	"io"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// build makes x.req the request to send upstream: the client's method and
// request-target (in origin-form), its fields but the hop-by-hop ones
// (the Upgrade offer kept for an upgrade), the forwarding fields, the Host,
// and its body as a stream.
func (x *exchange) build() {
	in, out := &x.c.Request, &x.req
	out.Reset()
	out.SetMethod(bstr(in.Method()))
	out.SetTarget(bstr(x.originTarget()))
	x.conn.load(&in.Header)
	x.upgrade = x.conn.has("upgrade") && in.Header.Has("Upgrade") && !offersH2C(&in.Header)
	trusted := x.trustedForwarding()
	for name, v := range in.Header.All() {
		switch {
		case hopByHop(name):
			x.keepHopField(name, v)
		case x.conn.names(name), len(name) == 4 && ascii.EqualFoldLower(name, "host"):
		case forwardingField(name) && !(trusted || len(name) == 3):
			// a client's own forwarding fields are not passed on
		case len(name) == 15 && x.p.lim.fwd&ForwardXForwarded != 0 && ascii.EqualFoldLower(name, "x-forwarded-for"),
			len(name) == 9 && x.p.lim.fwd&ForwardForwarded != 0 && ascii.EqualFoldLower(name, "forwarded"):
			// joined with this hop's element below
		default:
			out.Header.AddBytes(name, v)
		}
	}
	if x.upgrade {
		out.Header.Set("Connection", "Upgrade")
	}
	x.addForwarding(trusted)
	if host := in.Host(); len(host) > 0 {
		out.SetHost(bstr(host))
	}
	if n := in.ContentLength(); n != 0 {
		x.body = bodyIn{r: in.BodyReader(), in: in, out: out}
		out.SetBodyStream(&x.body, n)
	}
	out.SetInterimHandler(x.interim)
	if x.p.Rewrite != nil {
		x.p.Rewrite(x.c, out)
	}
}

// offersH2C reports whether h's Upgrade fields offer "h2c", HTTP/2 over
// cleartext by upgrade (RFC 7540 §3.2, removed in RFC 9113). Such a
// request is forwarded as one offering no upgrade: an upstream switching
// to h2c would get the client's later requests over HTTP/2 through the
// tunnel, none of them seen by the Proxy (h2c smuggling).
func offersH2C(h *brisk.Header) bool {
	for name, v := range h.All() {
		if len(name) == 7 && ascii.EqualFoldLower(name, "upgrade") && hasToken(v, "h2c") {
			return true
		}
	}
	return false
}

// keepHopField passes on the hop-by-hop fields a proxy forwards: the
// Upgrade offer of an upgrade request, and "TE: trailers" (RFC 9110
// §10.1.4), which says the client accepts trailer fields.
func (x *exchange) keepHopField(name, v []byte) {
	switch {
	case len(name) == 7 && x.upgrade:
		x.req.Header.AddBytes(name, v)
	case len(name) == 2 && hasToken(v, "trailers"):
		x.req.Header.Set("TE", "trailers")
	}
}

// hasToken reports whether the list v has the lower-case token tok.
func hasToken(v []byte, tok string) bool {
	for len(v) > 0 {
		var t []byte
		t, v = nextToken(v)
		if ascii.EqualFoldLower(t, tok) {
			return true
		}
	}
	return false
}

// originTarget returns the request-target to send: as received in
// origin-form and asterisk-form, the path and query of an absolute-form
// target (RFC 9112 §3.2.2: the authority became the Host).
func (x *exchange) originTarget() []byte {
	in := &x.c.Request
	t := in.Target()
	if len(t) > 0 && (t[0] == '/' || t[0] == '*') {
		return t
	}
	x.buf = append(x.buf[:0], in.RawPath()...)
	if q := in.Query(); q != nil {
		x.buf = append(x.buf, '?')
		x.buf = append(x.buf, q...)
	}
	return x.buf
}

// trustedForwarding reports whether the client's forwarding fields are
// kept: only when the peer is a trusted proxy that vouched for another
// client address (Ctx.ClientIP differs from the connection's), as
// Server.TrustedProxies and ClientIPField decide.
func (x *exchange) trustedForwarding() bool {
	ip := x.c.ClientIP()
	return ip.IsValid() && ip != peerIP(x.c.RemoteAddr())
}

// addForwarding adds this hop's forwarding fields, as Forwarding says:
// X-Forwarded-For and Forwarded join the kept values with this hop's
// element in one field line.
func (x *exchange) addForwarding(trusted bool) {
	fwd, in, out := x.p.lim.fwd, &x.c.Request, &x.req
	if fwd&ForwardNone != 0 && fwd == ForwardNone {
		return
	}
	client := peerIP(x.c.RemoteAddr())
	proto := "http"
	if x.c.TLS() != nil {
		proto = "https"
	}
	if fwd&ForwardXForwarded != 0 {
		x.buf = joinValues(x.buf[:0], &in.Header, "x-forwarded-for", trusted)
		x.buf = appendIP(x.buf, client)
		out.Header.AddBytes(xffName, x.buf)
		if !trusted || !out.Header.Has("X-Forwarded-Proto") {
			out.Header.Set("X-Forwarded-Proto", proto)
		}
		if h := in.Host(); len(h) > 0 && (!trusted || !out.Header.Has("X-Forwarded-Host")) {
			out.Header.SetBytes(xfhName, h)
		}
	}
	if fwd&ForwardForwarded != 0 {
		b := joinValues(x.buf[:0], &in.Header, "forwarded", trusted)
		b = append(b, "for="...)
		b = appendForwardedNode(b, client)
		b = append(b, ";proto="...)
		b = append(b, proto...)
		if h := in.Host(); len(h) > 0 {
			b = append(b, ";host="...)
			b = appendQuoted(b, h)
		}
		x.buf = b
		out.Header.AddBytes(forwardedName, b)
	}
	if fwd&ForwardVia != 0 {
		x.buf = appendVia(x.buf[:0], in.Proto(), x.p.lim.via)
		out.Header.AddBytes(viaName, x.buf)
	}
}

var (
	xffName       = []byte("X-Forwarded-For")
	xfhName       = []byte("X-Forwarded-Host")
	forwardedName = []byte("Forwarded")
)

// joinValues appends the values of h's fields named lower (lower-case),
// each followed by ", ", when keep is set.
func joinValues(dst []byte, h *brisk.Header, lower string, keep bool) []byte {
	if !keep {
		return dst
	}
	for name, v := range h.All() {
		if len(name) == len(lower) && ascii.EqualFoldLower(name, lower) && len(v) > 0 {
			dst = append(dst, v...)
			dst = append(dst, ", "...)
		}
	}
	return dst
}

// bodyIn is the client's request body as the upstream request's body
// stream: it notes that it was read (the request can then no longer be
// sent to another upstream), keeps the error of the client's side, and
// passes on the trailer section once the body has ended.
type bodyIn struct {
	r       io.Reader
	in, out *brisk.Request
	read    bool
	err     error
}

func (b *bodyIn) Read(p []byte) (int, error) {
	b.read = true
	n, err := b.r.Read(p)
	switch {
	case err == io.EOF:
		copyTrailer(&b.out.Trailer, &b.in.Trailer)
	case err != nil:
		b.err = err
	}
	return n, err
}
