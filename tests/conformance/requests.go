package conformance

import (
	"bytes"
	"strconv"
	"strings"
)

// RequestMethods returns the methods of the requests in raw, in order, as
// far as a lenient reading can tell. It stops at the first thing it cannot
// read: the result only decides which responses lack a body (HEAD) or open
// a tunnel (CONNECT), and a server rejects a broken request anyway.
func RequestMethods(raw []byte) []string {
	var methods []string
	for {
		raw = bytes.TrimLeft(raw, "\r\n")
		line, rest, ok := bytes.Cut(raw, []byte("\n"))
		if !ok || len(line) == 0 {
			return methods
		}
		method, _, _ := bytes.Cut(line, []byte(" "))
		methods = append(methods, string(method))
		rest, ok = skipMessage(rest)
		if !ok {
			return methods
		}
		raw = rest
	}
}

// skipMessage skips a field section and the body it announces.
func skipMessage(raw []byte) ([]byte, bool) {
	length, chunked := 0, false
	for {
		line, rest, ok := bytes.Cut(raw, []byte("\n"))
		if !ok {
			return nil, false
		}
		raw = rest
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			break
		}
		name, value, _ := strings.Cut(string(line), ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "content-length":
			length, _ = strconv.Atoi(value)
		case "transfer-encoding":
			chunked = strings.EqualFold(lastCoding(value), "chunked")
		}
	}
	if chunked {
		return skipChunked(raw)
	}
	if length < 0 || length > len(raw) {
		return nil, false
	}
	return raw[length:], true
}

// skipChunked skips a chunked body and its trailer section.
func skipChunked(raw []byte) ([]byte, bool) {
	for {
		line, rest, ok := bytes.Cut(raw, []byte("\n"))
		if !ok {
			return nil, false
		}
		sizeText, _, _ := strings.Cut(strings.TrimSpace(string(line)), ";")
		size, err := strconv.ParseUint(strings.TrimSpace(sizeText), 16, 31)
		if err != nil {
			return nil, false
		}
		raw = rest
		if size == 0 {
			return skipTrailers(raw)
		}
		if int(size)+2 > len(raw) {
			return nil, false
		}
		raw = raw[size+2:]
	}
}

// skipTrailers skips field lines up to and including the empty line.
func skipTrailers(raw []byte) ([]byte, bool) {
	for {
		line, rest, ok := bytes.Cut(raw, []byte("\n"))
		if !ok {
			return nil, false
		}
		raw = rest
		if len(bytes.TrimSuffix(line, []byte("\r"))) == 0 {
			return raw, true
		}
	}
}
