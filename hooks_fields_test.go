package brisk

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// TestRequestInfoLoggedFields: OnRequestDone gets each request's Host,
// User-Agent, Referer and X-Request-ID, also for pipelined requests
// whose completion waits in the queue while the next request reuses the
// request's storage; absent or empty fields are nil.
func TestRequestInfoLoggedFields(t *testing.T) {
	var in strings.Builder
	const n = 5
	for i := range n {
		fmt.Fprintf(&in, "GET /%d HTTP/1.1\r\nHost: h%d\r\nuser-agent: ua/%d\r\nReferer: http://r/%d\r\nX-Request-Id: id-%d\r\n\r\n", i, i, i, i, i)
	}
	in.WriteString("GET http://abs.example/x HTTP/1.1\r\nHost: ignored\r\nUser-Agent:\r\nConnection: close\r\n\r\n")
	nc := newScriptConn(in.String(), -1)
	var mu sync.Mutex
	var got []string
	s := &Server{Handler: func(c *Ctx) {}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s.OnRequestDone = func(in *RequestInfo) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%s host=%q ua=%q ref=%q id=%q nil=%v", in.Target, in.Host, in.UserAgent, in.Referer, in.RequestID,
			in.UserAgent == nil && in.Referer == nil && in.RequestID == nil))
	}
	ln := fakenet.NewListener()
	go s.Serve(ln)
	ln.Push(nc)
	select {
	case <-nc.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("connection not closed")
	}
	s.Shutdown(context.Background())
	mu.Lock()
	defer mu.Unlock()
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf(`/%d host="h%d" ua="ua/%d" ref="http://r/%d" id="id-%d" nil=false`, i, i, i, i, i))
	}
	want = append(want, `http://abs.example/x host="abs.example" ua="" ref="" id="" nil=true`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRequestInfoClientIP: RequestInfo.ClientIP follows the trusted
// forwarding field, as Ctx.ClientIP does; a peer not trusted is itself;
// without TrustedProxies it is left zero.
func TestRequestInfoClientIP(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
		want    string
	}{
		{"trusted", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, "203.0.113.7"},
		{"peer_untrusted", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, "127.0.0.1"},
		{"no_trusted_proxies", nil, "invalid IP"}, // not computed: RemoteAddr's
	} {
		t.Run(tc.name, func(t *testing.T) {
			ips := make(chan netip.Addr, 1)
			s := &Server{Handler: func(c *Ctx) {}, TrustedProxies: tc.trusted,
				OnRequestDone: func(in *RequestInfo) { ips <- in.ClientIP }}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go s.Serve(ln)
			defer s.Shutdown(context.Background())
			nc, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			io.WriteString(nc, "GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.1, 203.0.113.7\r\n\r\n")
			select {
			case ip := <-ips:
				if ip.String() != tc.want {
					t.Errorf("ClientIP %s, want %s", ip, tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no OnRequestDone")
			}
		})
	}
}

// TestRequestInfoRefererUserAgent: RequestInfo carries each request's
// Referer and User-Agent, also for pipelined requests whose completion
// waits for the batched write (copied), and nil when absent.
func TestRequestInfoRefererUserAgent(t *testing.T) {
	got := make(chan string, 3)
	ts := startServer(t, "inmemory", &Server{
		Handler: echoPath,
		OnRequestDone: func(in *RequestInfo) {
			got <- fmt.Sprintf("%s %q %q", in.Target, in.Referer, in.UserAgent)
		},
	})
	c := ts.connect()
	c.send("GET /a HTTP/1.1\r\nHost: x\r\nReferer: https://r.example/1\r\nUser-Agent: ua/1\r\n\r\n" +
		"GET /b HTTP/1.1\r\nHost: x\r\nUser-Agent: ua/2\r\n\r\n" +
		"GET /c HTTP/1.1\r\nHost: x\r\n\r\n")
	for range 3 {
		c.read("GET")
	}
	for _, want := range []string{`/a "https://r.example/1" "ua/1"`, `/b "" "ua/2"`, `/c "" ""`} {
		if g := <-got; g != want {
			t.Errorf("got %s, want %s", g, want)
		}
	}
}
