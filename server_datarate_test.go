package brisk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Rates for the tests: small graces so that a cut comes within
// milliseconds; the clients under test are many times slower or faster
// than the rate, so that a loaded machine cannot change the outcome.
const (
	testRate  = 1000 // bytes per second
	testGrace = 50 * time.Millisecond
)

const status408 = "HTTP/1.1 408 Request Timeout\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Content-Length: 16\r\nConnection: close\r\n\r\nRequest Timeout\n"

// TestMinRequestBodyRate: a body that stalls, or trickles a byte every
// 20 ms (50 bytes/s against 1000), is answered 408 and the connection
// closed, for a Content-Length and a chunked body.
func TestMinRequestBodyRate(t *testing.T) {
	cases := []struct {
		name, head, first, trickle string
	}{
		{"length_stalled", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", "a", ""},
		{"length_trickle", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", "a", "b"},
		{"chunked_stalled", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", "64\r\na", ""},
		{"chunked_trickle", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", "64\r\na", "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				bodyErr := make(chan error, 1)
				ts := startServer(t, tr, &Server{
					MinRequestBodyRate: testRate, MinRequestBodyRateGrace: testGrace,
					Handler: func(c *Ctx) {
						_, err := c.Request.Body()
						bodyErr <- err
					},
				})
				c := ts.connect()
				c.sendSync(tc.head + tc.first)
				stop := make(chan struct{})
				defer close(stop)
				if tc.trickle != "" {
					go func() {
						for range 99 {
							select {
							case <-stop:
								return
							case <-time.After(20 * time.Millisecond):
							}
							if _, err := c.nc.Write([]byte(tc.trickle)); err != nil {
								return
							}
						}
					}()
				}
				if got := c.readUntilClose(); got != status408 {
					t.Fatalf("got\n%q\nwant\n%q", got, status408)
				}
				if err := <-bodyErr; !errors.Is(err, ErrBodyTooSlow) || ErrorStatus(err) != 408 {
					t.Errorf("Body error %v (status %d), want ErrBodyTooSlow (408)", err, ErrorStatus(err))
				}
			})
		})
	}
}

// TestMinRequestBodyRateHandlerTime: the handler's own time between reads
// does not count against the client: a handler that sleeps well past the
// grace period between two reads gets the whole body.
func TestMinRequestBodyRateHandlerTime(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{
			MinRequestBodyRate: testRate, MinRequestBodyRateGrace: testGrace,
			Handler: func(c *Ctx) {
				r := c.Request.BodyReader()
				var got []byte
				buf := make([]byte, 15)
				for {
					n, err := r.Read(buf)
					got = append(got, buf[:n]...)
					if err == io.EOF {
						break
					}
					if err != nil {
						c.Response.SetStatusCode(599)
						c.Response.SetBodyString(err.Error())
						return
					}
					time.Sleep(4 * testGrace)
				}
				c.Response.SetBody(got)
			},
		})
		c := ts.connect()
		body := strings.Repeat("x", 30)
		resp, got := c.roundTrip("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 30\r\n\r\n" + body)
		if resp.StatusCode != 200 || got != body {
			t.Fatalf("got %d %q", resp.StatusCode, got)
		}
		c.expectOpen()
	})
}

// TestMinRequestBodyRateFastEnough: a body sent in pieces over several
// grace periods, at ten times the rate, is read whole.
func TestMinRequestBodyRateFastEnough(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{
			MinRequestBodyRate: testRate, MinRequestBodyRateGrace: testGrace,
			Handler: func(c *Ctx) {
				b, err := c.Request.Body()
				if err != nil {
					c.Response.SetStatusCode(599)
					return
				}
				c.Response.SetBody(b)
			},
		})
		c := ts.connect()
		const pieces, size = 20, 100 // 100 bytes per 10 ms: 10,000 bytes/s
		c.sendSync("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n")
		go func() {
			for range pieces {
				time.Sleep(10 * time.Millisecond)
				c.nc.Write(bytes.Repeat([]byte("y"), size))
			}
		}()
		resp, got := c.read("POST")
		if resp.StatusCode != 200 || got != strings.Repeat("y", pieces*size) {
			t.Fatalf("got %d, %d bytes", resp.StatusCode, len(got))
		}
	})
}

// TestMinResponseRate: a client that stops reading is cut by the rate:
// the handler's write fails with ErrResponseTooSlow and the connection
// closes.
func TestMinResponseRate(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		writeErr := make(chan error, 1)
		ts := startServer(t, tr, &Server{
			MinResponseRate: testRate, MinResponseRateGrace: testGrace,
			Handler: func(c *Ctx) {
				w := c.BodyWriter()
				chunk := make([]byte, 64<<10)
				var err error
				for i := 0; i < 1024 && err == nil; i++ { // up to 64 MiB, more than socket buffers hold
					_, err = w.Write(chunk)
				}
				writeErr <- err
			},
		})
		c := ts.connect()
		c.sendSync(get("/"))
		select {
		case err := <-writeErr:
			if !errors.Is(err, ErrResponseTooSlow) {
				t.Fatalf("write error %v, want ErrResponseTooSlow", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the handler's writes to a client that reads nothing did not fail within 5 s")
		}
		c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
		if _, err := io.Copy(io.Discard, c.br); isTimeout(err) {
			t.Fatal("connection still open 3 s after the write failed")
		}
	})
}

