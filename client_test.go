package brisk

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk/brisktest"
)

// countingListener counts the connections a server accepted.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// clientTestServer is a brisk Server on a transport with a Client set up
// to reach it: url is the base URI ("http://host:port").
type clientTestServer struct {
	srv *Server
	ln  *countingListener
	url string
	cl  *Client
}

func startClientServer(t testing.TB, transport string, h Handler) *clientTestServer {
	t.Helper()
	s := &Server{Handler: h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	cs := &clientTestServer{srv: s, cl: &Client{}}
	switch transport {
	case "tcp":
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		cs.ln = &countingListener{Listener: l}
		cs.url = "http://" + l.Addr().String()
	default:
		l := brisktest.NewListener()
		cs.ln = &countingListener{Listener: l}
		cs.url = "http://inmemory"
		cs.cl.Dial = l.DialContext
	}
	done := make(chan struct{})
	go func() { s.Serve(cs.ln); close(done) }()
	t.Cleanup(func() {
		cs.cl.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		<-done
	})
	return cs
}

// get sends a GET for path and returns the response.
func (cs *clientTestServer) get(t testing.TB, path string) *Response {
	t.Helper()
	var req Request
	resp := new(Response)
	req.SetURI(cs.url + path)
	if err := cs.cl.Do(&req, resp); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp
}

func forClientTransports(t *testing.T, f func(t *testing.T, transport string)) {
	for _, tr := range []string{"tcp", "inmemory"} {
		t.Run(tr, func(t *testing.T) { f(t, tr) })
	}
}

// routes is a handler for the client tests.
func routes(c *Ctx) {
	switch p := string(c.Request.Path()); {
	case p == "/hello":
		helloHandler(c)
	case p == "/echo":
		body, err := c.Request.Body()
		if err != nil {
			c.Response.SetStatusCode(400)
			return
		}
		c.Response.Header.Set("X-Method", string(c.Request.Method()))
		c.Response.Header.Set("X-Query", string(c.Request.Query()))
		c.Response.Header.Set("X-Host", string(c.Request.Host()))
		c.Response.Header.Set("X-Test", string(c.Request.Header.Get("X-Test")))
		c.Response.SetBody(body)
	case p == "/chunked":
		w := c.BodyWriter()
		for i := range 5 {
			w.Write([]byte("part" + strconv.Itoa(i) + ";"))
			w.Flush()
		}
	case p == "/nocontent":
		c.Response.SetStatusCode(204)
	case p == "/big":
		c.Response.SetBody(make([]byte, 100000))
	case strings.HasPrefix(p, "/redirect/"):
		n, _ := strconv.Atoi(p[len("/redirect/"):])
		c.Response.SetStatusCode(302)
		if n == 0 {
			c.Response.Header.Set("Location", "/hello")
		} else {
			c.Response.Header.Set("Location", "/redirect/"+strconv.Itoa(n-1))
		}
	case p == "/see-other":
		c.Response.SetStatusCode(303)
		c.Response.Header.Set("Location", "echo?from=303")
	default:
		c.Response.SetStatusCode(404)
	}
}

func TestClientGetKeepAlive(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		cs := startClientServer(t, transport, routes)
		for i := range 10 {
			resp := cs.get(t, "/hello")
			if resp.StatusCode() != 200 || string(resp.Body()) != "Hello, World!" {
				t.Fatalf("request %d: %d %q", i, resp.StatusCode(), resp.Body())
			}
			if got := string(resp.Header.Get("Content-Type")); got != "text/plain" {
				t.Fatalf("Content-Type = %q", got)
			}
			if string(resp.Reason()) != "OK" {
				t.Fatalf("reason = %q", resp.Reason())
			}
		}
		if n := cs.ln.accepted.Load(); n != 1 {
			t.Fatalf("server accepted %d connections for 10 sequential requests, want 1", n)
		}
	})
}

