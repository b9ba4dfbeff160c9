package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// TestREST drives the service with net/http's client over loopback:
// the CRUD cycle, the JSON error bodies for the router's and the
// decoder's errors, the body limit, request IDs and the access log.
func TestREST(t *testing.T) {
	var logs syncbuf.Buffer
	srv := newServer(slog.New(slog.NewJSONHandler(&logs, nil)))
	base := "http://" + testserver.Start(t, srv)
	client := &http.Client{Timeout: 10 * time.Second}
	do := func(method, path, ct, body string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), method, base+path, strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b)), resp.Header
	}
	const js = "application/json"
	for _, tc := range []struct {
		method, path, ct, body string
		status                 int
		want                   string
	}{
		{"POST", "/items", js, `{"name":"pen"}`, 201, `{"id":1,"name":"pen"}`},
		{"POST", "/items", js, `{"name":"ink"}`, 201, `{"id":2,"name":"ink"}`},
		{"GET", "/items/1", "", "", 200, `{"id":1,"name":"pen"}`},
		{"PUT", "/items/1", js, `{"name":"quill"}`, 200, `{"id":1,"name":"quill"}`},
		{"DELETE", "/items/2", "", "", 204, ``},
		{"GET", "/items", "", "", 200, `[{"id":1,"name":"quill"}]`},
		{"GET", "/items/2", "", "", 404, `{"error":"Not Found"}`},
		{"GET", "/nowhere", "", "", 404, `{"error":"Not Found"}`},
		{"PATCH", "/items/1", js, `{}`, 405, `{"error":"Method Not Allowed"}`},
		{"POST", "/items", js, `{"name":`, 400, `{"error":"Bad Request"}`},
		{"POST", "/items", "text/plain", `{"name":"x"}`, 415, `{"error":"Unsupported Media Type"}`},
		{"POST", "/items", js, `{"name":"` + strings.Repeat("x", maxBody) + `"}`, 413, `{"error":"Request Entity Too Large"}`},
	} {
		status, body, h := do(tc.method, tc.path, tc.ct, tc.body)
		if status != tc.status || body != tc.want {
			t.Errorf("%s %s: %d %s, want %d %s", tc.method, tc.path, status, body, tc.status, tc.want)
		}
		if len(h.Get("X-Request-ID")) != 32 && tc.status != 413 { // the server refuses a 413 before the router
			t.Errorf("%s %s: X-Request-ID %q", tc.method, tc.path, h.Get("X-Request-ID"))
		}
	}
	// The access log has one JSON record per request.
	srv.Shutdown(context.Background())
	n := 0
	for line := range bytes.Lines([]byte(logs.String())) {
		var rec struct{ Msg, Method string }
		if json.Unmarshal(line, &rec) == nil && rec.Msg == "request" {
			n++
		}
	}
	if n != 12 {
		t.Errorf("%d access log records, want 12: %s", n, logs.String())
	}
}

// TestRESTChunkedLimit: a chunked body past the limit gets the JSON 413
// (the case: the handler's decode answers it, the server keeps
// that answer).
func TestRESTChunkedLimit(t *testing.T) {
	srv := newServer(slog.New(slog.NewTextHandler(io.Discard, nil)))
	addr := testserver.Start(t, srv)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	body := `{"name":"` + strings.Repeat("x", maxBody) + `"}`
	io.WriteString(nc, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
	go func() {
		for i := 0; i < len(body); i += 4096 {
			chunk := body[i:min(i+4096, len(body))]
			if _, err := io.WriteString(nc, strconv.FormatInt(int64(len(chunk)), 16)+"\r\n"+chunk+"\r\n"); err != nil {
				return
			}
		}
		io.WriteString(nc, "0\r\n\r\n")
	}()
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || strings.TrimSpace(string(b)) != `{"error":"Request Entity Too Large"}` {
		t.Errorf("chunked body over the limit: %d %s", resp.StatusCode, b)
	}
}
