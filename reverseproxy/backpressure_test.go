package reverseproxy

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// inFlightLimit bounds the bytes a stalled stream may have in flight
// through the proxy: the loopback sockets' buffers on both sides and the
// Proxy's 64 KiB, far below the 256 MiB the producer would send.
const inFlightLimit = 64 << 20

// TestProxyBackpressureResponse: a client that stops reading holds the
// upstream back: the proxy does not read the response body ahead of it.
func TestProxyBackpressureResponse(t *testing.T) {
	var written atomic.Int64
	block := strings.Repeat("x", 64<<10)
	up := backend(t, func(c *brisk.Ctx) {
		w := c.BodyWriter()
		for written.Load() < 256<<20 {
			if _, err := w.WriteString(block); err != nil {
				return
			}
			written.Add(int64(len(block)))
		}
	})
	c := dial(t, front(t, &Proxy{Upstreams: []string{up}}))
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(io.Discard, resp.Body, 1<<20); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the upstream writes until the buffers are full
	n := written.Load()
	time.Sleep(200 * time.Millisecond)
	if m := written.Load(); n > inFlightLimit || m != n {
		t.Errorf("the upstream wrote %d MiB, then %d MiB, while the client read 1 MiB", n>>20, m>>20)
	}
}

// TestProxyBackpressureRequest: an upstream that stops reading holds the
// client back: the proxy does not read the request body ahead of it.
func TestProxyBackpressureRequest(t *testing.T) {
	up := backend(t, func(c *brisk.Ctx) {
		io.CopyN(io.Discard, c.Request.BodyReader(), 1<<20)
		time.Sleep(time.Second)
	})
	c := dial(t, front(t, &Proxy{Upstreams: []string{up}}))
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
	chunk := "10000\r\n" + strings.Repeat("y", 64<<10) + "\r\n"
	var sent int64
	var err error
	c.SetWriteDeadline(time.Now().Add(500 * time.Millisecond))
	for sent < 256<<20 && err == nil {
		var n int
		n, err = io.WriteString(c, chunk)
		sent += int64(n)
	}
	if ne, ok := err.(net.Error); !ok || !ne.Timeout() || sent > inFlightLimit {
		t.Errorf("the client sent %d MiB (%v) while the upstream read 1 MiB, want blocked", sent>>20, err)
	}
}
