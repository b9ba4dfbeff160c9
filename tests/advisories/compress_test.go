package advisories

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
)

// TestCWE409_RequestDecompressionBomb: a request body of 100 MiB of
// zeros in gzip (about 100 KiB on the wire), decoded with
// compress.BodyReader under a 1 MiB limit: the read fails with
// ErrDecodedTooLarge having produced at most the limit, and the handler
// answers 413 (compress.Status).
func TestCWE409_RequestDecompressionBomb(t *testing.T) {
	zbuf := gzipBomb()
	decoded := make(chan int64, 1)
	addr, _ := serve(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		r, err := compress.BodyReader(c, 1<<20)
		if err == nil {
			var n int64
			n, err = io.Copy(io.Discard, r)
			r.Close()
			decoded <- n
		}
		if !errors.Is(err, compress.ErrDecodedTooLarge) {
			t.Errorf("error %v, want ErrDecodedTooLarge", err)
		}
		c.Response.SetStatusCode(compress.Status(err))
	}})
	a := exchange(t, addr, fmt.Sprintf("POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", len(zbuf), zbuf))
	if a.status != 413 {
		t.Errorf("status %d, want 413", a.status)
	}
	if n := <-decoded; n > 1<<20 {
		t.Errorf("decoded %d bytes, want <= 1 MiB", n)
	}
}
