package brisk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

// readFull reads until want bytes arrived after the buffered ones, and
// returns buffered plus what was read.
func readFull(nc net.Conn, buffered []byte, want int) ([]byte, error) {
	nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	got := buffered
	for len(got) < want {
		b := make([]byte, want-len(got))
		n, err := nc.Read(b)
		got = append(got, b[:n]...)
		if err != nil {
			return got, err
		}
	}
	return got, nil
}

// hijackEcho is a handler that takes the connection over, reads the next
// n bytes of input (the buffered ones first) and writes them back after
// "owner:", then closes. Errors go to errs.
func hijackEcho(n int, errs chan<- error) Handler {
	return func(c *Ctx) {
		nc, buffered, err := c.Hijack()
		if err != nil {
			errs <- err
			return
		}
		defer nc.Close()
		got, err := readFull(nc, buffered, n)
		if err != nil {
			errs <- fmt.Errorf("owner read %q: %v", got, err)
			return
		}
		c.Response.SetBodyString("brisk must not send this")
		if _, _, err := c.Hijack(); !errors.Is(err, ErrHijacked) {
			errs <- fmt.Errorf("second Hijack: %v, want ErrHijacked", err)
		}
		nc.Write(append([]byte("owner:"), got...))
		errs <- nil
	}
}

// TestHijackBufferedBytes checks that the bytes after the hijacking
// request's head reach the new owner exactly (buffered first, then from
// the connection), that brisk writes nothing for the hijacked request, and
// that a response to an earlier pipelined request is sent before.
func TestHijackBufferedBytes(t *testing.T) {
	const pipelined = "GET /next HTTP/1.1\r\nHost: x\r\n\r\n"
	tests := []struct {
		name, send, before, owned string
	}{
		{"pipelined_request", "GET /up HTTP/1.1\r\nHost: x\r\n\r\n" + pipelined, "", pipelined},
		{"unread_body_then_request", "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + pipelined, "", "hello" + pipelined},
		{"after_pipelined_response", get("/first") + "GET /up HTTP/1.1\r\nHost: x\r\n\r\n" + pipelined,
			"HTTP/1.1 200 OK\r\nDate: D\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\n/first", pipelined},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				errs := make(chan error, 2)
				up := hijackEcho(len(tt.owned), errs)
				ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
					if string(c.Request.Path()) == "/up" {
						up(c)
						return
					}
					echoPath(c)
				}})
				c := ts.connect()
				c.send(tt.send)
				raw, err := io.ReadAll(c.br)
				if err != nil {
					t.Fatalf("reading until EOF: %v (got %q)", err, raw)
				}
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
				want := tt.before + "owner:" + tt.owned
				if got := noDate(string(raw)); got != want {
					t.Errorf("connection got\n%q\nwant\n%q", got, want)
				}
			})
		})
	}
}

// TestHijackShutdown checks that Shutdown neither waits for nor closes a
// hijacked connection by default, and closes it with CloseHijacked; and
// that the hijacked connection no longer counts for MaxConns.
func TestHijackShutdown(t *testing.T) {
	for _, closeHijacked := range []bool{false, true} {
		t.Run(fmt.Sprintf("CloseHijacked=%v", closeHijacked), func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				owned := make(chan net.Conn, 1)
				s := &Server{CloseHijacked: closeHijacked, MaxConns: 1, Handler: func(c *Ctx) {
					if string(c.Request.Path()) != "/up" {
						echoPath(c)
						return
					}
					nc, _, err := c.Hijack()
					if err != nil {
						t.Error(err)
						return
					}
					owned <- nc
				}}
				ts := startServer(t, tr, s)
				c := ts.connect()
				c.send(get("/up"))
				nc := <-owned
				defer nc.Close()

				other := ts.connect() // MaxConns 1: served only if the hijacked one was forgotten
				if resp, body := other.roundTrip(get("/other")); resp.StatusCode != 200 || body != "/other" {
					t.Fatalf("second connection: %d %q", resp.StatusCode, body)
				}
				other.nc.Close()

				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				start := time.Now()
				if err := s.Shutdown(ctx); err != nil {
					t.Fatalf("Shutdown with a hijacked connection: %v after %v", err, time.Since(start))
				}
				_, werr := nc.Write([]byte("still mine"))
				if closeHijacked {
					c.expectClosed()
					if werr == nil {
						t.Error("write after Shutdown closed the connection succeeded")
					}
					return
				}
				if werr != nil {
					t.Fatalf("owner write after Shutdown: %v", werr)
				}
				got, err := readFull(c.nc, nil, len("still mine"))
				if string(got) != "still mine" {
					t.Errorf("client read %q, %v after Shutdown", got, err)
				}
			})
		})
	}
}
