package brisk

import (
	"bytes"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"
)

// deadlineBody is a request body honouring the read deadline of its
// deadlineWriter, as quic-go's HTTP/3 stream does: it gives one piece
// of 1 KiB at once, then the next pieces each after pause; a read that
// would wait past the deadline fails with os.ErrDeadlineExceeded and
// leaves the body readable. sticky makes a timeout end the body, as
// x/net/http2's does.
type deadlineBody struct {
	w        *deadlineWriter
	pieces   int
	pause    time.Duration
	sticky   bool
	failed   error
	first    bool
	timeouts int
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	if b.failed != nil {
		return 0, b.failed
	}
	if b.pieces == 0 {
		return 0, io.EOF
	}
	if b.first {
		wait := b.pause
		if dl := b.w.deadline(); !dl.IsZero() && time.Until(dl) < wait {
			time.Sleep(max(time.Until(dl), 0))
			err := fmt.Errorf("read: %w", os.ErrDeadlineExceeded)
			b.timeouts++
			if b.sticky {
				b.failed = timeoutError{err}
			}
			return 0, timeoutError{err}
		}
		time.Sleep(wait)
	}
	b.first = true
	b.pieces--
	return copy(p, bytes.Repeat([]byte("x"), 1<<10)), nil
}

// timeoutError is a net.Error timeout, as a transport's deadline error.
type timeoutError struct{ error }

func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// deadlineWriter is an httptest.ResponseRecorder with SetReadDeadline.
type deadlineWriter struct {
	*httptest.ResponseRecorder
	mu sync.Mutex
	dl time.Time
}

func (w *deadlineWriter) SetReadDeadline(t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dl = t
	return nil
}

func (w *deadlineWriter) deadline() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dl
}

// TestHTTPHandlerBodyPastDeadline: a bridged request body whose reads
// time out at the read deadline brisk set (MinRequestBodyRateGrace
// passed) is read on once brisk moves the deadline, as on a socket, with
// and without Content-Length; a transport whose timeout ends the body
// (its reads time out again at once) fails the handler's read with a
// non-timeout error instead of having it retried without end.
func TestHTTPHandlerBodyPastDeadline(t *testing.T) {
	const pieces = 8
	for _, tc := range []struct {
		name   string
		length int64
		sticky bool
		want   string // what the handler read
	}{
		{"chunked", -1, false, "read 8192"},
		{"length", pieces << 10, false, "read 8192"},
		{"sticky", -1, true, "error " + errBridgeBodyTimeout.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			srv := &Server{
				MinRequestBodyRateGrace: 50 * time.Millisecond,
				Handler: func(c *Ctx) {
					n, err := io.Copy(io.Discard, c.Request.BodyReader())
					if got = fmt.Sprintf("read %d", n); err != nil {
						got = "error " + err.Error()
					}
				},
			}
			w := &deadlineWriter{ResponseRecorder: httptest.NewRecorder()}
			body := &deadlineBody{w: w, pieces: pieces, pause: 20 * time.Millisecond, sticky: tc.sticky}
			r := httptest.NewRequest("POST", "/", body)
			r.ContentLength = tc.length
			r.ProtoMajor, r.ProtoMinor, r.Proto = 3, 0, "HTTP/3.0"
			done := make(chan struct{})
			go func() {
				defer close(done)
				srv.HTTPHandler().ServeHTTP(w, r)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the bridged request did not end within 10 s")
			}
			if got != tc.want {
				t.Fatalf("handler: %q, want %q", got, tc.want)
			}
			if body.timeouts != 1 {
				t.Fatalf("%d reads timed out, want 1 (the deadline moved after it)", body.timeouts)
			}
		})
	}
}