func TestClientRequestShape(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		cs := startClientServer(t, transport, routes)
		var req Request
		var resp Response
		req.SetMethod("POST")
		req.SetURI(cs.url + "/echo?a=1&b=2")
		req.Header.Set("X-Test", "yes")
		req.Header.Set("Content-Length", "999") // managed by the client
		req.SetBodyString("payload")
		if err := cs.cl.Do(&req, &resp); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]string{
			"X-Method": "POST", "X-Query": "a=1&b=2", "X-Test": "yes",
			"X-Host": strings.TrimPrefix(cs.url, "http://"),
		} {
			if got := string(resp.Header.Get(name)); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
		if string(resp.Body()) != "payload" {
			t.Errorf("body = %q", resp.Body())
		}
	})
}

func TestClientFraming(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		cs := startClientServer(t, transport, routes)
		if resp := cs.get(t, "/chunked"); string(resp.Body()) != "part0;part1;part2;part3;part4;" {
			t.Errorf("chunked body = %q", resp.Body())
		}
		if resp := cs.get(t, "/nocontent"); resp.StatusCode() != 204 || len(resp.Body()) != 0 {
			t.Errorf("204: %d %q", resp.StatusCode(), resp.Body())
		}
		if resp := cs.get(t, "/big"); len(resp.Body()) != 100000 {
			t.Errorf("big body: %d bytes", len(resp.Body()))
		}
		var req Request
		var resp Response
		req.SetMethod("HEAD")
		req.SetURI(cs.url + "/hello")
		if err := cs.cl.Do(&req, &resp); err != nil {
			t.Fatal(err)
		}
		if string(resp.Header.Get("Content-Length")) != "13" || len(resp.Body()) != 0 {
			t.Errorf("HEAD: Content-Length %q, body %q", resp.Header.Get("Content-Length"), resp.Body())
		}
		// Everything above went over one connection.
		if resp := cs.get(t, "/hello"); string(resp.Body()) != "Hello, World!" {
			t.Errorf("after HEAD: %q", resp.Body())
		}
		if n := cs.ln.accepted.Load(); n != 1 {
			t.Errorf("accepted %d connections, want 1", n)
		}
	})
}

func TestClientResponseOwnsItsBytes(t *testing.T) {
	cs := startClientServer(t, "inmemory", routes)
	var req Request
	var a, b Response
	req.SetURI(cs.url + "/hello")
	if err := cs.cl.Do(&req, &a); err != nil {
		t.Fatal(err)
	}
	req.SetURI(cs.url + "/echo?x")
	if err := cs.cl.Do(&req, &b); err != nil {
		t.Fatal(err)
	}
	if string(a.Body()) != "Hello, World!" || string(a.Header.Get("Content-Type")) != "text/plain" {
		t.Fatalf("first response changed by the second: %q %q", a.Body(), a.Header.Get("Content-Type"))
	}
	if !strings.HasPrefix(string(a.Header.Raw()), "Content-Type: text/plain\r\n") &&
		!strings.Contains(string(a.Header.Raw()), "Content-Type: text/plain\r\n") {
		t.Fatalf("Raw = %q", a.Header.Raw())
	}
}

func TestClientNetHTTPServer(t *testing.T) {
	var conns atomic.Int64
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/chunked":
			w.Header().Set("Trailer", "X-Sum")
			for i := range 3 {
				io.WriteString(w, strings.Repeat("x", 10+i))
				w.(http.Flusher).Flush()
			}
			w.Header().Set("X-Sum", "33")
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Method", r.Method)
			w.Write(b)
		case "/notmodified":
			w.WriteHeader(304)
		default:
			io.WriteString(w, "hi from net/http")
		}
	}))
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	ts.Start()
	defer ts.Close()
	var c Client
	defer c.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetURI(ts.URL + "/")
	if err := c.Do(&req, &resp); err != nil || string(resp.Body()) != "hi from net/http" {
		t.Fatalf("GET: %v %q", err, resp.Body())
	}
	req.SetURI(ts.URL + "/chunked")
	if err := c.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Body()) != 33 || string(resp.Trailer.Get("X-Sum")) != "33" {
		t.Fatalf("chunked: %d bytes, trailer %q", len(resp.Body()), resp.Trailer.Get("X-Sum"))
	}
	req.SetMethod("PUT")
	req.SetURI(ts.URL + "/echo")
	req.SetBody(make([]byte, 10000)) // larger than the write buffer's free space
	if err := c.Do(&req, &resp); err != nil || len(resp.Body()) != 10000 || string(resp.Header.Get("X-Method")) != "PUT" {
		t.Fatalf("PUT: %v %d", err, len(resp.Body()))
	}
	req.Reset()
	req.SetURI(ts.URL + "/notmodified")
	if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 304 {
		t.Fatalf("304: %v %d", err, resp.StatusCode())
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("net/http server saw %d connections, want 1", n)
	}
}

