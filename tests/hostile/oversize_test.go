package hostile

import (
	"bufio"
	"bytes"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
)

const (
	floodCap    = 16 << 20  // bytes an oversize attacker writes at most
	readSlack   = 128 << 10 // bytes the server may read past the limit (buffering)
	testBodyMax = 64 << 10  // MaxBodyBytes in these tests
)

// TestOversized streams an endless oversized element (up to 16 MiB) and
// requires the right status, a closed connection, and that the server read
// at most the relevant limit plus 128 KiB of buffering.
func TestOversized(t *testing.T) {
	const chunkedHead = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
	tests := []struct {
		name           string
		prefix, filler string
		status         []int
		limit          int // the limit that must stop the read, in bytes
	}{
		{"request_line", "GET /", "a", []int{414}, brisk.DefaultMaxRequestLineBytes},
		{"field_value", "GET / HTTP/1.1\r\nHost: a\r\nX-Big: ", "a", []int{431}, brisk.DefaultMaxHeaderBytes},
		{"field_count", "GET / HTTP/1.1\r\nHost: a\r\n", "X-F: v\r\n", []int{431}, brisk.DefaultMaxHeaderBytes},
		{"body_declared", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1099511627776\r\n\r\n", "a", []int{413}, 0},
		{"body_chunked", chunkedHead, "4000\r\n" + string(bytes.Repeat([]byte("b"), 0x4000)) + "\r\n", []int{413}, testBodyMax},
		{"chunk_ext", chunkedHead + "1;", "a=b;", []int{400}, wire.DefaultMaxExtensionBytes},
		// One-byte chunks cost 5 framing bytes each, within the decoder's
		// overhead ratio (16, see wire.ChunkedDecoder.MaxOverheadBytes):
		// the body limit stops them, so the server reads up to (1+16)
		// times MaxBodyBytes.
		{"chunk_tiny", chunkedHead, "1\r\nX\r\n", []int{413}, (1 + 16) * testBodyMax},
		// Long extensions on one-byte chunks break the ratio at once.
		{"chunk_ext_ratio", chunkedHead, "1;a=" + string(bytes.Repeat([]byte("e"), 1000)) + "\r\nX\r\n", []int{400}, wire.DefaultMaxOverheadBytes},
		// The server bounds the trailer section by MaxHeaderBytes (its
		// read buffer doubles up to it, so it may read about twice that).
		{"trailer_value", chunkedHead + "1\r\nX\r\n0\r\nT: ", "a", []int{431}, brisk.DefaultMaxHeaderBytes},
		{"trailer_count", chunkedHead + "1\r\nX\r\n0\r\n", "T: v\r\n", []int{431, 400}, brisk.DefaultMaxHeaderBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			addr, ln := startServer(t, &brisk.Server{MaxBodyBytes: testBodyMax})
			c := dial(t, addr)
			defer c.Close()
			written := make(chan int64, 1)
			go func() { written <- flood(c, tt.prefix, tt.filler) }()

			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			br := bufio.NewReader(c)
			resp, _, err := readResponse(br, "GET")
			switch {
			case err != nil:
				t.Errorf("no readable response: %v", err)
			case !slices.Contains(tt.status, resp.StatusCode):
				t.Errorf("status %d, want %v", resp.StatusCode, tt.status)
			}
			if _, err := br.ReadByte(); err == nil {
				t.Errorf("connection left open after the error response")
			}
			c.Close()
			sent := <-written
			for deadline := time.Now().Add(2 * time.Second); ln.closed.Load() == 0 && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			read := ln.bytesRead.Load()
			t.Logf("client wrote %d KiB, server read %d KiB (limit %d KiB)", sent>>10, read>>10, tt.limit>>10)
			if read > int64(tt.limit+readSlack) {
				t.Errorf("server read %d bytes, want <= limit %d + %d", read, tt.limit, readSlack)
			}
		})
	}
}

// flood writes prefix, then filler repeatedly, until floodCap bytes or a
// write error (the server closed), and returns the bytes written.
func flood(c net.Conn, prefix, filler string) int64 {
	block := []byte(prefix)
	for len(block) < 16<<10 {
		block = append(block, filler...)
	}
	rest := block[len(prefix):]
	rest = rest[:len(rest)/len(filler)*len(filler)] // whole fillers only
	var n int64
	for n < floodCap {
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		w, err := c.Write(block)
		n += int64(w)
		if err != nil {
			break
		}
		block = rest
	}
	return n
}
