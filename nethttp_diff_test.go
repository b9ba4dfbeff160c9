package brisk

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// diffHandlers are net/http handlers served both by net/http.Server and
// through FromHTTP, by path.
var diffHandlers = map[string]http.HandlerFunc{
	"/hello": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello world\n") },
	"/html": func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!DOCTYPE html><html><body>hi</body></html>")
	},
	"/empty": func(w http.ResponseWriter, r *http.Request) {},
	"/fields": func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Add("X-Multi", "b")
		h.Add("X-Multi", "a")
		h.Set("A-First", "1")
		h["lower-case"] = []string{"kept as is"}
		h.Set("X-Split", "a\r\nInjected: yes")
		h.Set("Bad Name", "dropped")
		w.Write([]byte(`{"ok":true}`))
		h.Set("X-After", "not sent")
	},
	"/big": func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("0123456789"), 500))
		w.Write([]byte("tail"))
	},
	"/fits": func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("x"), 2048))
	},
	"/flush": func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "event one\n")
		w.(http.Flusher).Flush()
		io.WriteString(w, "event two\n")
	},
	"/flush-first": func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		io.WriteString(w, "after flush")
	},
	"/length": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5")
		io.WriteString(w, "hello")
	},
	"/length-long": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "3")
		_, err := io.WriteString(w, "hello")
		w.Header().Set("X-Err", fmt.Sprint(err)) // not sent
	},
	"/length-short": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10")
		io.WriteString(w, "hello")
	},
	"/204": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "4")
		w.WriteHeader(204)
		w.Write([]byte("body"))
	},
	"/304": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "4")
		w.Header().Set("Etag", `"x"`)
		w.WriteHeader(304)
	},
	"/500": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) },
	"/299": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(299); io.WriteString(w, "odd") },
	"/trailer": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum, X-Count")
		io.WriteString(w, "data")
		w.Header().Set("X-Sum", "42")
		w.Header().Set("X-Count", "1")
	},
	"/trailer-prefix": func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data")
		w.Header().Set(http.TrailerPrefix+"X-Late", "yes")
	},
	"/early-hints": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", "</style.css>; rel=preload")
		w.WriteHeader(103)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "final")
	},
	"/error": func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", 404) },
	"/redirect": func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere?a=1", http.StatusFound)
	},
	"/identity": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Transfer-Encoding", "identity")
		io.WriteString(w, "until close")
		w.(http.Flusher).Flush()
	},
	"/close": func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		io.WriteString(w, "bye")
	},
	"/echo": func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, r.Body)
		fmt.Fprintf(w, "|trailer=%v", r.Trailer)
	},
	"/request": func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "method=%s uri=%s url=%#v\n", r.Method, r.RequestURI, *r.URL)
		fmt.Fprintf(w, "proto=%s %d.%d host=%s cl=%d te=%q close=%v remote=%v tls=%v\n",
			r.Proto, r.ProtoMajor, r.ProtoMinor, r.Host, r.ContentLength, r.TransferEncoding,
			r.Close, r.RemoteAddr != "", r.TLS != nil)
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range r.Header {
				if !yield(k) {
					return
				}
			}
		}) {
			fmt.Fprintf(w, "%s=%q\n", k, r.Header[k])
		}
		fmt.Fprintf(w, "body=%q err=%v trailer=%v ctx=%v\n", body, err, r.Trailer, r.Context().Err())
	},
}

