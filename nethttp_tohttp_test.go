package brisk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestToHTTP mounts brisk handlers in a net/http mux and checks what the
// brisk handler sees (method, target, fields, body, remote address) and
// what the net/http client gets (status, fields, streamed body,
// trailers), and an upgrade through the bridge.
func TestToHTTP(t *testing.T) {
	events := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/echo", ToHTTP(func(c *Ctx) {
		body, err := c.Request.Body()
		c.Response.Header.Set("X-Seen", fmt.Sprintf("%s %s %s %v", c.Request.Method(), c.Request.Target(), c.Request.Header.Get("X-In"), c.RemoteAddr().String() != ""))
		c.Response.SetStatusCode(201)
		fmt.Fprintf(&c.Response, "%s|%v", body, err)
	}))
	mux.Handle("/stream", ToHTTP(func(c *Ctx) {
		c.Response.Header.Set("Content-Type", "text/event-stream")
		w := c.BodyWriter()
		w.WriteString("data: one\n\n")
		w.Flush()
		<-events
		w.WriteString("data: two\n\n")
		c.Response.Trailer.Set("X-Done", "yes")
	}))
	mux.Handle("/up", ToHTTP(func(c *Ctx) {
		nc, buffered, err := c.Upgrade("echo")
		if err != nil {
			c.Response.SetStatusCode(426)
			return
		}
		defer nc.Close()
		line, _ := bufio.NewReader(io.MultiReader(strings.NewReader(string(buffered)), nc)).ReadString('\n')
		io.WriteString(nc, "echo "+line)
	}))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	resp, err := http.Post(ts.URL+"/echo?q=1", "text/plain", strings.NewReader("payload"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || string(body) != "payload|<nil>" || resp.Header.Get("X-Seen") != "POST /echo?q=1  true" {
		t.Errorf("echo: %d %q %q", resp.StatusCode, body, resp.Header.Get("X-Seen"))
	}
	if resp.Header.Get("Content-Length") != "13" {
		t.Errorf("Content-Length %q, want 13", resp.Header.Get("Content-Length"))
	}

	resp, err = http.Get(ts.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	first := make(chan string, 1)
	go func() { l, _ := br.ReadString('\n'); first <- l }()
	select {
	case l := <-first:
		if l != "data: one\n" {
			t.Errorf("first event %q", l)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("first event did not arrive before the second was written")
	}
	close(events)
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if string(rest) != "\ndata: two\n\n" || resp.Trailer.Get("X-Done") != "yes" {
		t.Errorf("rest %q, trailer %v", rest, resp.Trailer)
	}

	nc, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, "GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nhi\n")
	raw, _ := io.ReadAll(nc)
	if got := noDate(string(raw)); got != "HTTP/1.1 101 Switching Protocols\r\nDate: D\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\necho hi\n" {
		t.Errorf("upgrade got %q", got)
	}
}

// TestToHTTPInterim: a 103 from Ctx.SendInterim reaches the net/http
// client as an interim response, and the final response that follows it
// is the handler's (status, fields, body), without the interim fields.
func TestToHTTPInterim(t *testing.T) {
	ts := httptest.NewServer(ToHTTP(func(c *Ctx) {
		var h Header
		h.Add("Link", "</a.css>; rel=preload")
		if err := c.SendInterim(103, &h); err != nil {
			t.Errorf("SendInterim: %v", err)
		}
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBodyString("final")
	}))
	defer ts.Close()
	nc, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	got, _ := io.ReadAll(nc)
	s := string(got)
	interim, final, ok := strings.Cut(s, "\r\n\r\n")
	if !ok || interim != "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload" {
		t.Fatalf("interim response: %q", s)
	}
	if !strings.HasPrefix(final, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(final, "\r\n\r\nfinal") ||
		!strings.Contains(final, "Content-Length: 5\r\n") || strings.Contains(final, "Link") {
		t.Errorf("final response: %q", final)
	}

	// An HTTP/1.0 client gets no 1xx (RFC 9110 §15.2), only the final response.
	nc10, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc10.Close()
	nc10.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc10, "GET / HTTP/1.0\r\nHost: x\r\n\r\n")
	got, _ = io.ReadAll(nc10)
	if s := string(got); !strings.HasPrefix(s, "HTTP/1.0 200 OK\r\n") || !strings.HasSuffix(s, "\r\n\r\nfinal") {
		t.Errorf("HTTP/1.0: %q, want the final response alone", s)
	}
}

// TestToHTTPPanicCutsShort: a brisk handler that panics after streaming
// part of a chunked body leaves the net/http response cut short (no last
// chunk), as on a brisk listener, not complete.
func TestToHTTPPanicCutsShort(t *testing.T) {
	s := &Server{Logger: slog.New(slog.DiscardHandler), Handler: func(c *Ctx) {
		w := c.BodyWriter()
		w.WriteString("part")
		w.Flush()
		panic("boom")
	}}
	ts := httptest.NewUnstartedServer(s.HTTPHandler())
	ts.Config.ErrorLog = log.New(io.Discard, "", 0)
	ts.Start()
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "part" || err != io.ErrUnexpectedEOF {
		t.Errorf("body %q, error %v; want \"part\", %v", body, err, io.ErrUnexpectedEOF)
	}
}

// TestToHTTPChunkedBoth: a request body of unknown length (chunked to the
// brisk handler, several chunks, with a trailer) and a streamed response
// larger than the write buffer (several writes, decoded from chunked)
// cross the bridge byte for byte, trailers included.
func TestToHTTPChunkedBoth(t *testing.T) {
	in := strings.Repeat("0123456789abcdef", 3000) // 48000 bytes
	ts := httptest.NewServer(ToHTTP(func(c *Ctx) {
		body, err := c.Request.Body()
		c.Response.Header.Set("X-Got", fmt.Sprintf("%d %v %t %s", len(body), err, string(body) == in, c.Request.Trailer.Get("X-Sum")))
		w := c.BodyWriter()
		for i := range 40 {
			fmt.Fprintf(w, "%05d%s", i, strings.Repeat("x", 995))
			if i%10 == 9 {
				w.Flush()
			}
		}
		c.Response.Trailer.Set("X-End", "done")
	}))
	defer ts.Close()
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", ts.URL, pr)
	req.Trailer = http.Header{"X-Sum": nil}
	go func() {
		for i := 0; i < len(in); i += 7000 {
			pw.Write([]byte(in[i:min(i+7000, len(in))]))
		}
		req.Trailer.Set("X-Sum", "ok") // before the body's end, as net/http requires
		pw.Close()
	}()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var want strings.Builder
	for i := range 40 {
		fmt.Fprintf(&want, "%05d%s", i, strings.Repeat("x", 995))
	}
	if err != nil || string(body) != want.String() {
		t.Errorf("response body: %d bytes, %v; want %d bytes", len(body), err, want.Len())
	}
	if got := resp.Header.Get("X-Got"); got != "48000 <nil> true ok" {
		t.Errorf("brisk handler saw %q, want %q", got, "48000 <nil> true ok")
	}
	if resp.Trailer.Get("X-End") != "done" {
		t.Errorf("trailer %v, want X-End: done", resp.Trailer)
	}
}

// TestToHTTPClientCloseCancels: by default, a
// bridged request's context is cancelled when the net/http request's
// is (the client went away), and not before.
func TestToHTTPClientCloseCancels(t *testing.T) {
	got := make(chan string, 1)
	s := &Server{Handler: func(c *Ctx) {
		select {
		case <-c.Context().Done():
			got <- "cancelled"
		case <-time.After(5 * time.Second):
			got <- "not cancelled"
		}
	}}
	h := s.HTTPHandler()
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
	done := make(chan struct{})
	go func() { h.ServeHTTP(httptest.NewRecorder(), r); close(done) }()
	select {
	case v := <-got:
		t.Fatalf("handler returned %q before the client left", v)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if v := <-got; v != "cancelled" {
		t.Errorf("context: %s", v)
	}
	<-done
}

// TestToHTTPHijackKept: a brisk handler that hijacks the bridged
// connection (no protocol switch) and keeps it past its return gets a
// 502 to the net/http client, and writes to the kept connection fail
// instead of reaching a later request's ResponseWriter.
func TestToHTTPHijackKept(t *testing.T) {
	kept := make(chan net.Conn, 1)
	s := &Server{Handler: func(c *Ctx) {
		if string(c.Request.Path()) == "/keep" {
			nc, _, err := c.Hijack()
			if err != nil {
				t.Errorf("Hijack: %v", err)
			}
			kept <- nc
			return
		}
		c.Response.SetBodyString("ok")
	}}
	h := s.HTTPHandler()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/keep", nil))
	if w.Code != 502 {
		t.Errorf("status %d, want 502", w.Code)
	}
	nc := <-kept
	if _, err := nc.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlate")); err == nil {
		t.Error("write to the kept connection after ServeHTTP returned succeeded")
	}
	if _, err := nc.Read(make([]byte, 1)); err == nil {
		t.Error("read from the kept connection after ServeHTTP returned succeeded")
	}
	w2 := httptest.NewRecorder()
	h.ServeHTTP(w2, httptest.NewRequest("GET", "/", nil))
	if w2.Code != 200 || w2.Body.String() != "ok" {
		t.Errorf("next request: %d %q, want 200 \"ok\"", w2.Code, w2.Body.String())
	}
}

// TestToHTTPFieldNewlines: a field value holding CR or LF, which an
// http.Handler can be called with directly, reaches the brisk handler
// with each turned into a space (as http.Header.Write sends it), not as
// a second field line.
func TestToHTTPFieldNewlines(t *testing.T) {
	h := ToHTTP(func(c *Ctx) {
		fmt.Fprintf(&c.Response, "%q %q", c.Request.Header.Get("X-In"), c.Request.Header.Get("X-Smuggled"))
	})
	r := httptest.NewRequest("GET", "/", nil)
	r.Header["X-In"] = []string{"a\r\nX-Smuggled: 1\nb"}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if got, want := w.Body.String(), `"a  X-Smuggled: 1 b" ""`; w.Code != 200 || got != want {
		t.Errorf("%d %s, want 200 %s", w.Code, got, want)
	}
}

// TestToHTTPFields: the response's fields reach the ResponseWriter's
// header under canonical keys, repeated ones in wire order, without the
// fields of brisk's in-memory connection (Connection, Keep-Alive,
// Transfer-Encoding, Trailer); a trailer field's key is canonical too.
func TestToHTTPFields(t *testing.T) {
	h := (&Server{Handler: func(c *Ctx) {
		c.Response.Header.Add("x-trace", "1")
		c.Response.Header.Add("X-Multi", "b")
		c.Response.Header.Add("x-multi", "a")
		c.Response.Header.Add("Keep-Alive", "timeout=5")
		c.Response.Header.Add("Connection", "close")
		if string(c.Request.Path()) == "/chunked" {
			w := c.BodyWriter()
			w.WriteString("part")
			w.Flush()
			c.Response.Trailer.Set("grpc-status", "0")
			return
		}
		c.Response.SetBodyString("Hello, World!")
	}}).HTTPHandler()
	for _, tt := range []struct {
		target string
		want   http.Header
	}{
		{"/", http.Header{"X-Trace": {"1"}, "X-Multi": {"b", "a"}, "Content-Length": {"13"}}},
		{"/chunked", http.Header{"X-Trace": {"1"}, "X-Multi": {"b", "a"}, "Trailer:Grpc-Status": {"0"}}},
	} {
		r := httptest.NewRequest("GET", tt.target, nil)
		w := &allocRecorder{h: make(http.Header)}
		h.ServeHTTP(w, r)
		if len(w.h["Date"]) != 1 {
			t.Errorf("%s: Date %q, want one", tt.target, w.h["Date"])
		}
		delete(w.h, "Date")
		if w.code != 200 || !reflect.DeepEqual(w.h, tt.want) {
			t.Errorf("%s: %d %v, want 200 %v", tt.target, w.code, w.h, tt.want)
		}
	}
}
