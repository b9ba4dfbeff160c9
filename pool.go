package brisk

import "sync"

// pools holds the Server's reusable per-connection resources. Read and
// write buffers are separate from connections so that an idle keep-alive
// connection can give its buffers back while it waits.
type pools struct {
	conns     sync.Pool // *conn, with its Ctx and field storage
	readBufs  sync.Pool // *buffer of len lim.readBufSize
	writeBufs sync.Pool // *buffer of cap lim.writeBufSize
	readSize  int
	writeSize int
}

// buffer is a pooled byte slice (a pointer, so Put does not allocate).
type buffer struct{ b []byte }

func (p *pools) init(l *limits) {
	p.readSize = l.readBufSize
	p.writeSize = l.writeBufSize
}

func (p *pools) getConn(s *Server) *conn {
	if c, ok := p.conns.Get().(*conn); ok {
		return c
	}
	return newConn(s)
}

func (p *pools) putConn(c *conn) { p.conns.Put(c) }

// getReadBuf returns a buffer whose len is the read buffer size.
func (p *pools) getReadBuf() *buffer {
	if b, ok := p.readBufs.Get().(*buffer); ok {
		return b
	}
	return &buffer{b: make([]byte, p.readSize)}
}

// putReadBuf recycles b unless it was grown for a large head or body.
func (p *pools) putReadBuf(b *buffer) {
	if len(b.b) == p.readSize {
		p.readBufs.Put(b)
	}
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
