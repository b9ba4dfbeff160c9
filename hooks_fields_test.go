package brisk

import (
	"fmt"
	"testing"
)

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
