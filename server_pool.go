package brisk

import (
	"net"
	"sync"

	"github.com/brisk-http/brisk/wire"
)

// pools holds the Server's reusable per-connection resources. Read and
// write buffers are separate from connections so that an idle keep-alive
// connection can give its buffers back while it waits.
type pools struct {
	conns     sync.Pool // *conn, with its Ctx and field storage
	readBufs  sync.Pool // *buffer of len lim.readBufSize
	writeBufs sync.Pool // *buffer of cap lim.writeBufSize
	copyBufs  sync.Pool // *buffer of len copyBufSize (bodyReader.WriteTo)
	readSize  int
	writeSize int
	maxFields int
}

// buffer is a pooled byte slice (a pointer, so Put does not allocate). A
// read buffer also carries the parser's field storage, so that an idle
// connection holds neither.
type buffer struct {
	b        []byte
	fields   []wire.Field // head field storage, cap lim.maxFields
	trailers []wire.Field // trailer storage, allocated on first use
	iov      [2][]byte    // a write buffer's gathered write (conn.writev)
	iovs     net.Buffers
}

func (p *pools) init(l *limits) {
	p.readSize = l.readBufSize
	p.writeSize = l.writeBufSize
	p.maxFields = l.maxFields
}

func (p *pools) getConn(s *Server) *conn {
	if c, ok := p.conns.Get().(*conn); ok {
		return c
	}
	return newConn(s)
}

func (p *pools) putConn(c *conn) { p.conns.Put(c) }

// getReadBuf returns a buffer whose len is the read buffer size, with
// field storage.
func (p *pools) getReadBuf() *buffer {
	b, ok := p.readBufs.Get().(*buffer)
	if !ok {
		b = &buffer{fields: make([]wire.Field, p.maxFields)}
	}
	if b.b == nil {
		b.b = make([]byte, p.readSize)
	}
	return b
}

// putReadBuf recycles b; a byte slice grown for a large head or body is
// dropped, the field storage kept.
func (p *pools) putReadBuf(b *buffer) {
	if len(b.b) != p.readSize {
		b.b = nil
	}
	p.readBufs.Put(b)
}

// trailerStorage returns b's trailer field storage.
func (p *pools) trailerStorage(b *buffer) []wire.Field {
	if b.trailers == nil {
		b.trailers = make([]wire.Field, p.maxFields)
	}
	return b.trailers[:0]
}

// getWriteBuf returns an empty buffer of the write buffer's capacity.
func (p *pools) getWriteBuf() *buffer {
	if b, ok := p.writeBufs.Get().(*buffer); ok {
		return b
	}
	return &buffer{b: make([]byte, 0, p.writeSize)}
}

func (p *pools) putWriteBuf(b *buffer) {
	if cap(b.b) == p.writeSize {
		b.b = b.b[:0]
		p.writeBufs.Put(b)
	}
}

// copyBufSize is the size of bodyReader.WriteTo's buffer: a read of a
// large body from the socket costs a system call per buffer, and on
// loopback the kernel's work per call (a window update each) is most of
// the cost, so 64 KiB reads spend a fraction of the CPU of 8 KiB ones.
const copyBufSize = 64 << 10

// getCopyBuf returns a buffer of len copyBufSize.
func (p *pools) getCopyBuf() *buffer {
	if b, ok := p.copyBufs.Get().(*buffer); ok {
		return b
	}
	return &buffer{b: make([]byte, copyBufSize)}
}

func (p *pools) putCopyBuf(b *buffer) { p.copyBufs.Put(b) }
