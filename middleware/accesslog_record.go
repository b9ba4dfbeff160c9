package middleware

import (
	"log/slog"
	"net"
	"net/netip"
	"strings"

	"github.com/brisk-http/brisk"
)

// accessField is one field of an access-log record: a number, or a
// string held in b or s.
type accessField struct {
	key   string
	b     []byte
	s     string
	n     int64
	isNum bool
}

// recordFields appends to f the fields of in's record, in AccessLog's
// order (a rejected head's when rejected), with client and remote the
// client's IP and the remote address as appended by appendClient and
// appendAddr. The fields alias in, client and remote.
func recordFields(f []accessField, in *brisk.RequestInfo, rejected bool, client, remote []byte) []accessField {
	f = bytesField(f, "method", in.Method)
	f = bytesField(f, "target", in.Target)
	if rejected {
		f = append(f, accessField{key: "status", n: int64(in.Status), isNum: true})
		f = errorField(f, in.Err)
		f = append(f, accessField{key: "client", b: client}, accessField{key: "remote", b: remote})
		return f
	}
	if in.Proto != "" {
		f = append(f, accessField{key: "proto", s: in.Proto})
	}
	f = append(f,
		accessField{key: "status", n: int64(in.Status), isNum: true},
		accessField{key: "bytes", n: in.BytesWritten, isNum: true},
		accessField{key: "duration_us", n: in.Duration.Microseconds(), isNum: true},
		accessField{key: "client", b: client},
		accessField{key: "remote", b: remote})
	f = bytesField(f, "host", in.Host)
	f = bytesField(f, "user_agent", in.UserAgent)
	f = bytesField(f, "referer", in.Referer)
	f = bytesField(f, "request_id", in.RequestID)
	return errorField(f, in.Err)
}

// bytesField appends the field key with value v, unless v is nil.
func bytesField(f []accessField, key string, v []byte) []accessField {
	if v == nil {
		return f
	}
	return append(f, accessField{key: key, b: v})
}

// errorField appends the field "error" with err's text, unless err is nil.
func errorField(f []accessField, err error) []accessField {
	if err == nil {
		return f
	}
	return append(f, accessField{key: "error", s: err.Error()})
}

// slogAttrs returns the fields as slog attributes.
func slogAttrs(f []accessField) []slog.Attr {
	attrs := make([]slog.Attr, len(f))
	for i, v := range f {
		switch {
		case v.isNum:
			attrs[i] = slog.Int64(v.key, v.n)
		case v.b != nil:
			attrs[i] = slog.String(v.key, string(v.b))
		default:
			attrs[i] = slog.String(v.key, v.s)
		}
	}
	return attrs
}

// appendClient appends the client's IP address of in: in.ClientIP when
// set, else the host of in.RemoteAddr, "-" when unknown.
func appendClient(b []byte, in *brisk.RequestInfo) []byte {
	if in.ClientIP.IsValid() {
		return in.ClientIP.Unmap().AppendTo(b)
	}
	n := len(b)
	switch a := in.RemoteAddr.(type) {
	case *net.TCPAddr:
		b = a.AddrPort().Addr().Unmap().AppendTo(b)
	case *net.UDPAddr:
		b = a.AddrPort().Addr().Unmap().AppendTo(b)
	case nil:
	default:
		s := a.String()
		if i := strings.LastIndexByte(s, ':'); i > strings.LastIndexByte(s, ']') {
			s = strings.TrimSuffix(strings.TrimPrefix(s[:i], "["), "]") // host:port
		}
		b = appendEscaped(b, s)
	}
	if len(b) == n {
		b = append(b, '-')
	}
	return b
}

// appendAddr appends a as host:port (a.String()), without allocating
// for TCP and UDP addresses; nothing for nil.
func appendAddr(b []byte, a net.Addr) []byte {
	switch a := a.(type) {
	case *net.TCPAddr:
		return appendAddrPort(b, a.AddrPort(), a.Zone)
	case *net.UDPAddr:
		return appendAddrPort(b, a.AddrPort(), a.Zone)
	case nil:
		return b
	}
	return append(b, a.String()...)
}

// appendAddrPort appends ap as net.TCPAddr.String writes it: an
// IPv4-mapped address in its IPv4 form.
func appendAddrPort(b []byte, ap netip.AddrPort, zone string) []byte {
	addr := ap.Addr().Unmap()
	if addr.Is6() && zone != "" {
		addr = addr.WithZone(zone)
	}
	return netip.AddrPortFrom(addr, ap.Port()).AppendTo(b)
}
