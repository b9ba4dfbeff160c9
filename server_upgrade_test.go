package brisk

import (
	"errors"
	"io"
	"testing"
)

// TestUpgrade checks the 101 head Upgrade writes (exact bytes, Date
// removed), that the bytes after it belong to the new owner, and that a
// request not offering the protocol, or a switch too late, fails with the
// exact error and leaves the connection to brisk's normal response.
func TestUpgrade(t *testing.T) {
	const offer = "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\nUpgrade: h2c, WebSocket\r\n"
	tests := []struct {
		name    string
		request string
		read    bool  // read the body before switching
		err     error // want from Upgrade
		want    string
	}{
		{"websocket", offer + "\r\nfirst frame", false, nil,
			"HTTP/1.1 101 Switching Protocols\r\nDate: D\r\nX-Kept: 1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nowner:first frame"},
		{"body_read_first", "POST /ws HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\nContent-Length: 2\r\n\r\nhifirst frame", true, nil,
			"HTTP/1.1 101 Switching Protocols\r\nDate: D\r\nX-Kept: 1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nowner:first frame"},
		{"body_unread", "POST /ws HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\nContent-Length: 2\r\n\r\nhi", false, ErrSwitchState,
			"HTTP/1.1 426 Upgrade Required\r\nDate: D\r\nX-Kept: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
		{"no_connection_option", "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: close\r\n\r\n", false, ErrNoUpgrade,
			"HTTP/1.1 426 Upgrade Required\r\nDate: D\r\nX-Kept: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
		{"other_protocol", "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: h2c\r\nConnection: close\r\n\r\n", false, ErrNoUpgrade,
			"HTTP/1.1 426 Upgrade Required\r\nDate: D\r\nX-Kept: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
		{"http10_ignored", "GET /ws HTTP/1.0\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n", false, ErrNoUpgrade,
			"HTTP/1.1 426 Upgrade Required\r\nDate: D\r\nX-Kept: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				errs := make(chan error, 1)
				ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
					c.Response.Header.Set("X-Kept", "1")
					c.Response.Header.Set("Connection", "close") // managed: dropped from a 101
					c.Response.Header.Set("Content-Length", "9")
					if tt.read {
						c.Request.Body()
					}
					nc, buffered, err := c.Upgrade("websocket")
					errs <- err
					if err != nil {
						c.Response.Header.Del("Content-Length")
						c.Response.SetStatusCode(426)
						return
					}
					defer nc.Close()
					got, _ := readFull(nc, buffered, len("first frame"))
					nc.Write(append([]byte("owner:"), got...))
				}})
				checkSwitch(t, ts, tt.request, "Upgrade", errs, tt.err, tt.want)
			})
		})
	}
}

// TestTunnel checks that Tunnel answers CONNECT with the handler's 2xx and
// fields, no framing fields, then raw bytes both ways; and its errors.
func TestTunnel(t *testing.T) {
	tests := []struct {
		name, request string
		status        int
		err           error
		want          string
	}{
		{"connect", "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\nclient hello", 0, nil,
			"HTTP/1.1 200 OK\r\nDate: D\r\nX-Via: t\r\n\r\nowner:client hello"},
		{"connect_reason", "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\nclient hello", 200, nil,
			"HTTP/1.1 200 Connection Established\r\nDate: D\r\nX-Via: t\r\n\r\nowner:client hello"},
		{"not_connect", "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 0, ErrNotConnect,
			"HTTP/1.1 405 Method Not Allowed\r\nDate: D\r\nX-Via: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
		{"refused_status", "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\nConnection: close\r\n\r\n", 403, ErrSwitchResponse,
			"HTTP/1.1 405 Method Not Allowed\r\nDate: D\r\nX-Via: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := make(chan error, 1)
			ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
				c.Response.Header.Set("X-Via", "t")
				c.Response.Header.Set("Transfer-Encoding", "chunked") // dropped
				if tt.status != 0 {
					c.Response.SetStatusCode(tt.status)
					c.Response.SetReason("Connection Established")
				}
				nc, buffered, err := c.Tunnel()
				errs <- err
				if err != nil {
					c.Response.SetStatusCode(405)
					c.Response.SetReason("")
					return
				}
				defer nc.Close()
				got, _ := readFull(nc, buffered, len("client hello"))
				nc.Write(append([]byte("owner:"), got...))
			}})
			checkSwitch(t, ts, tt.request, "Tunnel", errs, tt.err, tt.want)
		})
	}
}

// checkSwitch sends request on a new connection to ts, reads until the
// server closes it, and checks the error the handler's switch (named by
// what) sent on errs against wantErr and the bytes read, Date removed,
// against want.
func checkSwitch(t *testing.T, ts *testServer, request, what string, errs <-chan error, wantErr error, want string) {
	t.Helper()
	c := ts.connect()
	c.send(request)
	raw, err := io.ReadAll(c.br)
	if err != nil {
		t.Fatalf("reading until EOF: %v (got %q)", err, raw)
	}
	if err := <-errs; !errors.Is(err, wantErr) || (wantErr == nil) != (err == nil) {
		t.Errorf("%s: %v, want %v", what, err, wantErr)
	}
	if got := noDate(string(raw)); got != want {
		t.Errorf("connection got\n%q\nwant\n%q", got, want)
	}
}
