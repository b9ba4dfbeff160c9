package brisk

import "testing"

// TestHTTP2Preface: the HTTP/2 connection preface is answered 505 like
// any HTTP/2.0 request line (README, conformance table), not 400 for its
// "*" target.
func TestHTTP2Preface(t *testing.T) {
	for _, req := range []string{
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"GET / HTTP/2.0\r\nHost: x\r\n\r\n",
	} {
		ts := startServer(t, "tcp", &Server{Handler: echoPath})
		c := ts.connect()
		c.sendSync(req)
		want := "HTTP/1.1 505 HTTP Version Not Supported\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\n" +
			"Content-Length: 27\r\nConnection: close\r\n\r\nHTTP Version Not Supported\n"
		if got := c.readUntilClose(); got != want {
			t.Errorf("%q: got\n%q\nwant\n%q", req, got, want)
		}
	}
}
