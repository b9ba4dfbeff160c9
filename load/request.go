package load

import (
	"strings"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// encodeRequest encodes the request that every connection sends: request
// line with target (RFC 9112 §3), Host (host) unless c.Header has one
// (§3.2), c.Header, a Content-Length for the body (§6.2) and the body:
// c.Body, or, when fileSize >= 0, none (the caller sends the file's
// fileSize bytes after the head). keepAlive reports a
// "Connection: keep-alive" line in c.Header.
func encodeRequest(method, target, host string, c Config, fileSize int64) (req []byte, keepAlive bool, err error) {
	if !ascii.IsTokenString([]byte(method)) {
		return nil, false, ErrMethod
	}
	req = appendRequestLine(req, method, target, c.HTTP10)
	hasHost := false
	fields := make([]byte, 0, 64)
	for _, line := range c.Header {
		name, value, err := splitHeaderLine(line)
		if err != nil {
			return nil, false, err
		}
		switch {
		case ascii.EqualFold([]byte(name), "host"):
			hasHost = true
		case ascii.EqualFold([]byte(name), "connection") && ascii.EqualFold([]byte(value), "keep-alive"):
			keepAlive = true
		}
		fields = wire.AppendField(fields, name, value)
	}
	if !hasHost {
		req = wire.AppendField(req, "Host", host)
	}
	req = append(req, fields...)
	if fileSize >= 0 {
		req = wire.AppendContentLength(req, fileSize)
		return append(req, "\r\n"...), keepAlive, nil
	}
	switch method {
	case "POST", "PUT", "PATCH":
		req = wire.AppendContentLength(req, int64(len(c.Body)))
	default:
		if len(c.Body) > 0 {
			req = wire.AppendContentLength(req, int64(len(c.Body)))
		}
	}
	req = append(req, "\r\n"...)
	return append(req, c.Body...), keepAlive, nil
}

// appendRequestLine appends the request line "method SP request-target
// SP HTTP-version CRLF" (RFC 9112 §3), with version HTTP/1.0 when http10,
// else HTTP/1.1. method must be a token and target a request-target.
func appendRequestLine(dst []byte, method, target string, http10 bool) []byte {
	version := " HTTP/1.1\r\n"
	if http10 {
		version = " HTTP/1.0\r\n"
	}
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, target...)
	return append(dst, version...)
}

// splitHeaderLine splits "Name: value" and checks the name is a token and
// the value a valid field value (RFC 9110 §5.1, §5.5).
func splitHeaderLine(line string) (name, value string, err error) {
	name, value, ok := strings.Cut(line, ":")
	value = strings.Trim(value, " \t")
	if !ok || !wire.ValidFieldName(name) || !wire.ValidFieldValue(value) {
		return "", "", ErrHeaderLine
	}
	return name, value, nil
}
