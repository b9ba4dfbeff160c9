package brisk

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// TestOnRequestDoneWriteError: a response whose write failed, buffered
// (a body past the write buffer, written with its head) or streamed, is
// reported with fewer BytesWritten than it has and the write's error.
func TestOnRequestDoneWriteError(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 2<<20) // 32 MiB, more than socket buffers hold
	cases := []struct {
		name string
		h    Handler
	}{
		{"buffered", func(c *Ctx) { c.Response.SetBody(big) }},
		{"streamed", func(c *Ctx) { c.BodyWriter().Write(big) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan RequestInfo, 1)
			ts := startServer(t, "tcp", &Server{
				MinResponseRate: 1 << 20, MinResponseRateGrace: testGrace,
				Handler:       tc.h,
				OnRequestDone: func(in *RequestInfo) { done <- *in },
			})
			c := ts.connect()
			c.sendSync(get("/"))
			select {
			case in := <-done:
				if !errors.Is(in.Err, ErrResponseTooSlow) || in.BytesWritten >= int64(len(big)) {
					t.Fatalf("Err %v, BytesWritten %d; want ErrResponseTooSlow and fewer than %d",
						in.Err, in.BytesWritten, len(big))
				}
			case <-time.After(5 * time.Second):
				t.Fatal("OnRequestDone not called within 5 s")
			}
		})
	}
}
