package hostile

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestNeverReads pipelines 64 requests for 1 MiB each and never reads:
// once the socket buffers are full the server's write blocks, and
// WriteTimeout (300 ms) must close the connection.
func TestNeverReads(t *testing.T) {
	checkLeaks(t)
	const writeTimeout = 300 * time.Millisecond
	addr, ln := startServer(t, &brisk.Server{WriteTimeout: writeTimeout})
	c := dial(t, addr)
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	start := time.Now()
	if _, err := c.Write(bytes.Repeat([]byte("GET /big?n=1048576 HTTP/1.1\r\nHost: a\r\n\r\n"), 64)); err != nil {
		t.Fatal(err)
	}
	deadline := start.Add(10 * time.Second)
	for ln.closed.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if ln.closed.Load() == 0 {
		t.Fatalf("server still holds the connection of a client that never reads, 10 s on (WriteTimeout %v)", writeTimeout)
	}
	took := ln.firstClose().Sub(start)
	t.Logf("server closed the non-reading connection %v after the requests (WriteTimeout %v)", took.Round(time.Millisecond), writeTimeout)
	if took < writeTimeout {
		t.Errorf("closed after %v, before WriteTimeout %v", took, writeTimeout)
	}
}