// diffRequests are sent, one per connection, to both servers.
var diffRequests = []struct{ name, raw string }{
	{"hello", get("/hello")},
	{"hello_head", "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n"},
	{"html", get("/html")},
	{"empty", get("/empty")},
	{"empty_head", "HEAD /empty HTTP/1.1\r\nHost: x\r\n\r\n"},
	{"fields", get("/fields")},
	{"big", get("/big")},
	{"big_http10", "GET /big HTTP/1.0\r\nHost: x\r\n\r\n"},
	{"big_head", "HEAD /big HTTP/1.1\r\nHost: x\r\n\r\n"},
	{"fits", get("/fits")},
	{"flush", get("/flush")},
	{"flush_first", get("/flush-first")},
	{"length", get("/length")},
	{"length_head", "HEAD /length HTTP/1.1\r\nHost: x\r\n\r\n"},
	{"length_long", get("/length-long")},
	{"length_short", get("/length-short")},
	{"status_204", get("/204")},
	{"status_304", get("/304")},
	{"status_500", get("/500")},
	{"status_299", get("/299")},
	{"trailer", get("/trailer")},
	{"trailer_prefix", get("/trailer-prefix")},
	{"early_hints", get("/early-hints")},
	{"error", get("/error")},
	{"redirect", get("/redirect")},
	{"identity", get("/identity")},
	{"close_field", get("/close")},
	{"close_request", "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"},
	{"http10", "GET /hello HTTP/1.0\r\nHost: x\r\n\r\n"},
	{"http10_keepalive", "GET /hello HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"},
	{"http10_keepalive_flush", "GET /flush HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"},
	{"expect_unread", "POST /hello HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"},
	{"expect_read", "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"},
	{"post_unread_large", "POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 300000\r\n\r\n" + strings.Repeat("b", 300000)},
	{"post_unread", "POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"},
	{"echo_length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"},
	{"echo_chunked_trailer", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n" +
		"3\r\nabc\r\n2\r\nde\r\n0\r\nX-Sum: 5\r\n\r\n"},
	{"request_origin", "GET /a%20b/c?q=1&r=%2F HTTP/1.1\r\nHost: example.com:8080\r\nuser-agent: t\r\nAccept: a\r\n" +
		"X-Dup: 1\r\nx-dup: 2\r\nPragma: no-cache\r\n\r\n"},
	{"request_absolute", "GET http://other.example/p?x HTTP/1.1\r\nHost: ignored\r\n\r\n"},
	{"request_asterisk", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"},
	{"request_query_only", "GET /?? HTTP/1.1\r\nHost: x\r\n\r\n"},
	{"request_body", "PUT /request HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Type: text/plain\r\n\r\nabc"},
	{"request_chunked", "POST /request HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTrailer: x-sum\r\n\r\n" +
		"3\r\nabc\r\n0\r\nX-Sum: 3\r\nX-Other: 4\r\n\r\n"},
	{"request_http10", "GET /request HTTP/1.0\r\n\r\n"},
}

// openDiffers lists the requests after which brisk closes the connection
// sooner than net/http, and why; their response bytes still match.
var openDiffers = map[string]string{
	"expect_unread": "net/http answers Connection: close, then blocks reading the body the client was not " +
		"asked to send (until ReadTimeout); brisk closes at once",
}

// TestFromHTTPDifferential serves diffHandlers with net/http.Server and
// through FromHTTP on brisk, sends each of diffRequests on a fresh
// connection to both, and compares the raw responses (Date values
// removed) byte for byte, and whether the connection stays open.
func TestFromHTTPDifferential(t *testing.T) {
	mux := http.NewServeMux()
	for p, h := range diffHandlers {
		mux.Handle(p, h)
	}
	request := diffHandlers["/request"]
	root := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.RequestURI, "/a%20b") || r.RequestURI == "*" || r.URL.Host != "" || r.URL.Path == "/" {
			request(w, r) // targets a mux would redirect
			return
		}
		mux.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: root, ErrorLog: log.New(io.Discard, "", 0)}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	bs := startServer(t, "tcp", &Server{Handler: FromHTTP(root)})

	for _, tt := range diffRequests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, wantOpen := rawExchange(t, func() (net.Conn, error) { return net.Dial("tcp", ln.Addr().String()) }, tt.raw)
			got, gotOpen := rawExchange(t, bs.dial, tt.raw)
			if got != want {
				t.Errorf("brisk:\n%s\nnet/http:\n%s", got, want)
			}
			if why, ok := openDiffers[tt.name]; ok {
				t.Log(why)
			} else if gotOpen != wantOpen {
				t.Errorf("connection open after the response: brisk %v, net/http %v", gotOpen, wantOpen)
			}
		})
	}
}

// rawExchange sends raw on a new connection and returns the raw response
// bytes with Date values blanked, and whether the connection then stayed
// open.
func rawExchange(t *testing.T, dial func() (net.Conn, error), raw string) (string, bool) {
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
	var got bytes.Buffer
	br := bufio.NewReader(io.TeeReader(nc, &got))
	method, _, _ := strings.Cut(raw, " ")
	var resp *http.Response
	for {
		resp, err = http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			t.Fatalf("reading response: %v (got %q)", err, got.String())
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 200 {
			break
		}
	}
	wait := 50 * time.Millisecond
	if resp.Close {
		wait = 2 * time.Second // net/http lingers 500 ms before it closes
	}
	nc.SetReadDeadline(time.Now().Add(wait))
	_, err = br.ReadByte()
	open := err != nil && isTimeout(err)
	return noDate(got.String()), open
}

// diffServers serves h with net/http.Server and through FromHTTP on
// brisk (configured by s, nil for the defaults), until the test ends, and
// returns how to dial each.
func diffServers(t *testing.T, h http.Handler, s *Server) (netHTTP, brisk func() (net.Conn, error)) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h, ErrorLog: log.New(io.Discard, "", 0)}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	if s == nil {
		s = &Server{}
	}
	s.Handler = FromHTTP(h)
	bs := startServer(t, "tcp", s)
	return func() (net.Conn, error) { return net.Dial("tcp", ln.Addr().String()) }, bs.dial
}
