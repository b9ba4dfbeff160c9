package websocket

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/gobwas/ws"
)

// Opcodes (RFC 6455 §5.2).
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xa
)

// header is a frame header read from the client.
type header struct {
	fin    bool
	rsv    byte // the three RSV bits, RSV1 first
	op     byte
	length int64
	mask   [4]byte
}

// readHeader reads and checks a frame header (RFC 6455 §5.2): a client's
// frames are masked, lengths use the fewest bytes and a 64-bit one has its
// top bit clear, control frames are whole and at most 125 bytes, and no
// reserved opcode is used. RSV bits are checked by the caller. Until the
// server sends a Close, the read deadline moves to IdleTimeout from now.
func (c *Conn) readHeader() (header, error) {
	if c.lim.idle > 0 && !c.closing.Load() {
		c.nc.SetReadDeadline(time.Now().Add(c.lim.idle))
	}
	b, err := c.br.Peek(2)
	if err != nil {
		return header{}, readError(err)
	}
	h := header{fin: b[0]&0x80 != 0, rsv: b[0] >> 4 & 7, op: b[0] & 0xf, length: int64(b[1] & 0x7f)}
	n := 2
	switch h.length {
	case 126:
		n += 2
	case 127:
		n += 8
	}
	masked := b[1]&0x80 != 0
	if masked {
		n += 4
	}
	if b, err = c.br.Peek(n); err != nil {
		return header{}, readError(err)
	}
	c.br.Discard(n)
	switch h.length {
	case 126:
		if h.length = int64(binary.BigEndian.Uint16(b[2:])); h.length < 126 {
			return h, fail(StatusProtocolError, "non-minimal payload length")
		}
	case 127:
		u := binary.BigEndian.Uint64(b[2:])
		if u>>63 != 0 {
			return h, fail(StatusProtocolError, "payload length with its most significant bit set")
		}
		if h.length = int64(u); h.length <= 0xffff {
			return h, fail(StatusProtocolError, "non-minimal payload length")
		}
	}
	if masked {
		copy(h.mask[:], b[n-4:])
	}
	switch {
	case !masked:
		return h, fail(StatusProtocolError, "unmasked client frame")
	case h.op > opBinary && h.op < opClose || h.op > opPong:
		return h, fail(StatusProtocolError, "reserved opcode")
	case h.op >= opClose && (!h.fin || h.length > 125):
		return h, fail(StatusProtocolError, "fragmented or oversized control frame")
	}
	return h, nil
}

// readError maps a read error: a timeout is the idle limit.
func readError(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fail(StatusGoingAway, "idle timeout")
	}
	return err
}

// readMessage reads frames up to the end of a data message.
func (c *Conn) readMessage() (MessageType, []byte, error) {
	if cap(c.msg) > keptBuffer {
		c.msg = nil
	}
	if cap(c.raw) > keptBuffer {
		c.raw = nil
	}
	var typ MessageType
	var compressed bool
	var buf []byte
	for {
		h, err := c.readHeader()
		if err != nil {
			return 0, nil, err
		}
		if err := c.checkRSV(h, typ == 0); err != nil {
			return 0, nil, err
		}
		if h.op >= opClose {
			if err := c.control(h); err != nil {
				return 0, nil, err
			}
			continue
		}
		switch {
		case h.op == opContinuation && typ == 0:
			return 0, nil, fail(StatusProtocolError, "continuation frame with no message")
		case h.op != opContinuation && typ != 0:
			return 0, nil, fail(StatusProtocolError, "data frame inside a fragmented message")
		case typ == 0:
			typ, compressed = MessageType(h.op), h.rsv != 0
			if buf = c.msg[:0]; compressed {
				buf = c.raw[:0]
			}
		}
		if int64(len(buf))+h.length > c.lim.maxMessage {
			c.skip = h.length
			return 0, nil, fail(StatusMessageTooBig, "message too big")
		}
		if buf, err = c.readPayload(buf, h); err != nil {
			return 0, nil, err
		}
		if h.fin {
			break
		}
	}
	if !compressed {
		c.msg = buf
	} else {
		c.raw = append(buf, deflateTail...)
		var err error
		if c.msg, err = c.inflate(c.msg, c.raw, c.lim.maxMessage); err != nil {
			return 0, nil, err
		}
	}
	if typ == Text && !utf8.Valid(c.msg) {
		return 0, nil, fail(StatusInvalidPayload, "invalid UTF-8 in a text message")
	}
	return typ, c.msg, nil
}

