package brisk

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// TestFromHTTPBodyStreams checks that Body reads from the connection as
// the handler asks: the handler gets the first half of the body before
// the client sends the second.
func TestFromHTTPBodyStreams(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		half := make(chan string, 1)
		ts := startServer(t, tr, &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b := make([]byte, 5)
			n, err := io.ReadFull(r.Body, b)
			half <- string(b[:n])
			if err != nil {
				return
			}
			rest, err := io.ReadAll(r.Body)
			io.WriteString(w, string(b)+"+"+string(rest)+"|"+errString(err))
		}))})
		c := ts.connect()
		c.sendSync("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nfirst")
		select {
		case got := <-half:
			if got != "first" {
				t.Fatalf("first half %q", got)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("handler did not get the first half before the rest was sent")
		}
		c.sendSync("later")
		if _, body := c.read("POST"); body != "first+later|<nil>" {
			t.Errorf("body %q", body)
		}
	})
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestFromHTTPExpectContinue checks that the first Body read sends
// "100 Continue" to a client waiting for it, before the final response.
func TestFromHTTPExpectContinue(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			w.Write(b)
		}))})
		c := ts.connect()
		c.sendSync("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
		want := "HTTP/1.1 100 Continue\r\n\r\n"
		got := make([]byte, len(want))
		if _, err := io.ReadFull(c.br, got); err != nil || string(got) != want {
			t.Fatalf("interim %q, %v; want %q", got, err, want)
		}
		c.sendSync("data")
		if resp, body := c.read("POST"); resp.StatusCode != 200 || body != "data" {
			t.Errorf("final %d %q", resp.StatusCode, body)
		}
	})
}

// TestFromHTTPBodyLimit checks that a chunked body past MaxBodyBytes
// fails the handler's read with an *http.MaxBytesError, and the response
// is 413 with the connection closed.
func TestFromHTTPBodyLimit(t *testing.T) {
	errs := make(chan error, 1)
	ts := startServer(t, "tcp", &Server{MaxBodyBytes: 4, Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		errs <- err
		w.WriteHeader(413)
	}))})
	c := ts.connect()
	resp, _ := c.roundTrip("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n0\r\n\r\n")
	var mbe *http.MaxBytesError
	if err := <-errs; !errors.As(err, &mbe) || mbe.Limit != 4 {
		t.Errorf("read error %v, want *http.MaxBytesError with Limit 4", err)
	}
	if resp.StatusCode != 413 {
		t.Errorf("status %d, want 413", resp.StatusCode)
	}
	c.expectClosed()
}

// TestFromHTTPContext checks Request.Context: cancelled once the handler
// returned, when the client closes (the default, with a body read
// first) and on Shutdown.
func TestFromHTTPContext(t *testing.T) {
	t.Run("handler_returned", func(t *testing.T) {
		ctxs := make(chan context.Context, 1)
		ts := startServer(t, "tcp", &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Context().Err() != nil {
				t.Error("context cancelled while the handler runs")
			}
			ctxs <- r.Context()
		}))})
		ts.connect().roundTrip(get("/"))
		select {
		case <-(<-ctxs).Done():
		case <-time.After(3 * time.Second):
			t.Fatal("context not cancelled after the handler returned")
		}
	})
	t.Run("client_closed", func(t *testing.T) {
		done := make(chan error, 1)
		ts := startServer(t, "tcp", &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body)
			select {
			case <-r.Context().Done():
				done <- nil
			case <-time.After(3 * time.Second):
				done <- errors.New("context not cancelled after the client closed")
			}
		}))})
		c := ts.connect()
		c.sendSync("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
		time.Sleep(50 * time.Millisecond)
		c.nc.Close()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
	t.Run("shutdown", func(t *testing.T) {
		done := make(chan error, 1)
		started := make(chan struct{})
		s := &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(started)
			select {
			case <-r.Context().Done():
				done <- nil
			case <-time.After(3 * time.Second):
				done <- errors.New("context not cancelled by Shutdown")
			}
		}))}
		ts := startServer(t, "tcp", s)
		ts.connect().send(get("/"))
		<-started
		go s.Shutdown(context.Background())
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

