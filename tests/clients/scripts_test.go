package clients

import (
	"bytes"
	"encoding/json"
	"net"
	"testing"
	"time"
)

// scriptResult is one request as reported by testdata/keepalive.js and
// testdata/client.py.
type scriptResult struct {
	Method, Path string
	Status       int
	Reused       bool   // node only: the agent reused its socket
	Body         []byte // base64 in the JSON
}

// wantEcho is what a script's echo request must have sent, as parsed by
// the server.
type wantEcho struct {
	uri, body string
	field     [2]string // optional field name and value to find
}

// checkScriptResults asserts every status is 200 and every response body:
// echo documents against wants (by request index), /hello, /stream and
// /big bodies against their content, and HEAD bodies empty.
func checkScriptResults(t *testing.T, results []scriptResult, wants map[int]wantEcho) {
	t.Helper()
	for i, r := range results {
		if r.Status != 200 {
			t.Errorf("#%d %s %s: status %d, want 200", i, r.Method, r.Path, r.Status)
			continue
		}
		switch {
		case r.Method == "HEAD":
			if len(r.Body) != 0 {
				t.Errorf("#%d HEAD: %d body bytes, want none", i, len(r.Body))
			}
		case r.Path == "/stream?n=10000":
			if !bytes.Equal(r.Body, pattern(10000)) {
				t.Errorf("#%d %s: body differs", i, r.Path)
			}
		case r.Path == "/big?n=200000":
			if !bytes.Equal(r.Body, pattern(200000)) {
				t.Errorf("#%d %s: body differs", i, r.Path)
			}
		default:
			w, ok := wants[i]
			if !ok {
				t.Fatalf("#%d %s %s: no expectation", i, r.Method, r.Path)
			}
			e := decodeEcho(t, r.Body)
			if string(e.Method) != r.Method || string(e.URI) != w.uri || string(e.Body) != w.body {
				t.Errorf("#%d: echo %s %q body %q, want %s %q body %q", i, e.Method, e.URI, e.Body, r.Method, w.uri, w.body)
			}
			if w.field[0] != "" {
				if v, _ := e.field(w.field[0]); v != w.field[1] {
					t.Errorf("#%d: echoed %s %q, want %q", i, w.field[0], v, w.field[1])
				}
			}
		}
	}
}

// TestNodeKeepAlive: Node's http client with a keep-alive agent sends six
// requests (GET, POST with Content-Length, chunked POST, HEAD, a chunked
// download, DELETE) on one socket.
func TestNodeKeepAlive(t *testing.T) {
	node := need(t, "node")
	s := startServer(t)
	out, _ := runCmd(t, 30*time.Second, node, "testdata/keepalive.js", s.url)
	var results []scriptResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("node output: %v\n%s", err, out)
	}
	if len(results) != 6 {
		t.Fatalf("%d results, want 6", len(results))
	}
	checkScriptResults(t, results, map[int]wantEcho{
		0: {uri: "/n/1?a=b"},
		1: {uri: "/n/2", body: "hello node", field: [2]string{"Content-Length", "10"}},
		2: {uri: "/n/3", body: "chunk one,chunk two,chunk three", field: [2]string{"Transfer-Encoding", "chunked"}},
		5: {uri: "/n/6"},
	})
	for i, r := range results {
		if r.Reused != (i > 0) {
			t.Errorf("#%d: reusedSocket %v, want %v", i, r.Reused, i > 0)
		}
	}
	if n := s.conns(); n != 1 {
		t.Errorf("server accepted %d connections, want 1", n)
	}
}

// TestPythonHTTPClient: Python's http.client sends six requests (GET, POST,
// chunked PUT, HEAD, a large download, OPTIONS *) on one connection.
func TestPythonHTTPClient(t *testing.T) {
	py := need(t, "python3")
	s := startServer(t)
	host, port, _ := net.SplitHostPort(s.addr)
	out, _ := runCmd(t, 30*time.Second, py, "testdata/client.py", host, port)
	var raw []json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil || len(raw) != 7 {
		t.Fatalf("python output (%d items, want 7): %v\n%s", len(raw), err, out)
	}
	results := make([]scriptResult, 6)
	for i := range results {
		if err := json.Unmarshal(raw[i], &results[i]); err != nil {
			t.Fatal(err)
		}
	}
	checkScriptResults(t, results, map[int]wantEcho{
		0: {uri: "/p/1?q=%20x"},
		1: {uri: "/p/2", body: "hello python", field: [2]string{"X-Test", "padded"}},
		2: {uri: "/p/3", body: "py chunk one,py chunk two", field: [2]string{"Transfer-Encoding", "chunked"}},
		5: {uri: "*"},
	})
	if n := s.conns(); n != 1 {
		t.Errorf("server accepted %d connections, want 1", n)
	}
}
