package brisk

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

// serveTLSRate serves h over TLS with the test certificate and
// MinResponseRate rate (bytes/s) after grace, and returns a connected
// client.
func serveTLSRate(t *testing.T, rate int, grace time.Duration, h Handler) (*tls.Conn, *bufio.Reader) {
	t.Helper()
	p := getPKI(t)
	s := &Server{MinResponseRate: rate, MinResponseRateGrace: grace, Handler: h,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}
	addr := serveTLS(t, s, "", "")
	tc, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	return tc, bufio.NewReader(tc)
}

// TestMinResponseRateTLSStall: over TLS, a client that takes nothing of
// a large buffered body for longer than the grace period (but less than
// the grace period of slack after it), then reads it at full speed, gets
// it whole, as on TCP. A *tls.Conn cannot resume a write that timed out,
// so the write must not time out while the client can still meet the
// rate.
func TestMinResponseRateTLSStall(t *testing.T) {
	const grace = 300 * time.Millisecond
	big := bytes.Repeat([]byte("0123456789abcdef"), 2<<20) // 32 MiB, more than socket buffers hold
	tc, br := serveTLSRate(t, testRate, grace, func(c *Ctx) { c.Response.SetBody(big) })
	if _, err := io.WriteString(tc, get("/")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(grace * 3 / 2) // the server's write blocks for more than grace
	resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != int64(len(big)) {
		t.Fatalf("read %d of %d bytes of body: %v", n, len(big), err)
	}
}

// TestMinResponseRateTLS: over TLS, writes to a client that reads
// nothing still fail with ErrResponseTooSlow, and the connection closes.
func TestMinResponseRateTLS(t *testing.T) {
	writeErr := make(chan error, 1)
	tc, br := serveTLSRate(t, 1<<20, testGrace, func(c *Ctx) {
		w := c.BodyWriter()
		chunk := make([]byte, 64<<10)
		var err error
		for i := 0; i < 1024 && err == nil; i++ { // up to 64 MiB
			_, err = w.Write(chunk)
		}
		writeErr <- err
	})
	if _, err := io.WriteString(tc, get("/")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-writeErr:
		if !errors.Is(err, ErrResponseTooSlow) {
			t.Fatalf("write error %v, want ErrResponseTooSlow", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's writes to a client that reads nothing did not fail within 5 s")
	}
	tc.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := io.Copy(io.Discard, br); isTimeout(err) {
		t.Fatal("connection still open 3 s after the write failed")
	}
}