func TestClientTLS(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secure "+r.Host)
	}))
	defer ts.Close()
	c := Client{ClientConfig: ClientConfig{TLSConfig: ts.Client().Transport.(*http.Transport).TLSClientConfig}}
	defer c.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetURI(ts.URL + "/x")
	if err := c.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if want := "secure " + strings.TrimPrefix(ts.URL, "https://"); string(resp.Body()) != want {
		t.Fatalf("body = %q, want %q", resp.Body(), want)
	}
}

func TestClientPoolWaitsForFreeConn(t *testing.T) {
	release := make(chan struct{})
	var inHandler atomic.Int64
	cs := startClientServer(t, "tcp", func(c *Ctx) {
		if string(c.Request.Path()) == "/block" {
			inHandler.Add(1)
			<-release
		}
		c.Response.SetBodyString("ok")
	})
	cs.cl.MaxConnsPerHost = 1
	first := make(chan error, 1)
	go func() {
		var req Request
		var resp Response
		req.SetURI(cs.url + "/block")
		first <- cs.cl.Do(&req, &resp)
	}()
	waitFor(t, func() bool { return inHandler.Load() == 1 })

	// The pool is full: a request with a short deadline times out waiting.
	var req Request
	var resp Response
	req.SetURI(cs.url + "/fast")
	start := time.Now()
	err := cs.cl.DoTimeout(&req, &resp, 100*time.Millisecond)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("full pool: err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d < 90*time.Millisecond || d > time.Second {
		t.Fatalf("full pool: returned after %v, want about 100ms", d)
	}

	// A request with time to spare waits and gets the connection.
	second := make(chan error, 1)
	go func() {
		var req Request
		var resp Response
		req.SetURI(cs.url + "/fast")
		second <- cs.cl.DoTimeout(&req, &resp, 5*time.Second)
	}()
	time.Sleep(50 * time.Millisecond)
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatalf("waiting request: %v", err)
	}
	if n := cs.ln.accepted.Load(); n != 1 {
		t.Fatalf("accepted %d connections with MaxConnsPerHost 1", n)
	}
}

func TestClientPoolParallel(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		cs := startClientServer(t, transport, routes)
		cs.cl.MaxConnsPerHost = 4
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var req Request
				var resp Response
				req.SetURI(cs.url + "/hello")
				for range 20 {
					if err := cs.cl.Do(&req, &resp); err != nil {
						errs <- err
						return
					}
					if string(resp.Body()) != "Hello, World!" {
						errs <- errors.New("wrong body " + string(resp.Body()))
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if n := cs.ln.accepted.Load(); n > 4 {
			t.Fatalf("accepted %d connections, MaxConnsPerHost is 4", n)
		}
	})
}

func TestClientTimeoutAndCancel(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		stop := make(chan struct{})
		defer close(stop)
		cs := startClientServer(t, transport, func(c *Ctx) {
			select {
			case <-stop:
			case <-c.Context().Done():
			}
		})
		var req Request
		var resp Response
		req.SetURI(cs.url + "/slow")
		start := time.Now()
		err := cs.cl.DoTimeout(&req, &resp, 100*time.Millisecond)
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("DoTimeout: %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("DoTimeout returned after %v", d)
		}

		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start = time.Now()
		err = cs.cl.DoContext(ctx, &req, &resp)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("DoContext cancelled: %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("DoContext returned %v after cancel", d)
		}

		ctx, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel2()
		err = cs.cl.DoContext(ctx, &req, &resp)
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("DoContext deadline: %v, want ErrTimeout and DeadlineExceeded", err)
		}
	})
}

