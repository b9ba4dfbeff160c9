package interop

import (
	"bufio"
	"bytes"
	"expvar"
	"fmt"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// TestPprof mounts net/http/pprof unchanged: the index, the heap profile
// and a one-second CPU profile (gzip-compressed protobuf).
func TestPprof(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	base := serveHTTP(t, mux)

	resp, body := get(t, base+"/debug/pprof/")
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("Types of profiles available")) {
		t.Errorf("index: %d %.100q", resp.StatusCode, body)
	}
	resp, body = get(t, base+"/debug/pprof/heap?debug=1")
	if resp.StatusCode != 200 || !bytes.HasPrefix(body, []byte("heap profile:")) {
		t.Errorf("heap: %d %.100q", resp.StatusCode, body)
	}
	start := time.Now()
	resp, body = get(t, base+"/debug/pprof/profile?seconds=1")
	if resp.StatusCode != 200 || !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) || time.Since(start) < time.Second {
		t.Errorf("CPU profile: %d, %d bytes starting %x, after %v", resp.StatusCode, len(body), body[:min(2, len(body))], time.Since(start))
	}
}

// TestExpvar mounts expvar's handler: a JSON object with memstats.
func TestExpvar(t *testing.T) {
	hits, ok := expvar.Get("interop_hits").(*expvar.Int) // published once per process
	if !ok {
		hits = expvar.NewInt("interop_hits")
	}
	hits.Set(7)
	resp, body := get(t, serveHTTP(t, expvar.Handler()))
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"interop_hits": 7`)) || !bytes.Contains(body, []byte(`"memstats"`)) {
		t.Errorf("expvar: %d %.200q", resp.StatusCode, body)
	}
}

// TestPromhttp mounts the Prometheus handler, plain and gzip-compressed.
func TestPromhttp(t *testing.T) {
	reg := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "interop_requests_total", Help: "Requests."})
	reg.MustRegister(c)
	c.Add(3)
	base := serveHTTP(t, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	if resp, body := get(t, base, "Accept-Encoding", "identity"); resp.StatusCode != 200 || !bytes.Contains(body, []byte("interop_requests_total 3")) {
		t.Errorf("identity: %d %.200q", resp.StatusCode, body)
	}
	resp, body := get(t, base)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("interop_requests_total 3")) || !resp.Uncompressed {
		t.Errorf("default client: %d uncompressed=%v %.200q", resp.StatusCode, resp.Uncompressed, body)
	}
}

// TestChi mounts a chi router with middleware: URL parameters, a
// request ID, a middleware-set field, Recoverer's 500 after a panic, and
// the router's 404 and 405.
func TestChi(t *testing.T) {
	r := chi.NewRouter()
	r.Use(middleware.RequestID, middleware.Recoverer, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Mw", "1")
			next.ServeHTTP(w, r)
		})
	})
	r.Get("/users/{id}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "user %s req %v", chi.URLParam(r, "id"), middleware.GetReqID(r.Context()) != "")
	})
	r.Get("/panic", func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	base := serveHTTP(t, r)
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/users/42", 200, "user 42 req true"},
		{"/panic", 500, ""},
		{"/nowhere", 404, "404 page not found\n"},
	}
	for _, tt := range tests {
		resp, body := get(t, base+tt.path)
		if resp.StatusCode != tt.status || string(body) != tt.body || resp.Header.Get("X-Mw") != "1" {
			t.Errorf("%s: %d %q X-Mw=%q, want %d %q", tt.path, resp.StatusCode, body, resp.Header.Get("X-Mw"), tt.status, tt.body)
		}
	}
	resp, err := http.Post(base+"/users/1", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("POST: %d, want 405", resp.StatusCode)
	}
}

// TestFileServerRange serves a file with http.FileServer and asks for a
// byte range: 206, Content-Range and exactly those bytes.
func TestFileServerRange(t *testing.T) {
	dir := t.TempDir()
	content := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	if err := os.WriteFile(filepath.Join(dir, "f.bin"), content, 0o644); err != nil {
		t.Fatal(err)
	}
	base := serveHTTP(t, http.FileServer(http.Dir(dir)))
	resp, body := get(t, base+"/f.bin", "Range", "bytes=100-40099")
	if resp.StatusCode != 206 || resp.Header.Get("Content-Range") != "bytes 100-40099/65536" || !bytes.Equal(body, content[100:40100]) {
		t.Errorf("range: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
	}
	resp, body = get(t, base+"/f.bin")
	if resp.StatusCode != 200 || resp.ContentLength != int64(len(content)) || !bytes.Equal(body, content) {
		t.Errorf("whole: %d length %d, %d bytes", resp.StatusCode, resp.ContentLength, len(body))
	}
}

// TestSSE checks that server-sent events flushed one by one arrive one by
// one: each event is received before the handler writes the next.
func TestSSE(t *testing.T) {
	next := make(chan struct{})
	base := serveHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: event %d\n\n", i)
			w.(http.Flusher).Flush()
			select {
			case <-next:
			case <-time.After(3 * time.Second):
				return
			}
		}
	}))
	resp, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for i := range 3 {
		line, err := br.ReadString('\n')
		br.ReadString('\n')
		if err != nil || strings.TrimSpace(line) != fmt.Sprintf("data: event %d", i) {
			t.Fatalf("event %d: %q, %v", i, line, err)
		}
		select { // the handler writes the next event only now
		case next <- struct{}{}:
		case <-time.After(3 * time.Second):
			t.Fatalf("event %d arrived only after the handler gave up", i)
		}
	}
}
