package brisk

// source is the connection as the conn's input (conn.in) reads it. Every
// read flushes the pending responses first, so that a pipelining client
// waiting for them is never deadlocked; the bytes of a request body are
// read under its deadlines and rate (bodyReader.netRead), the others
// under the deadline set on the connection (conn.setReadTimeout). A byte
// the watcher read (watcher.held) comes first.
type source conn

// Read implements io.Reader.
func (s *source) Read(p []byte) (int, error) {
	c := (*conn)(s)
	if w := &c.watch; w.held && len(p) > 0 {
		w.held = false
		p[0] = w.b[0]
		return 1, nil
	}
	if err := c.flush(); err != nil {
		return 0, err
	}
	if c.body.reading {
		return c.body.netRead(p)
	}
	return c.nc.Read(p)
}