// TestFromHTTPResponseController checks http.NewResponseController on
// the adaptor's ResponseWriter: deadlines and full duplex are supported,
// Flush sends the head and the body so far, and Hijack hands over the
// connection with the pipelined bytes in the reader.
func TestFromHTTPResponseController(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		flushed := make(chan struct{})
		ts := startServer(t, tr, &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rc := http.NewResponseController(w)
			if r.URL.Path == "/flush" {
				for _, err := range []error{
					rc.SetReadDeadline(time.Now().Add(time.Minute)),
					rc.SetWriteDeadline(time.Now().Add(time.Minute)),
					rc.EnableFullDuplex(),
				} {
					if err != nil {
						t.Errorf("ResponseController: %v", err)
					}
				}
				io.WriteString(w, "early")
				if err := rc.Flush(); err != nil {
					t.Errorf("Flush: %v", err)
				}
				<-flushed
				io.WriteString(w, "late")
				return
			}
			nc, brw, err := rc.Hijack()
			if err != nil {
				t.Errorf("Hijack: %v", err)
				return
			}
			defer nc.Close()
			line, _ := brw.ReadString('\n')
			if _, err := w.Write([]byte("x")); !errors.Is(err, http.ErrHijacked) {
				t.Errorf("Write after Hijack: %v, want http.ErrHijacked", err)
			}
			brw.WriteString("owner got " + line)
			brw.Flush()
		}))})
		c := ts.connect()
		c.send(get("/flush"))
		resp, err := http.ReadResponse(c.br, nil)
		if err != nil {
			t.Fatal(err)
		}
		early := make([]byte, 5)
		if _, err := io.ReadFull(resp.Body, early); err != nil || string(early) != "early" {
			t.Fatalf("flushed body %q, %v", early, err)
		}
		close(flushed)
		rest, _ := io.ReadAll(resp.Body)
		if string(rest) != "late" || resp.TransferEncoding[0] != "chunked" {
			t.Errorf("rest %q, transfer coding %v", rest, resp.TransferEncoding)
		}

		c = ts.connect()
		c.send("GET /hijack HTTP/1.1\r\nHost: x\r\n\r\npipelined line\n")
		raw, _ := io.ReadAll(c.br)
		if string(raw) != "owner got pipelined line\n" {
			t.Errorf("hijacked connection got %q", raw)
		}
	})
}

// TestFromHTTPAbortHandler checks panic(http.ErrAbortHandler): the
// response is cut short by closing the connection and nothing is logged,
// as net/http does.
func TestFromHTTPAbortHandler(t *testing.T) {
	var logged syncbuf.Buffer
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	ts := startServer(t, "tcp", &Server{Logger: logger, Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		io.WriteString(w, "partial")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))})
	c := ts.connect()
	c.send(get("/"))
	raw, err := io.ReadAll(c.br)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(raw), "\r\n\r\npartial") || !strings.Contains(string(raw), "Content-Length: 100") {
		t.Errorf("got %q, want the head and the partial body, then the close", raw)
	}
	if logged.String() != "" {
		t.Errorf("logged %q", logged.String())
	}
}

// TestFromHTTPTLS checks Request.TLS on a TLS connection: the handshake
// state of the *tls.Conn the server accepted.
func TestFromHTTPTLS(t *testing.T) {
	hts := httptest.NewTLSServer(http.NotFoundHandler()) // for its certificate and client
	defer hts.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			io.WriteString(w, "no TLS")
			return
		}
		fmt.Fprintf(w, "%s complete=%v sni=%q", tls.VersionName(r.TLS.Version), r.TLS.HandshakeComplete, r.TLS.ServerName)
	}))}
	go s.Serve(tls.NewListener(ln, hts.TLS))
	defer s.Shutdown(context.Background())
	resp, err := hts.Client().Get("https://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `TLS 1.3 complete=true sni=""` {
		t.Errorf("handler saw %q", body)
	}
}

// TestOriginURL compares the allocation-free URL of simple origin-form
// targets with url.ParseRequestURI's, on fixed and random targets.
func TestOriginURL(t *testing.T) {
	targets := []string{"/", "/a/b", "/a?", "/a?b", "/a?b?", "/a??", "/?", "/a?b=c&d=%2F#x", "//x/y", "/a;b,c=d@e:f$g&h+i",
		"/a~b-c_d.e", "/a b", "/a%20b", "/a!b", "/a*b", "/a'b", "/(x)", "*", "a/b", "/a#b", "/a?#"}
	const alphabet = "/?aZ9-._~$&+,:;=@!*'()%#[] "
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := []byte{'/'}
		for range rng.IntN(12) {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		targets = append(targets, string(b))
	}
	for _, target := range targets {
		var got url.URL
		if !originURL(&got, target) {
			continue
		}
		want, err := url.ParseRequestURI(target)
		if err != nil || got != *want {
			t.Fatalf("%q: originURL %#v, url.ParseRequestURI %#v, %v", target, got, want, err)
		}
	}
}

// TestFromHTTPNoInterimToHTTP10: a WriteHeader(103) sends nothing to an
// HTTP/1.0 request (RFC 9110 §15.2: a server must not send it a 1xx,
// though net/http does); the final response is unchanged.
func TestFromHTTPNoInterimToHTTP10(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", "</a.css>; rel=preload")
		w.WriteHeader(103)
		w.Header().Del("Link")
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "final")
	}))})
	c := ts.connect()
	c.sendSync("GET / HTTP/1.0\r\nHost: x\r\n\r\n")
	want := "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nDate: D\r\nContent-Length: 5\r\n\r\nfinal"
	if got := c.readUntilClose(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
