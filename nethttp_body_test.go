package brisk

import (
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
