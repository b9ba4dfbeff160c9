package brisk

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestClientRawLargeRequest: a request that fits the write buffer but not
// the socket's send buffer is written partly by the raw write and
// finished by Write, on a fresh and on a reused connection.
func TestClientRawLargeRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			t.Error(err)
		}
		io.WriteString(w, strconv.FormatInt(n, 10))
	}))
	defer srv.Close()
	const size = 16 << 20
	c := &Client{ClientConfig: ClientConfig{WriteBufferSize: size + 4096, Timeout: 20 * time.Second}}
	defer c.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetURI(srv.URL + "/upload")
	req.SetMethod("POST")
	req.SetBody(bytes.Repeat([]byte("x"), size))
	for i := range 2 {
		if err := c.Do(&req, &resp); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if got, want := string(resp.Body()), strconv.Itoa(size); got != want {
			t.Fatalf("request %d: server read %s bytes, want %s", i, got, want)
		}
	}
}