// TestMinResponseRateSendfile: a file body sent by sendfile (TCP, larger
// than the write buffer) to a client that reads nothing fails with
// ErrResponseTooSlow after the grace period, as buffered writes do, and
// the connection is closed.
func TestMinResponseRateSendfile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	const size = 256 << 20 // more than loopback socket buffers hold
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	writeErr := make(chan error, 1)
	ts := startServer(t, "tcp", &Server{
		MinResponseRate: testRate, MinResponseRateGrace: testGrace,
		Handler: func(c *Ctx) {
			f, err := os.Open(name)
			if err != nil {
				writeErr <- err
				return
			}
			defer f.Close()
			c.Response.Header.Set("Content-Length", strconv.Itoa(size))
			_, err = c.BodyWriter().ReadFrom(f)
			writeErr <- err
		},
	})
	c := ts.connect()
	c.sendSync(get("/"))
	select {
	case err := <-writeErr:
		if !errors.Is(err, ErrResponseTooSlow) {
			t.Fatalf("ReadFrom error %v, want ErrResponseTooSlow", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("sendfile to a client that reads nothing did not fail within 5 s")
	}
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := io.Copy(io.Discard, c.br); isTimeout(err) {
		t.Fatal("connection still open 3 s after the write failed")
	}
}

// TestMinResponseRateSendfileSlowReader: a client reading a file sent by
// sendfile slowly but far above the rate gets it whole, over many grace
// periods.
func TestMinResponseRateSendfileSlowReader(t *testing.T) {
	const size = 16 << 20
	name := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(name, bytes.Repeat([]byte("0123456789abcdef"), size/16), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, "tcp", &Server{
		MinResponseRate: testRate, MinResponseRateGrace: testGrace,
		Handler: func(c *Ctx) {
			f, err := os.Open(name)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			c.Response.Header.Set("Content-Length", strconv.Itoa(size))
			if _, err := c.BodyWriter().ReadFrom(f); err != nil {
				t.Errorf("ReadFrom: %v", err)
			}
		},
	})
	c := ts.connect()
	c.sendSync(get("/"))
	n, err := readSlowly(c, 64<<10, 3*time.Millisecond) // about 20 MB/s
	if err != nil || n != size {
		t.Fatalf("read %d of %d bytes of body: %v", n, size, err)
	}
}

// TestMinResponseRateSlowReader: a client that reads slowly but far above
// the rate gets a large buffered body whole, though it takes many grace
// periods: the body is cut by rate, never by a deadline on the write. It
// runs in memory, where the connection buffers 64 KiB each way; loopback
// TCP would buffer the whole body.
func TestMinResponseRateSlowReader(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 16<<10) // 256 KiB, one write
	{
		tr := "inmemory"
		ts := startServer(t, tr, &Server{
			MinResponseRate: testRate, MinResponseRateGrace: testGrace,
			Handler: func(c *Ctx) { c.Response.SetBody(big) },
		})
		c := ts.connect()
		c.sendSync(get("/"))
		resp, err := readSlowly(c, 4<<10, 5*time.Millisecond) // about 800 KB/s
		if err != nil || resp != len(big) {
			t.Fatalf("read %d of %d bytes of body: %v", resp, len(big), err)
		}
	}
}

// readSlowly reads a response to GET n bytes at a time, pausing between
// reads, and returns its body's length. Only the head is kept: the body
// is counted.
func readSlowly(c *client, n int, pause time.Duration) (int, error) {
	buf := make([]byte, n)
	var head []byte
	body, length := 0, -1
	for {
		k, err := c.br.Read(buf)
		if length < 0 {
			head = append(head, buf[:k]...)
			if i := bytes.Index(head, []byte("\r\n\r\n")); i >= 0 {
				_, cl, _ := strings.Cut(string(head[:i]), "Content-Length: ")
				cl, _, _ = strings.Cut(cl, "\r\n")
				body, length = len(head)-i-4, atoiOr(cl, -1)
				if length < 0 {
					return 0, fmt.Errorf("no Content-Length in %q", head[:i])
				}
			}
		} else {
			body += k
		}
		if length >= 0 && body >= length {
			return body, nil
		}
		if err != nil {
			return body, err
		}
		time.Sleep(pause)
	}
}

func atoiOr(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return def
		}
		n = n*10 + int(ch-'0')
	}
	return n
}

// TestMinRateDefaults: zero fields mean the documented defaults, a
// negative rate or grace disables a rule.
func TestMinRateDefaults(t *testing.T) {
	var s Server
	l := s.resolveLimits()
	want := minRate{perSec: 240, grace: 5 * time.Second}
	if l.bodyRate != want || l.respRate != want {
		t.Errorf("defaults: body %+v, response %+v, want %+v", l.bodyRate, l.respRate, want)
	}
	for i, s := range []*Server{
		{MinRequestBodyRate: -1, MinResponseRate: -1},
		{MinRequestBodyRateGrace: -1, MinResponseRateGrace: -1},
	} {
		if l := s.resolveLimits(); l.bodyRate.on() || l.respRate.on() {
			t.Errorf("case %d: rates %+v %+v, want disabled", i, l.bodyRate, l.respRate)
		}
	}
	s = Server{MinRequestBodyRate: 10, MinResponseRateGrace: time.Second}
	if l := s.resolveLimits(); l.bodyRate != (minRate{10, 5 * time.Second}) || l.respRate != (minRate{240, time.Second}) {
		t.Errorf("set: %+v %+v", l.bodyRate, l.respRate)
	}
}
