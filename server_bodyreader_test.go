package brisk

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestBodyReaderEmptyRead checks that a Read into an empty slice reads
// nothing and fails nothing (io.Reader): the body is read whole after it.
func TestBodyReaderEmptyRead(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			r := c.Request.BodyReader()
			n0, err0 := r.Read(nil)
			b, err := io.ReadAll(r)
			fmt.Fprintf(&c.Response, "%d %v %q %v", n0, err0, b, err)
		}})
		c := ts.connect()
		for _, req := range []string{
			post("hello"),
			"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		} {
			if _, got := c.roundTrip(req); got != `0 <nil> "hello" <nil>` {
				t.Fatalf("got %s", got)
			}
		}
		c.expectOpen()
	})
}

// writerOnly hides a writer's ReadFrom: io.Copy then takes the body's
// WriteTo.
type writerOnly struct{ io.Writer }

// shortWriter accepts at most one byte a Write and reports no error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return min(len(p), 1), nil }

// TestBodyReaderWriteTo checks that io.Copy through the body's WriteTo
// gives the bytes Read gives, leaves a pipelined request after the body
// alone, keeps MaxBodyBytes (ErrBodyTooLarge, 413) and reports a short
// write as io.ErrShortWrite.
func TestBodyReaderWriteTo(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 20000) // 320,000 bytes: several WriteTo buffers
	chunked := func(s string) string {
		return "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
			fmt.Sprintf("%x\r\n%s\r\n", len(s), s) + "0\r\n\r\n"
	}
	cases := []struct {
		name, req, want string
	}{
		{"length", post("hello"), "hello"},
		{"length_large", post(big), big},
		{"chunked", chunked("hello"), "hello"},
		{"chunked_large", chunked(big), big},
		{"empty", get("/"), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				ts := startServer(t, tr, &Server{MaxBodyBytes: 1 << 20, Handler: func(c *Ctx) {
					var sb strings.Builder
					r := c.Request.BodyReader()
					if _, ok := r.(io.WriterTo); !ok {
						t.Errorf("BodyReader is no io.WriterTo")
					}
					n, err := io.Copy(writerOnly{&sb}, r)
					if err != nil || n != int64(sb.Len()) {
						c.Response.SetStatusCode(500)
						fmt.Fprintf(&c.Response, "%d %v", n, err)
						return
					}
					c.Response.WriteString(sb.String())
				}})
				c := ts.connect()
				c.send(tc.req + get("/next")) // pipelined: the next head must stay whole
				for i, want := range []string{tc.want, ""} {
					resp, body := c.read("POST")
					if resp.StatusCode != 200 || body != want {
						t.Fatalf("response %d: got %d, %d bytes (%.40q), want %d bytes", i, resp.StatusCode, len(body), body, len(want))
					}
				}
			})
		})
	}
	t.Run("too_large", func(t *testing.T) {
		ts := startServer(t, "tcp", &Server{MaxBodyBytes: 100, Handler: func(c *Ctx) {
			_, err := io.Copy(writerOnly{io.Discard}, c.Request.BodyReader())
			if !errors.Is(err, ErrBodyTooLarge) {
				t.Errorf("io.Copy: %v, want ErrBodyTooLarge", err)
			}
		}})
		c := ts.connect()
		resp, _ := c.roundTrip(chunked(strings.Repeat("y", 101)))
		if resp.StatusCode != 413 {
			t.Fatalf("status %d, want 413", resp.StatusCode)
		}
		c.expectClosed()
	})
	t.Run("short_write", func(t *testing.T) {
		ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
			n, err := c.Request.BodyReader().(io.WriterTo).WriteTo(shortWriter{})
			fmt.Fprintf(&c.Response, "%d %v", n, err)
		}})
		c := ts.connect()
		if _, got := c.roundTrip(post("hello")); got != "1 short write" {
			t.Fatalf("got %q, want %q", got, "1 short write")
		}
	})
}
