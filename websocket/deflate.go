package websocket

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"iter"
	"strconv"

	kflate "github.com/klauspost/compress/flate"
)

// deflateParams is an accepted permessage-deflate offer (RFC 7692 §7).
type deflateParams struct {
	ok         bool
	serverBits int // server_max_window_bits the client asked for; 0: none
}

// response is the Sec-WebSocket-Extensions value accepting p: no context
// takeover either way (§7.1.1), and the client's server_max_window_bits
// echoed (§7.1.2.1).
func (p deflateParams) response() string {
	s := "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
	if p.serverBits != 0 {
		s += "; server_max_window_bits=" + strconv.Itoa(p.serverBits)
	}
	return s
}

// maxCompressed is the largest message the server may compress: with no
// context takeover, a back-reference never reaches past the message's
// start, so a message no longer than the window the client allows is
// within it, whatever window the encoder uses (32 KiB).
func (p deflateParams) maxCompressed() int {
	if p.serverBits == 0 {
		return int(^uint(0) >> 1)
	}
	return 1 << p.serverBits
}

// negotiateDeflate returns the first permessage-deflate offer of the
// Sec-WebSocket-Extensions values that is valid (§7.1: known parameters,
// each at most once, window bits 8..15).
func negotiateDeflate(values iter.Seq[[]byte]) deflateParams {
	for v := range values {
		for offer := range bytes.SplitSeq(v, []byte(",")) {
			if p, ok := parseOffer(offer); ok {
				return p
			}
		}
	}
	return deflateParams{}
}

// parseOffer parses one extension offer.
func parseOffer(offer []byte) (deflateParams, bool) {
	p := deflateParams{ok: true}
	seen := map[string]bool{}
	for i, param := range bytes.Split(offer, []byte(";")) {
		name, value, hasValue := bytes.Cut(param, []byte("="))
		name = bytes.TrimSpace(name)
		value = bytes.Trim(bytes.TrimSpace(value), `"`)
		if i == 0 {
			if string(name) != "permessage-deflate" || hasValue {
				return deflateParams{}, false
			}
			continue
		}
		if seen[string(name)] {
			return deflateParams{}, false
		}
		seen[string(name)] = true
		switch string(name) {
		case "server_no_context_takeover", "client_no_context_takeover":
			if hasValue {
				return deflateParams{}, false
			}
		case "client_max_window_bits": // we inflate with any window
			if hasValue && windowBits(value) == 0 {
				return deflateParams{}, false
			}
		case "server_max_window_bits":
			if p.serverBits = windowBits(value); p.serverBits == 0 {
				return deflateParams{}, false
			}
		default:
			return deflateParams{}, false
		}
	}
	return p, true
}

// windowBits parses 8..15, or returns 0.
func windowBits(v []byte) int {
	n, err := strconv.Atoi(string(v))
	if err != nil || n < 8 || n > 15 || len(v) > 2 {
		return 0
	}
	return n
}

// compressMin is the smallest message sent compressed.
const compressMin = 128

// deflateTail ends a message's compressed payload for the inflater: the
// sync-flush marker the sender removed (RFC 7692 §7.2.2) and an empty
// final stored block, so that the inflater reports io.EOF.
var deflateTail = []byte{0, 0, 0xff, 0xff, 1, 0, 0, 0xff, 0xff}

// inflate decompresses raw (a message's payload with deflateTail
// appended) into dst[:0], reading at most limit+1 bytes of output.
func (c *Conn) inflate(dst, raw []byte, limit int64) ([]byte, error) {
	c.rawReader.Reset(raw)
	if c.inflater == nil {
		c.inflater = flate.NewReader(&c.rawReader)
	} else if err := c.inflater.(flate.Resetter).Reset(&c.rawReader, nil); err != nil {
		return dst, err
	}
	dst, err := readBounded(dst[:0], c.inflater, limit)
	switch {
	case errors.Is(err, errTooBig):
		return dst, fail(StatusMessageTooBig, "decompressed message too big")
	case err != nil:
		return dst, fail(StatusInvalidPayload, "invalid compressed data")
	}
	return dst, nil
}

var errTooBig = errors.New("too big")

// readBounded appends r's bytes to dst until io.EOF, growing dst by
// doubling but never past limit+1 bytes; more than limit bytes is
// errTooBig.
func readBounded(dst []byte, r io.Reader, limit int64) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			n := int64(max(2*cap(dst), 4<<10))
			if n > limit+1 {
				n = limit + 1
			}
			if n <= int64(cap(dst)) {
				return dst, errTooBig
			}
			dst = append(make([]byte, 0, n), dst...)
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		switch {
		case int64(len(dst)) > limit:
			return dst, errTooBig
		case err == io.EOF:
			return dst, nil
		case err != nil:
			return dst, err
		}
	}
}

// deflate compresses p into c.zbuf as one message's payload (RFC 7692
// §7.2.1: the sync-flush marker removed). The compressor keeps no state
// between messages (no context takeover), so none is held per
// connection.
func (c *Conn) deflate(p []byte) ([]byte, error) {
	c.zbuf.Reset()
	if err := kflate.StatelessDeflate(&c.zbuf, p, false, nil); err != nil {
		return nil, err
	}
	b := c.zbuf.Bytes()
	if !bytes.HasSuffix(b, deflateTail[:4]) {
		return nil, errors.New("websocket: compressed message without its sync-flush marker")
	}
	return b[:len(b)-4], nil
}
