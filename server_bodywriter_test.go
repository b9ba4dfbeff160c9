package brisk

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// TestBodyWriterReadFromN: ReadFromN sends n bytes of r from its offset
// and leaves r just past them, by sendfile (a file on TCP, larger than
// the write buffer), through the write buffer (a small section, a
// strings.Reader in memory) and in chunks (no Content-Length); a negative
// n copies nothing.
func TestBodyWriterReadFromN(t *testing.T) {
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i*7 + i>>11)
	}
	name := filepath.Join(t.TempDir(), "f.bin")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, transport string
		file            bool
		off, n          int64
		length          bool // set Content-Length
		want            []byte
	}{
		{"sendfile", "tcp", true, 1000, 300000, true, data[1000:301000]},
		{"file_small", "tcp", true, 7, 100, true, data[7:107]},
		{"file_inmemory", "inmemory", true, 5000, 200000, true, data[5000:205000]},
		{"reader", "inmemory", false, 10, 50000, true, data[10:50010]},
		{"chunked", "tcp", true, 3, 70000, false, data[3:70003]},
		{"past_end", "inmemory", false, 1<<20 - 4, 10, false, data[1<<20-4:]},
		{"negative", "inmemory", false, 0, -1, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, tc.transport, &Server{Handler: func(c *Ctx) {
				var r io.ReadSeeker = bytes.NewReader(data)
				if tc.file {
					f, err := os.Open(name)
					if err != nil {
						t.Error(err)
						return
					}
					defer f.Close()
					r = f
				}
				r.Seek(tc.off, io.SeekStart)
				if tc.length {
					c.Response.Header.Set("Content-Length", strconv.FormatInt(tc.n, 10))
				}
				n, err := c.BodyWriter().ReadFromN(r, tc.n)
				pos, _ := r.Seek(0, io.SeekCurrent)
				if err != nil || n != int64(len(tc.want)) || pos != tc.off+n {
					t.Errorf("ReadFromN: %d, %v, offset %d after; want %d, nil, %d", n, err, pos, len(tc.want), tc.off+int64(len(tc.want)))
				}
			}})
			resp, body := ts.connect().roundTrip(get("/"))
			if resp.StatusCode != 200 || body != string(tc.want) {
				t.Fatalf("status %d, %d bytes; want 200, %d bytes", resp.StatusCode, len(body), len(tc.want))
			}
		})
	}
}
