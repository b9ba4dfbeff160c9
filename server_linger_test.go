package brisk

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestLingerDeliversEarlyError uploads a body over MaxBodyBytes (8 MiB
// declared, 4 MiB allowed) from a goroutine that writes it whole, and
// reads the response only once the upload is under way, like a client
// busy sending. The server answers 413 without reading the body; a plain
// close would find the upload unread and reset the connection, which can
// destroy the response before the client reads it. The lingering close
// must deliver the 413 every time (20 rounds on TCP loopback). Linux keeps
// received bytes readable after a reset, so there this passes with a plain
// close too; TestLingerDeliversLargeResponse is the case it does not.
func TestLingerDeliversEarlyError(t *testing.T) {
	const bodySize = 8 << 20
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) { c.Response.SetBodyString("ok") }})
	body := bytes.Repeat([]byte("u"), bodySize)
	head := "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: " + strconv.Itoa(bodySize) + "\r\n\r\n"
	for round := range 20 {
		nc, err := ts.dial()
		if err != nil {
			t.Fatal(err)
		}
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		started := make(chan struct{})
		wrote := make(chan error, 1)
		go func() {
			_, err := nc.Write([]byte(head))
			close(started)
			if err == nil {
				_, err = nc.Write(body)
			}
			wrote <- err
		}()
		<-started
		time.Sleep(20 * time.Millisecond) // the client is busy uploading
		resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: "POST"})
		if err != nil {
			nc.Close()
			<-wrote
			t.Fatalf("round %d: no response: %v", round, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		nc.Close()
		<-wrote
		if resp.StatusCode != 413 || !resp.Close {
			t.Fatalf("round %d: status %d, close %v; want 413 and close", round, resp.StatusCode, resp.Close)
		}
	}
}

// TestLingerDeliversLargeResponse has a handler answer an upload it does
// not read with a large response and "Connection: close": the server
// closes with the upload unread while the response is still in its send
// queue. A plain close then resets the connection and the kernel drops the
// queued response; the lingering close must deliver all of it.
func TestLingerDeliversLargeResponse(t *testing.T) {
	const upload, respSize = 1 << 20, 8 << 20 // upload over maxDrainBytes: left unread
	big := bytes.Repeat([]byte("r"), respSize)
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		c.Response.Header.Set("Connection", "close")
		c.Response.SetBody(big)
	}})
	body := bytes.Repeat([]byte("u"), upload)
	head := "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: " + strconv.Itoa(upload) + "\r\n\r\n"
	for round := range 5 {
		nc, err := ts.dial()
		if err != nil {
			t.Fatal(err)
		}
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		wrote := make(chan error, 1)
		go func() {
			_, err := nc.Write(append([]byte(head), body...))
			wrote <- err
		}()
		time.Sleep(50 * time.Millisecond) // the response fills the socket buffers
		resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: "POST"})
		if err != nil {
			nc.Close()
			<-wrote
			t.Fatalf("round %d: no response: %v", round, err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		nc.Close()
		<-wrote
		if resp.StatusCode != 200 || n != respSize || err != nil {
			t.Fatalf("round %d: status %d, read %d of %d body bytes (%v)", round, resp.StatusCode, n, respSize, err)
		}
	}
}

// TestLingerBounded checks that lingering ends within about lingerTimeout
// when the client keeps the connection open without sending, and that a
// client which reads the response and closes ends it at once: Shutdown is
// never held long.
func TestLingerBounded(t *testing.T) {
	ts := startServer(t, "tcp", &Server{})
	c := ts.connect()
	c.sendSync("GET / HTTP/1.1\r\nHost: a\r\nX-Bad : v\r\n\r\n") // 400, close
	resp, _ := c.read("GET")
	if resp.StatusCode != 400 {
		t.Fatalf("status %d, want 400", resp.StatusCode)
	}
	// The server half-closed: the client sees EOF at once, while its side
	// is still open.
	start := time.Now()
	if _, err := c.br.ReadByte(); err != io.EOF {
		t.Fatalf("after the error response: %v, want EOF from the half-close", err)
	}
	if took := time.Since(start); took > lingerTimeout/2 {
		t.Errorf("EOF after %v, want it at once (half-close before lingering)", took)
	}
	// The client keeps writing; the server discards and closes by
	// lingerTimeout, which a write then reports (reset or broken pipe).
	deadline := time.Now().Add(lingerTimeout + 2*time.Second)
	var werr error
	for werr == nil && time.Now().Before(deadline) {
		_, werr = c.nc.Write([]byte("x"))
		time.Sleep(10 * time.Millisecond)
	}
	if werr == nil {
		t.Fatalf("connection still open %v after the error response, want closed after lingerTimeout (%v)",
			lingerTimeout+2*time.Second, lingerTimeout)
	}
	if took := time.Since(start); took < lingerTimeout/2 {
		t.Errorf("closed after %v, before lingering for lingerTimeout (%v)", took, lingerTimeout)
	}
}