// checkRSV allows RSV1 on the first frame of a data message when
// permessage-deflate was negotiated (RFC 7692 §6), and no other RSV bit
// (RFC 6455 §5.2).
func (c *Conn) checkRSV(h header, first bool) error {
	if h.rsv == 0 || h.rsv == 4 && c.deflateOpt.ok && first && (h.op == opText || h.op == opBinary) {
		return nil
	}
	return fail(StatusProtocolError, "reserved bits set")
}

// readPayload appends h's payload to buf, unmasked. buf grows to what the
// frame needs, within MaxMessageSize plus the deflate tail.
func (c *Conn) readPayload(buf []byte, h header) ([]byte, error) {
	n := int(h.length)
	if cap(buf)-len(buf) < n {
		size := max(2*cap(buf), len(buf)+n)
		size = min(size, int(c.lim.maxMessage)+len(deflateTail))
		buf = append(make([]byte, 0, max(size, len(buf)+n)), buf...)
	}
	p := buf[len(buf) : len(buf)+n]
	if _, err := io.ReadFull(c.br, p); err != nil {
		return buf, readError(err)
	}
	ws.Cipher(p, h.mask, 0)
	return buf[:len(buf)+n], nil
}

// control handles a Ping, Pong or Close frame (RFC 6455 §5.5).
func (c *Conn) control(h header) error {
	p := c.ctl[:h.length]
	if _, err := io.ReadFull(c.br, p); err != nil {
		return readError(err)
	}
	ws.Cipher(p, h.mask, 0)
	switch h.op {
	case opPing:
		c.wmu.Lock()
		if !c.closeSent && !c.broken {
			c.writeFrame(opPong, false, p)
		}
		c.wmu.Unlock()
		return nil
	case opPong:
		return nil
	}
	return c.closeFrame(p)
}

// closeFrame handles the client's Close: it answers it with the same
// status (§5.5.1) unless the server sent its own, and ends reading.
func (c *Conn) closeFrame(p []byte) error {
	ce := &CloseError{Code: StatusNoStatus}
	switch {
	case len(p) == 1:
		return fail(StatusProtocolError, "one-byte Close payload")
	case len(p) >= 2:
		ce.Code, ce.Reason = StatusCode(binary.BigEndian.Uint16(p)), string(p[2:])
		if !validCloseCode(ce.Code) {
			return fail(StatusProtocolError, "invalid Close status code")
		}
		if !utf8.ValidString(ce.Reason) {
			return fail(StatusInvalidPayload, "invalid UTF-8 in a Close reason")
		}
	}
	if c.closeWasSent() {
		return c.sentClose()
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.closeSent && !c.broken {
		c.closeSent, c.sentCode, c.sentWhy = true, ce.Code, ce.Reason
		c.closing.Store(true)
		c.writeFrame(opClose, false, p[:min(len(p), 2)])
	}
	return ce
}

// validCloseCode reports whether a client may send code (RFC 6455
// §7.4.1, §7.4.2: 1004-1006 and 1015 are never sent, 1016-2999 are
// reserved for future RFCs, 3000-4999 are registered or private).
func validCloseCode(code StatusCode) bool {
	switch {
	case code >= 1000 && code <= 1003, code >= 1007 && code <= 1014:
		return true
	case code >= 3000 && code <= 4999:
		return true
	}
	return false
}

// writeFrame writes one whole frame from the server (unmasked), with wmu
// held. A failed write closes the connection: a frame may be cut short.
func (c *Conn) writeFrame(op byte, rsv1 bool, p []byte) error {
	if c.lim.write > 0 {
		c.nc.SetWriteDeadline(time.Now().Add(c.lim.write))
	}
	var err error
	if len(p) <= 1<<10 {
		c.wbuf = append(appendHeader(c.wbuf[:0], op, rsv1, len(p)), p...)
		_, err = c.nc.Write(c.wbuf)
	} else { // header and payload in one writev on TCP, without a copy
		c.wbuf = appendHeader(c.wbuf[:0], op, rsv1, len(p))
		c.iov = [2][]byte{c.wbuf, p}
		c.wbufs = c.iov[:] // WriteTo consumes it
		_, err = c.wbufs.WriteTo(c.nc)
		c.iov[1] = nil // p is the caller's
	}
	if err != nil {
		c.broken = true
		c.closing.Store(true)
		c.nc.Close()
	}
	return err
}

// appendHeader appends a final, unmasked frame header (RFC 6455 §5.2).
func appendHeader(b []byte, op byte, rsv1 bool, n int) []byte {
	b0 := 0x80 | op
	if rsv1 {
		b0 |= 0x40
	}
	switch {
	case n < 126:
		return append(b, b0, byte(n))
	case n <= 0xffff:
		return append(b, b0, 126, byte(n>>8), byte(n))
	}
	return binary.BigEndian.AppendUint64(append(b, b0, 127), uint64(n))
}
