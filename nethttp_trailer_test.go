package brisk

import (
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// TestFromHTTPForbiddenTrailers sends, for each field name net/http
// refuses as a declared trailer (httpguts.ValidTrailerHeader: RFC 9110
// §6.5.1) and a few it accepts, the trailer declared in the Trailer
// field and with http.TrailerPrefix, and compares the raw responses with
// net/http's.
func TestFromHTTPForbiddenTrailers(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		if r.URL.Query().Get("mode") == "prefix" {
			io.WriteString(w, "data")
			w.Header().Set(http.TrailerPrefix+name, "late")
			return
		}
		w.Header().Set("Trailer", name+", X-Sum")
		io.WriteString(w, "data")
		w.Header().Set(name, "late")
		w.Header().Set("X-Sum", "4")
	})
	netHTTP, brisk := diffServers(t, h, nil)
	names := []string{
		"Authorization", "Cache-Control", "Connection", "Content-Encoding", "Content-Length",
		"Content-Range", "Content-Type", "Expect", "Host", "Keep-Alive", "Max-Forwards",
		"Pragma", "Proxy-Authenticate", "Proxy-Authorization", "Proxy-Connection", "Range",
		"Realm", "Te", "Trailer", "Transfer-Encoding", "Www-Authenticate",
		"If-Match", "If-None-Match", "If-Modified-Since", "If-Range", "if-unmodified-since",
		"content-type",                        // not canonical
		"X-Checksum", "Server-Timing", "Etag", // allowed
	}
	for _, name := range names {
		for _, mode := range []string{"declared", "prefix"} {
			t.Run(name+"_"+mode, func(t *testing.T) {
				// net/http's client refuses some of these responses:
				// read the bytes until the close.
				raw := "GET /?mode=" + mode + "&name=" + name + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
				want := rawUntilClose(t, netHTTP, raw)
				if got := rawUntilClose(t, brisk, raw); got != want {
					t.Errorf("brisk:\n%q\nnet/http:\n%q", got, want)
				}
			})
		}
	}
}

// rawUntilClose sends raw on a new connection and returns every byte
// received until the server closes it, Date values blanked (noDate).
func rawUntilClose(t *testing.T, dial func() (net.Conn, error), raw string) string {
	t.Helper()
	nc, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(nc, raw); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(nc)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading until close: %v (after %q)", err, b)
	}
	return noDate(string(b))
}
