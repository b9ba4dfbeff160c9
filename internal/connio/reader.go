// Package connio holds the input side shared by every role that reads
// HTTP/1.1 from a connection: brisk's server, its client and the load
// generator. It knows buffers and readers, not HTTP: the grammar is in
// package wire.
package connio

import (
	"errors"
	"io"
)

// ErrFull is returned by Fill when the buffer already holds limit bytes
// that must be kept and none can be moved. Callers map it to their own
// limit error (a head or a trailer section too large).
var ErrFull = errors.New("connio: read buffer full")

// Reader is the buffered input of one connection. The bytes read from its
// source and not yet consumed are Buffered(); earlier bytes of the storage
// may still be aliased by the caller (a parsed head and its fields) and are
// moved only by Compact, or by Fill down to the keep offset it is given.
//
// The storage can be released while the connection is idle and no byte is
// buffered (Release), and handed over with the unread bytes when another
// owner takes the connection (Detach). A Reader is not safe for concurrent
// use.
type Reader struct {
	src    io.Reader
	buf    []byte
	r0, r1 int
}

// Reset makes r read from src into the storage buf (its length is the
// buffer size), with nothing buffered.
func (r *Reader) Reset(src io.Reader, buf []byte) {
	r.src, r.buf, r.r0, r.r1 = src, buf, 0, 0
}

// SetStorage gives r the storage buf while it has none (after Release).
func (r *Reader) SetStorage(buf []byte) { r.buf, r.r0, r.r1 = buf, 0, 0 }

// HasStorage reports whether r holds storage.
func (r *Reader) HasStorage() bool { return r.buf != nil }

// Release takes r's storage back for reuse, for a connection that waits
// with nothing buffered. It returns nil when bytes are buffered or r holds
// no storage: the storage stays with r.
func (r *Reader) Release() []byte {
	if r.r0 != r.r1 || r.buf == nil {
		return nil
	}
	b := r.buf
	r.buf, r.r0, r.r1 = nil, 0, 0
	return b
}

// Detach hands over the unread input for another owner of the connection
// (a hijack): it returns the buffered bytes, which the new owner keeps,
// and leaves r with no storage and nothing buffered.
func (r *Reader) Detach() []byte {
	p := r.buf[r.r0:r.r1:r.r1]
	r.buf, r.r0, r.r1 = nil, 0, 0
	return p
}

// Buffered returns the unread input. It aliases the storage and is valid
// until the next Fill, Compact or Consume.
func (r *Reader) Buffered() []byte { return r.buf[r.r0:r.r1] }

// Len returns the number of unread bytes.
func (r *Reader) Len() int { return r.r1 - r.r0 }

// Offset returns the offset in the storage of the first unread byte.
func (r *Reader) Offset() int { return r.r0 }

// Storage returns the storage up to the end of the unread input, so that a
// caller can keep slices of bytes it consumed: Storage()[a:b] for offsets
// a, b obtained from Offset.
func (r *Reader) Storage() []byte { return r.buf[:r.r1] }

// Consume marks the first n unread bytes as read.
func (r *Reader) Consume(n int) { r.r0 += n }

// Discard drops every unread byte.
func (r *Reader) Discard() { r.r0, r.r1 = 0, 0 }

// Compact prepares the storage for the next message when nothing before
// the unread input is aliased any more: an empty buffer starts over at
// offset 0, and unread bytes (a pipelined message) move to the front when
// less than half of the storage is free after them.
func (r *Reader) Compact() {
	switch {
	case r.r0 == r.r1:
		r.r0, r.r1 = 0, 0
	case r.r0 > 0 && len(r.buf)-r.r1 < len(r.buf)/2:
		r.r1 = copy(r.buf, r.buf[r.r0:r.r1])
		r.r0 = 0
	}
}

// Fill reads once from the source into the free space after the unread
// input. When there is none it makes room first: the unread bytes move
// down to offset keep (bytes before keep stay where they are) when they
// are past it, else the storage grows (at most doubling) up to limit bytes
// (the old storage is left to its aliases, not reused), else Fill returns
// ErrFull. A read of no bytes and no error is io.ErrNoProgress; the
// source's errors are returned as they are, with any bytes read before
// them buffered.
func (r *Reader) Fill(keep, limit int) error {
	if r.r1 == len(r.buf) {
		switch {
		case r.r0 > keep:
			r.r1 = keep + copy(r.buf[keep:], r.buf[r.r0:r.r1])
			r.r0 = keep
		case len(r.buf) < limit:
			nb := make([]byte, min(2*len(r.buf), limit))
			copy(nb, r.buf[:r.r1])
			r.buf = nb
		default:
			return ErrFull
		}
	}
	n, err := r.src.Read(r.buf[r.r1:])
	r.r1 += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// Read reads into p: the buffered input first; when nothing is buffered,
// straight from the source into p, so that a large body is not copied
// twice.
func (r *Reader) Read(p []byte) (int, error) {
	if r.r0 < r.r1 {
		n := copy(p, r.buf[r.r0:r.r1])
		r.r0 += n
		return n, nil
	}
	return r.src.Read(p)
}
