package brisk

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestFromHTTPReadAfterDiscard compares with net/http's server what a
// body read returns once the response head is sent: the server has then
// read the body to its end, up to 256 KiB, and closed it (later reads
// fail with http.ErrBodyReadAfterClose), unless the body was longer or
// full duplex was enabled.
func TestFromHTTPReadAfterDiscard(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Has("duplex") {
			http.NewResponseController(w).EnableFullDuplex()
		}
		if q.Has("all") {
			io.ReadAll(r.Body)
		}
		io.WriteString(w, "head sent\n")
		w.(http.Flusher).Flush()
		b, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "read %d %v", len(b), err)
	})
	netHTTP, brisk := diffServers(t, h, nil)
	length := func(n int) string {
		return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", n, strings.Repeat("b", n))
	}
	chunked := "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
	for _, tc := range []struct{ name, raw string }{
		{"length_unread", "POST / HTTP/1.1\r\nHost: x\r\n" + length(5)},
		{"length_read", "POST /?all HTTP/1.1\r\nHost: x\r\n" + length(5)},
		{"length_large", "POST / HTTP/1.1\r\nHost: x\r\n" + length(300<<10)},
		{"length_duplex", "POST /?duplex HTTP/1.1\r\nHost: x\r\n" + length(5)},
		{"chunked_unread", "POST / HTTP/1.1\r\nHost: x\r\n" + chunked},
		{"chunked_read", "POST /?all HTTP/1.1\r\nHost: x\r\n" + chunked},
		{"none", get("/")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantOpen := rawExchange(t, netHTTP, tc.raw)
			got, gotOpen := rawExchange(t, brisk, tc.raw)
			if got != want {
				t.Errorf("brisk:\n%q\nnet/http:\n%q", got, want)
			}
			if gotOpen != wantOpen {
				t.Errorf("connection open after the response: brisk %v, net/http %v", gotOpen, wantOpen)
			}
		})
	}
}

// TestFromHTTPMaxBytesReader compares with net/http's server the
// response and the keep-alive decision when the handler's Request.Body
// is an http.MaxBytesReader: reaching its limit closes the connection
// after the response (with "Connection: close" in the handler's fields
// when the head was not written yet), as net/http does; a body within
// the limit keeps it.
func TestFromHTTPMaxBytesReader(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			io.WriteString(w, "next")
			return
		}
		q := r.URL.Query()
		r.Body = http.MaxBytesReader(w, r.Body, 4)
		if q.Has("duplex") {
			http.NewResponseController(w).EnableFullDuplex()
			io.WriteString(w, "head sent\n")
			w.(http.Flusher).Flush()
		}
		if q.Has("header") {
			w.WriteHeader(200)
		}
		b, err := io.ReadAll(r.Body)
		if err != nil && !q.Has("duplex") && !q.Has("header") {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		fmt.Fprintf(w, "read %q %v", b, err)
	})
	netHTTP, brisk := diffServers(t, h, nil)
	length := func(n int) string {
		return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", n, strings.Repeat("b", n))
	}
	chunked := "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
	for _, tc := range []struct{ name, raw string }{
		{"within", "POST / HTTP/1.1\r\nHost: x\r\n" + length(4)},
		{"past_length", "POST / HTTP/1.1\r\nHost: x\r\n" + length(10)},
		{"past_chunked", "POST / HTTP/1.1\r\nHost: x\r\n" + chunked},
		{"past_after_header", "POST /?header HTTP/1.1\r\nHost: x\r\n" + length(10)},
		{"past_duplex", "POST /?duplex HTTP/1.1\r\nHost: x\r\n" + length(10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw := tc.raw + get("/next")
			want, wantOpen := rawPipelined(t, netHTTP, raw, 2)
			got, gotOpen := rawPipelined(t, brisk, raw, 2)
			if got != want {
				t.Errorf("brisk:\n%q\nnet/http:\n%q", got, want)
			}
			if gotOpen != wantOpen {
				t.Errorf("connection open after the responses: brisk %v, net/http %v", gotOpen, wantOpen)
			}
		})
	}
}

// TestFromHTTPBodyWriteTo compares with net/http's server what io.Copy
// of Request.Body gives, brisk's body being an io.WriterTo: the bytes,
// the count and the error, after Close too, and the connection kept.
func TestFromHTTPBodyWriteTo(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("close") {
			r.Body.Close()
		}
		sum := sha256.New()
		n, err := io.Copy(writerOnly{sum}, r.Body)
		fmt.Fprintf(w, "copied %d %v %x", n, err, sum.Sum(nil))
	})
	netHTTP, brisk := diffServers(t, h, nil)
	big := strings.Repeat("0123456789abcdef", 20000)
	for _, tc := range []struct{ name, raw string }{
		{"length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"},
		{"length_large", fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(big), big)},
		{"chunked", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"},
		{"closed", "POST /?close HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"},
		{"none", get("/")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := tc.raw + get("/next")
			want, wantOpen := rawPipelined(t, netHTTP, raw, 2)
			got, gotOpen := rawPipelined(t, brisk, raw, 2)
			if got != want {
				t.Errorf("brisk:\n%q\nnet/http:\n%q", got, want)
			}
			if gotOpen != wantOpen {
				t.Errorf("connection open after the responses: brisk %v, net/http %v", gotOpen, wantOpen)
			}
		})
	}
}