func TestClientBodyLimit(t *testing.T) {
	cs := startClientServer(t, "inmemory", routes)
	cs.cl.MaxResponseBodyBytes = 1000
	var req Request
	var resp Response
	req.SetURI(cs.url + "/big")
	if err := cs.cl.Do(&req, &resp); !errors.Is(err, ErrBodyTooLarge) {
		t.Fatalf("Content-Length over the limit: %v, want ErrBodyTooLarge", err)
	}
	req.SetURI(cs.url + "/hello")
	if err := cs.cl.Do(&req, &resp); err != nil || string(resp.Body()) != "Hello, World!" {
		t.Fatalf("after the limit error: %v %q", err, resp.Body())
	}
}

func TestClientRedirects(t *testing.T) {
	cs := startClientServer(t, "inmemory", routes)
	var req Request
	var resp Response
	req.SetURI(cs.url + "/redirect/2")
	if err := cs.cl.Do(&req, &resp); err != nil || resp.StatusCode() != 302 {
		t.Fatalf("not following by default: %v %d", err, resp.StatusCode())
	}
	cs.cl.MaxRedirects = 3
	if err := cs.cl.Do(&req, &resp); err != nil || string(resp.Body()) != "Hello, World!" {
		t.Fatalf("3 redirects allowed: %v %d %q", err, resp.StatusCode(), resp.Body())
	}
	if string(req.Target()) != cs.url+"/hello" {
		t.Fatalf("request URI after redirects = %q", req.Target())
	}
	req.SetURI(cs.url + "/redirect/5")
	if err := cs.cl.Do(&req, &resp); !errors.Is(err, ErrTooManyRedirects) {
		t.Fatalf("5 redirects: %v, want ErrTooManyRedirects", err)
	}
	req.SetMethod("POST")
	req.SetBodyString("x")
	req.SetURI(cs.url + "/dir/see-other")
	cs.cl.MaxRedirects = 1
	req.SetURI(cs.url + "/see-other")
	if err := cs.cl.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	if m := string(resp.Header.Get("X-Method")); m != "GET" || string(resp.Header.Get("X-Query")) != "from=303" {
		t.Fatalf("303 to POST: method %q query %q", m, resp.Header.Get("X-Query"))
	}
}

func TestClientIdleEvictionAndLifetime(t *testing.T) {
	cs := startClientServer(t, "tcp", routes)
	cs.cl.IdleConnTimeout = 50 * time.Millisecond
	cs.get(t, "/hello")
	time.Sleep(150 * time.Millisecond)
	cs.get(t, "/hello")
	if n := cs.ln.accepted.Load(); n != 2 {
		t.Fatalf("after idle timeout: %d connections, want 2", n)
	}

	cs2 := startClientServer(t, "tcp", routes)
	cs2.cl.MaxConnLifetime = 50 * time.Millisecond
	cs2.get(t, "/hello")
	cs2.get(t, "/hello")
	time.Sleep(80 * time.Millisecond)
	cs2.get(t, "/hello")
	if n := cs2.ln.accepted.Load(); n != 2 {
		t.Fatalf("MaxConnLifetime: %d connections, want 2", n)
	}
}

