package brisk

import (
	"bytes"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// TestLargeWritesGoStraightOut checks that a body part larger than the
// write buffer is written from the caller's storage, not copied through
// the buffer one buffer-full at a time: a 64 KiB BodyWriter.Write and a 64
// KiB buffered body each take at most three writes (head and buffered
// bytes, the part, the rest), where 4 KiB buffer-fulls would take 17.
func TestLargeWritesGoStraightOut(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 64<<10)
	for name, h := range map[string]Handler{
		"streamed": func(c *Ctx) {
			c.Response.Header.Set("Content-Length", "65536")
			c.BodyWriter().Write(big)
		},
		"buffered": func(c *Ctx) { c.Response.SetBody(big) },
	} {
		t.Run(name, func(t *testing.T) {
			ln := fakenet.NewListener()
			s := &Server{Handler: h}
			go s.Serve(ln)
			defer s.Shutdown(t.Context())
			req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			c := fakenet.NewConn(fakenet.Batch(req, 1), len(req), 1)
			ln.Push(c)
			<-c.Done()
			if c.Written() < len(big) || c.Writes() > 3 {
				t.Errorf("%d bytes in %d writes; want the 64 KiB body in at most 3", c.Written(), c.Writes())
			}
		})
	}
}
