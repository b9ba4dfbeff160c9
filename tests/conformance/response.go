package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Response is one HTTP/1.x response parsed from the server's bytes.
type Response struct {
	Proto  string
	Status int
	Header [][2]string
	Body   []byte
}

// Get returns the last value of the named field (case-insensitive).
func (r *Response) Get(name string) (string, bool) {
	val, ok := "", false
	for _, f := range r.Header {
		if strings.EqualFold(f[0], name) {
			val, ok = f[1], true
		}
	}
	return val, ok
}

// Stream is every response found in one connection's bytes.
type Stream struct {
	All      []Response // every response, in order
	Finals   []Response // final (non-1xx) responses, in order
	Interims []Response // 1xx responses other than 101
	Err      error      // bytes that did not parse as a response
}

// errIncomplete marks bytes that end in the middle of a response.
var errIncomplete = errors.New("response cut short")

// ParseStream splits data into responses. methods[i] is the method of the
// i-th request (when known), needed because a HEAD response has no body and
// a 2xx CONNECT response starts a tunnel.
func ParseStream(data []byte, methods []string) Stream {
	var s Stream
	for len(data) > 0 {
		r, n, err := parseOne(data, methodAt(methods, len(s.Finals)))
		if err != nil {
			s.Err = fmt.Errorf("after %d responses: %w", len(s.Finals), err)
			return s
		}
		data = data[n:]
		s.All = append(s.All, r)
		switch {
		case r.Status == 101:
			s.Finals = append(s.Finals, r)
			return s // the rest is another protocol
		case r.Status < 200:
			s.Interims = append(s.Interims, r)
		default:
			s.Finals = append(s.Finals, r)
		}
	}
	return s
}

// methodAt returns methods[i], or "" when unknown.
func methodAt(methods []string, i int) string {
	if i < len(methods) {
		return methods[i]
	}
	return ""
}

// parseOne parses the response at the start of data and returns it with
// the number of bytes it used.
func parseOne(data []byte, method string) (Response, int, error) {
	end := bytes.Index(data, []byte("\r\n\r\n"))
	if end < 0 {
		return Response{}, 0, fmt.Errorf("%w: no end of header section in %q", errIncomplete, clip(data))
	}
	lines := strings.Split(string(data[:end]), "\r\n")
	r, err := parseStatusLine(lines[0])
	if err != nil {
		return r, 0, err
	}
	for _, line := range lines[1:] {
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return r, 0, fmt.Errorf("bad response field line %q", clip([]byte(line)))
		}
		r.Header = append(r.Header, [2]string{name, strings.Trim(value, " \t")})
	}
	head := end + 4
	body, n, err := readBody(&r, data[head:], method)
	if err != nil {
		return r, 0, err
	}
	r.Body = body
	return r, head + n, nil
}

// parseStatusLine parses "HTTP/1.x NNN reason".
func parseStatusLine(line string) (Response, error) {
	var r Response
	proto, rest, _ := strings.Cut(line, " ")
	code, _, _ := strings.Cut(rest, " ")
	if !strings.HasPrefix(proto, "HTTP/1.") || len(code) != 3 {
		return r, fmt.Errorf("bad status line %q", clip([]byte(line)))
	}
	status, err := strconv.Atoi(code)
	if err != nil || status < 100 {
		return r, fmt.Errorf("bad status code in %q", clip([]byte(line)))
	}
	r.Proto, r.Status = proto, status
	return r, nil
}

// readBody returns the body that follows a response head, and the number
// of bytes it used (RFC 9112 §6.3, seen from the client).
func readBody(r *Response, data []byte, method string) ([]byte, int, error) {
	switch {
	case r.Status < 200, r.Status == 204, r.Status == 304, method == "HEAD":
		return nil, 0, nil
	}
	tunnel := method == "CONNECT" && r.Status < 300
	if te, ok := r.Get("Transfer-Encoding"); ok && !tunnel {
		if !strings.EqualFold(lastCoding(te), "chunked") {
			return data, len(data), nil // read until close
		}
		return decodeChunked(data)
	}
	if cl, ok := r.Get("Content-Length"); ok {
		n, err := strconv.ParseUint(cl, 10, 31)
		if err != nil {
			return nil, 0, fmt.Errorf("bad response Content-Length %q", cl)
		}
		if int(n) > len(data) {
			return nil, 0, fmt.Errorf("%w: body has %d of %d bytes", errIncomplete, len(data), n)
		}
		return data[:n], int(n), nil
	}
	return data, len(data), nil // no framing: the body runs to the close
}

// lastCoding returns the final transfer coding of a Transfer-Encoding value.
func lastCoding(te string) string {
	codings := strings.Split(te, ",")
	return strings.TrimSpace(codings[len(codings)-1])
}

// decodeChunked decodes a chunked body and its trailer section.
func decodeChunked(data []byte) ([]byte, int, error) {
	var body []byte
	pos := 0
	for {
		line, next, ok := cutLine(data, pos)
		if !ok {
			return nil, 0, fmt.Errorf("%w: chunk-size line", errIncomplete)
		}
		sizeText, _, _ := strings.Cut(line, ";")
		size, err := strconv.ParseUint(strings.TrimSpace(sizeText), 16, 31)
		if err != nil {
			return nil, 0, fmt.Errorf("bad response chunk size %q", line)
		}
		pos = next
		if size == 0 {
			n, err := trailerEnd(data, pos)
			return body, n, err
		}
		if pos+int(size)+2 > len(data) {
			return nil, 0, fmt.Errorf("%w: chunk data", errIncomplete)
		}
		if string(data[pos+int(size):pos+int(size)+2]) != "\r\n" {
			return nil, 0, errors.New("response chunk data not followed by CRLF")
		}
		body = append(body, data[pos:pos+int(size)]...)
		pos += int(size) + 2
	}
}

// trailerEnd skips the trailer section that starts at pos.
func trailerEnd(data []byte, pos int) (int, error) {
	for {
		line, next, ok := cutLine(data, pos)
		if !ok {
			return 0, fmt.Errorf("%w: trailer section", errIncomplete)
		}
		pos = next
		if line == "" {
			return pos, nil
		}
	}
}

// cutLine returns the CRLF-terminated line at pos and the offset after it.
func cutLine(data []byte, pos int) (string, int, bool) {
	i := bytes.Index(data[pos:], []byte("\r\n"))
	if i < 0 {
		return "", 0, false
	}
	return string(data[pos : pos+i]), pos + i + 2, true
}

// clip shortens bytes for an error message.
func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}
