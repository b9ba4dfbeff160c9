package brisk

import (
	"io"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// stepConn serves one request per step for allocation tests: Read waits
// for a step, Write reports the response bytes.
type stepConn struct {
	*fakenet.Conn // Close, addresses, deadlines
	req           []byte
	in            chan struct{}
	out           chan int
	done          chan struct{}
}

func newStepConn(req []byte) *stepConn {
	return &stepConn{req: req, in: make(chan struct{}), out: make(chan int, 1), done: make(chan struct{}),
		Conn: fakenet.NewConn(nil, 1, 0)}
}

func (c *stepConn) Read(p []byte) (int, error) {
	select {
	case <-c.in:
		return copy(p, c.req), nil
	case <-c.done:
		return 0, io.EOF
	}
}

func (c *stepConn) Write(p []byte) (int, error) {
	c.out <- len(p)
	return len(p), nil
}
