package reverseproxy

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// upgradeThrough starts a Proxy in front of echoUpgrade on a Server with
// CloseHijacked as asked, and returns the Server, the client's upgraded
// connection (past "hi>") and its reader.
func upgradeThrough(t *testing.T, closeHijacked bool, p *Proxy) (*brisk.Server, net.Conn, *bufio.Reader) {
	t.Helper()
	p.Upstreams = []string{backend(t, echoUpgrade)}
	t.Cleanup(p.CloseIdleConnections)
	srv := testserver.Quiet(&brisk.Server{Handler: p.Serve, CloseHijacked: closeHijacked})
	c := dial(t, testserver.Start(t, srv))
	io.WriteString(c, "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 101 {
		t.Fatalf("response %v (%v)", resp, err)
	}
	hi := make([]byte, 3)
	if _, err := io.ReadFull(br, hi); err != nil || string(hi) != "hi>" {
		t.Fatalf("greeting %q (%v)", hi, err)
	}
	return srv, c, br
}

// TestTunnelEcho: through the tunnel, with the client's connection as
// the Server hands it (a TCP connection, or a wrapper with
// CloseHijacked), small messages one at a time and 3 MiB written while
// the echo is read (reads that fill the copy buffer) arrive whole and in
// order; a half-close after data ends both directions.
func TestTunnelEcho(t *testing.T) {
	for _, closeHijacked := range []bool{false, true} {
		name := "plain"
		if closeHijacked {
			name = "close_hijacked"
		}
		t.Run(name, func(t *testing.T) {
			p := &Proxy{}
			record := records(t, p)
			_, c, br := upgradeThrough(t, closeHijacked, p)
			buf := make([]byte, 64)
			for i := range 200 {
				msg := []byte{'m', byte('a' + i%26), '\n'}
				c.Write(msg)
				if _, err := io.ReadFull(br, buf[:3]); err != nil || !bytes.Equal(buf[:3], msg) {
					t.Fatalf("message %d: %q (%v)", i, buf[:3], err)
				}
			}
			big := bytes.Repeat([]byte("0123456789abcdef"), 3<<16)
			go func() {
				c.Write(big)
				io.WriteString(c, "end")
				c.(*net.TCPConn).CloseWrite()
			}()
			got, err := io.ReadAll(br)
			if err != nil || len(got) != len(big)+3 || !bytes.Equal(got[:len(big)], big) || string(got[len(big):]) != "end" {
				t.Errorf("echoed %d bytes (%v), want %d", len(got), err, len(big)+3)
			}
			if rec := record(1); !rec.Upgraded || rec.Err != nil {
				t.Errorf("record %+v", rec)
			}
		})
	}
}

// TestTunnelShutdown: Shutdown of a Server with CloseHijacked closes a
// tunnel in progress on both sides.
func TestTunnelShutdown(t *testing.T) {
	p := &Proxy{}
	record := records(t, p)
	srv, _, br := upgradeThrough(t, true, p)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	start := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := br.Read(make([]byte, 1)); err == nil || time.Since(start) > testTimeout/2 {
		t.Errorf("read %d bytes (%v) after %v", n, err, time.Since(start))
	}
	if rec := record(1); !rec.Upgraded {
		t.Errorf("record %+v", rec)
	}
}
