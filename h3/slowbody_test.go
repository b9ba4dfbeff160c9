package h3

import (
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// slowBody is a request body of n pieces of 8 KiB, each after a pause.
type slowBody struct {
	n     int
	pause time.Duration
	piece [8 << 10]byte
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.n == 0 {
		return 0, io.EOF
	}
	time.Sleep(b.pause)
	b.n--
	return copy(p, b.piece[:]), nil
}

// TestBodyPastRateGrace: a request body that keeps coming after
// MinRequestBodyRateGrace, at a rate far above MinRequestBodyRate, is read
// whole, with and without Content-Length. A read that waits past the
// grace period times out, and brisk moves the read deadline and reads on,
// as on a socket: the timeout must not end the body.
func TestBodyPastRateGrace(t *testing.T) {
	const pieces, pause = 12, 60 * time.Millisecond // 96 KiB over about 0.7 s
	f := start(t, func(c *brisk.Ctx) {
		n, err := io.Copy(io.Discard, c.Request.BodyReader())
		if err != nil {
			c.Response.SetStatusCode(http.StatusBadRequest)
			c.Response.SetBodyString(err.Error())
			return
		}
		c.Response.SetBodyString(strconv.FormatInt(n, 10))
	}, func(s *brisk.Server) { s.MinRequestBodyRateGrace = 200 * time.Millisecond })
	for _, length := range []int64{-1, pieces * 8 << 10} {
		req, _ := http.NewRequest("POST", f.url("/slow"), &slowBody{n: pieces, pause: pause})
		req.ContentLength = length
		resp, err := f.client.Do(req)
		if err != nil {
			t.Fatalf("Content-Length %d: %v", length, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want := strconv.Itoa(pieces * 8 << 10); resp.StatusCode != 200 || string(b) != want {
			t.Errorf("Content-Length %d: %d %q, want 200 %q", length, resp.StatusCode, b, want)
		}
	}
}
