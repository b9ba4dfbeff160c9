package bench

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/h2"
)

// The HTTP/2 client twins: brisk.Client with ClientConfig.HTTP2
// (package h2 over x/net/http2) and net/http's Client (its bundled
// HTTP/2) send the same GET to the same server, net/http's HTTP/2 server
// over TLS answering 200 "Hello, World!", run in a child process so that
// cpu-ns/op is the client's alone (srv-cpu-ns/op the server's). Requests
// come from 16 goroutines per GOMAXPROCS, all on one HTTP/2 connection
// per client. bench/client_h2.sh runs the two interleaved and prints the
// ratios.

// h2ChildEnv, set to "1", makes TestH2HelloServerProcess serve.
const h2ChildEnv = "BRISK_BENCH_H2_CHILD"

// TestH2HelloServerProcess is the child's entry point, skipped unless
// h2ChildEnv is set: TestHelloServerProcess's protocol, over HTTP/2
// with TLS (a throwaway certificate; the clients do not verify it).
func TestH2HelloServerProcess(t *testing.T) {
	if os.Getenv(h2ChildEnv) != "1" {
		t.Skip("the child process of BenchmarkClientH2")
	}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(clientHelloBody)
	}))
	ts.EnableHTTP2 = true
	ts.Config.ErrorLog = log.New(io.Discard, "", 0)
	ts.StartTLS()
	defer ts.Close()
	fmt.Printf("addr %s\n", ts.Listener.Addr())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "cpu" {
			fmt.Printf("cpu %d\n", cpuNanos(clockProcessCPUTime))
		}
	}
}

// h2Endpoint starts the HTTP/2 hello server in a child process.
func h2Endpoint(b *testing.B) endpoint {
	ch, addr := startChild(b, "TestH2HelloServerProcess", h2ChildEnv)
	return endpoint{uri: "https://" + addr + "/plaintext", serverCPU: ch.cpuClock}
}

// BenchmarkClientH2: brisk with its default Timeout (30 s) against
// net/http with Client.Timeout 30 s, and both without a timeout (brisk's
// Timeout -1, net/http's zero), so that each pair keeps the same
// guarantee.
func BenchmarkClientH2(b *testing.B) {
	b.Run("brisk", func(b *testing.B) { benchBriskH2(b, 0) })
	b.Run("nethttp-timeout", func(b *testing.B) { benchNethttpH2(b, 30*time.Second) })
	b.Run("brisk-notimeout", func(b *testing.B) { benchBriskH2(b, -1) })
	b.Run("nethttp", func(b *testing.B) { benchNethttpH2(b, 0) })
}

func benchBriskH2(b *testing.B, timeout time.Duration) {
	ep := h2Endpoint(b)
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{
		HTTP2:     &h2.Transport{},
		TLSConfig: &tls.Config{InsecureSkipVerify: true},
		Timeout:   timeout,
	}}
	defer c.CloseIdleConnections()
	b.SetParallelism(16)
	runClient(b, ep, func() (clientDo, error) {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI(ep.uri)
		return func() (int, []byte, error) {
			err := c.Do(&req, &resp)
			if err == nil && resp.Proto() != "HTTP/2.0" {
				err = fmt.Errorf("proto %s", resp.Proto())
			}
			return resp.StatusCode(), resp.Body(), err
		}, nil
	})
}

func benchNethttpH2(b *testing.B, timeout time.Duration) {
	ep := h2Endpoint(b)
	tr := &http.Transport{ForceAttemptHTTP2: true, TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	defer tr.CloseIdleConnections()
	b.SetParallelism(16)
	runClient(b, ep, nethttpDo(&http.Client{Transport: tr, Timeout: timeout}, ep.uri, 64))
}