func TestClientStream(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		next := make(chan struct{})
		cs := startClientServer(t, transport, func(c *Ctx) {
			c.Response.Header.Set("Content-Type", "text/event-stream")
			w := c.BodyWriter()
			for i := range 3 {
				w.Write([]byte("data: " + strconv.Itoa(i) + "\n\n"))
				w.Flush()
				<-next
			}
		})
		var req Request
		var resp Response
		req.SetURI(cs.url + "/events")
		s, err := cs.cl.DoStream(context.Background(), &req, &resp)
		if err != nil {
			t.Fatal(err)
		}
		if string(resp.Header.Get("Content-Type")) != "text/event-stream" {
			t.Fatalf("Content-Type %q", resp.Header.Get("Content-Type"))
		}
		buf := make([]byte, 64)
		for i := range 3 {
			n, err := s.Read(buf) // each event arrives before the next is sent
			if err != nil || string(buf[:n]) != "data: "+strconv.Itoa(i)+"\n\n" {
				t.Fatalf("event %d: %q %v", i, buf[:n], err)
			}
			next <- struct{}{}
		}
		if n, err := s.Read(buf); n != 0 || err != io.EOF {
			t.Fatalf("end: %d %v", n, err)
		}
		s.Close()
		// The connection went back to the pool.
		go func() { next <- struct{}{}; next <- struct{}{}; next <- struct{}{} }()
		resp2 := new(Response)
		if err := cs.cl.Do(&req, resp2); err != nil || len(resp2.Body()) != 3*len("data: 0\n\n") {
			t.Fatalf("after the stream: %v %q", err, resp2.Body())
		}
		if n := cs.ln.accepted.Load(); n != 1 {
			t.Fatalf("accepted %d, want 1 (stream read to EOF returns its connection)", n)
		}
	})
}

func TestClientStreamCancel(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	cs := startClientServer(t, "tcp", func(c *Ctx) {
		w := c.BodyWriter()
		w.Write([]byte("first"))
		w.Flush()
		select {
		case <-stop:
		case <-c.Context().Done():
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	var req Request
	var resp Response
	req.SetURI(cs.url + "/")
	s, err := cs.cl.DoStream(ctx, &req, &resp)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	buf := make([]byte, 64)
	if n, err := s.Read(buf); err != nil || string(buf[:n]) != "first" {
		t.Fatalf("first read: %q %v", buf[:n], err)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := s.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel: %v, want context.Canceled", err)
	}
}

func TestClientInvalidRequests(t *testing.T) {
	cs := startClientServer(t, "inmemory", routes)
	cases := []struct {
		name string
		set  func(r *Request)
		want error
	}{
		{"field_crlf", func(r *Request) { r.SetURI(cs.url + "/"); r.Header.Set("X", "a\r\nInjected: 1") }, ErrInvalidRequest},
		{"field_name_space", func(r *Request) { r.SetURI(cs.url + "/"); r.Header.Set("Bad Name", "v") }, ErrInvalidRequest},
		{"method_space", func(r *Request) { r.SetMethod("GET /x"); r.SetURI(cs.url + "/") }, ErrInvalidRequest},
		{"target_htab", func(r *Request) { r.SetURI(cs.url + "/a\tb") }, ErrInvalidRequest},
		{"scheme_ftp", func(r *Request) { r.SetURI("ftp://h/") }, ErrInvalidURI},
		{"userinfo", func(r *Request) { r.SetURI("http://u:p@h/") }, ErrInvalidURI},
		{"no_host", func(r *Request) { r.SetURI("http:///x") }, ErrInvalidURI},
		{"authority_tab", func(r *Request) { r.SetURI("http://a\tb:80/") }, ErrInvalidURI},
		{"authority_port_too_large", func(r *Request) { r.SetURI("http://h:99999/") }, ErrInvalidURI},
		{"origin_without_host", func(r *Request) { r.SetTarget("/x") }, ErrInvalidURI},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var req Request
			var resp Response
			tc.set(&req)
			if err := cs.cl.Do(&req, &resp); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestSetURIReusesStorage(t *testing.T) {
	var req Request
	req.SetMethod("GET")
	req.SetURI("http://example.com/a")
	for range 100 {
		req.SetMethod("GET")
		req.SetHost("example.com")
		req.SetURI("http://example.com/abcdefgh?x=1")
	}
	if string(req.Method()) != "GET" || string(req.Host()) != "example.com" {
		t.Fatalf("method %q host %q", req.Method(), req.Host())
	}
	if c := cap(req.ownMethod) + cap(req.ownTarget) + cap(req.ownHost); c > 128 {
		t.Fatalf("request storage grew to %d bytes", c)
	}
	tg, err := req.clientTarget(nil)
	if err != nil || string(tg.origin) != "/abcdefgh?x=1" || string(tg.authority) != "example.com" || tg.https {
		t.Fatalf("target %+v %v", tg, err)
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
