package echo

import (
	"bufio"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// startServer serves h on a loopback port until the test ends and returns
// the address.
func startServer(t *testing.T, h brisk.Handler) string {
	t.Helper()
	return testserver.Start(t, &brisk.Server{Handler: h})
}

// roundTrip sends raw on a new connection and reads one response.
func roundTrip(t *testing.T, addr, raw, method string) (*http.Response, []byte) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(nc, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(nc), &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// doc builds the expected echo document independently of Append.
func doc(method, uri, version, body string, fields ...[2]string) string {
	b64 := base64.StdEncoding.EncodeToString
	var sb strings.Builder
	sb.WriteString(`{"headers":[`)
	for i, f := range fields {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`["` + b64([]byte(f[0])) + `","` + b64([]byte(f[1])) + `"]`)
	}
	sb.WriteString(`],"body":"` + b64([]byte(body)) + `","method":"` + b64([]byte(method)) +
		`","version":"` + b64([]byte(version)) + `","uri":"` + b64([]byte(uri)) + `"}`)
	return sb.String()
}

func TestHandle(t *testing.T) {
	long := strings.Repeat("v", 5000) // document larger than the scratch buffer
	binary := string([]byte{0, 1, 2, 0x7f, 0x80, 0xfe, 0xff, '"', '\\'})
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{"get_origin_form",
			"GET /a/b?c=d&e HTTP/1.1\r\nHost: example.com\r\n\r\n",
			doc("GET", "/a/b?c=d&e", "HTTP/1.1", "", [2]string{"Host", "example.com"})},
		{"ows_trimmed_names_as_received",
			"GET / HTTP/1.1\r\nhOsT: x\r\nX-Spaced: \t a  b \t\r\nX-Empty:\r\n\r\n",
			doc("GET", "/", "HTTP/1.1", "", [2]string{"hOsT", "x"}, [2]string{"X-Spaced", "a  b"}, [2]string{"X-Empty", ""})},
		{"repeated_fields_in_order",
			"GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nx-b: 2\r\nX-A: 3\r\n\r\n",
			doc("GET", "/", "HTTP/1.1", "", [2]string{"Host", "x"}, [2]string{"X-A", "1"}, [2]string{"x-b", "2"}, [2]string{"X-A", "3"})},
		{"content_length_body",
			"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
			doc("POST", "/p", "HTTP/1.1", "hello", [2]string{"Host", "x"}, [2]string{"Content-Length", "5"})},
		{"chunked_framing_removed",
			"PUT /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: t\r\n\r\n",
			doc("PUT", "/c", "HTTP/1.1", "hello world", [2]string{"Host", "x"}, [2]string{"Transfer-Encoding", "chunked"})},
		{"binary_body",
			"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n" + binary,
			doc("POST", "/", "HTTP/1.1", binary, [2]string{"Host", "x"}, [2]string{"Content-Length", "9"})},
		{"obs_text_value",
			"GET / HTTP/1.1\r\nHost: x\r\nX-O: caf\xc3\xa9\r\n\r\n",
			doc("GET", "/", "HTTP/1.1", "", [2]string{"Host", "x"}, [2]string{"X-O", "caf\xc3\xa9"})},
		{"http10_no_host",
			"OPTIONS * HTTP/1.0\r\n\r\n",
			doc("OPTIONS", "*", "HTTP/1.0", "")},
		{"absolute_form",
			"GET http://example.com/x?y HTTP/1.1\r\nHost: example.com\r\n\r\n",
			doc("GET", "http://example.com/x?y", "HTTP/1.1", "", [2]string{"Host", "example.com"})},
		{"larger_than_scratch",
			"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + long + "\r\n\r\n",
			doc("GET", "/", "HTTP/1.1", "", [2]string{"Host", "x"}, [2]string{"X-Long", long})},
	}
	addr := startServer(t, Handle)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := roundTrip(t, addr, tt.raw, "")
			if resp.StatusCode != 200 {
				t.Fatalf("status %d, want 200", resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if resp.ContentLength != int64(len(body)) {
				t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
			}
			got, remote := splitRemote(t, body)
			if got != tt.want {
				t.Errorf("body\n got %s\nwant %s", got, tt.want)
			}
			if !strings.HasPrefix(remote, "127.0.0.1:") {
				t.Errorf("remote %q, want 127.0.0.1:port", remote)
			}
		})
	}
}

// splitRemote removes the "remote" member Handle adds (the last one) from
// an echo document and returns the document and the decoded address.
func splitRemote(t *testing.T, body []byte) (doc, remote string) {
	t.Helper()
	i := strings.LastIndex(string(body), `,"remote":"`)
	if i < 0 || !strings.HasSuffix(string(body), `"}`) {
		t.Fatalf("no remote member: %s", body)
	}
	r, err := base64.StdEncoding.DecodeString(string(body[i+len(`,"remote":"`) : len(body)-2]))
	if err != nil {
		t.Fatalf("remote: %v", err)
	}
	return string(body[:i]) + "}", string(r)
}

func TestHandleHead(t *testing.T) {
	addr := startServer(t, Handle)
	resp, body := roundTrip(t, addr, "HEAD /h HTTP/1.1\r\nHost: x\r\n\r\n", "HEAD")
	want := doc("HEAD", "/h", "HTTP/1.1", "", [2]string{"Host", "x"})
	if resp.StatusCode != 200 || len(body) != 0 {
		t.Fatalf("status %d, %d body bytes; want 200 and no body", resp.StatusCode, len(body))
	}
	// The document GET would get, its remote member "127.0.0.1:" and a
	// port of 4 or 5 digits.
	extra := int(resp.ContentLength) - len(want) - len(`,"remote":""`)
	if extra != base64.StdEncoding.EncodedLen(14) && extra != base64.StdEncoding.EncodedLen(15) {
		t.Errorf("Content-Length %d, want %d plus the remote member", resp.ContentLength, len(want))
	}
}

// TestHandleBodyError checks that a body the server cannot deliver is
// answered by the server's own error status, not by an echo document.
func TestHandleBodyError(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		status int
	}{
		{"bad_chunk_size", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
		{"declared_too_large", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1099511627776\r\n\r\n", 413},
	}
	addr := startServer(t, Handle)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := roundTrip(t, addr, tt.raw, "")
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d (body %q)", resp.StatusCode, tt.status, body)
			}
			if strings.Contains(string(body), `"headers"`) {
				t.Errorf("error response carries an echo document: %s", body)
			}
		})
	}
}
