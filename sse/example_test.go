package sse_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/sse"
)

// The README's Server-Sent Events example, exactly (TestREADMEExample).

// clock sends the time every second, numbered from the client's
// Last-Event-ID, until the client leaves or the server shuts down.
func clock(c *brisk.Ctx) {
	s, err := sse.New(c, nil)
	if err != nil {
		return // the client is gone
	}
	n, _ := strconv.Atoi(s.LastEventID()) // 0 on a first connection
	ticks, done := make(chan sse.Event), make(chan struct{})
	defer close(done)
	go func() { // stands for any source of events
		for t := time.Tick(time.Second); ; n++ {
			select {
			case ticks <- sse.Event{ID: strconv.Itoa(n + 1), Data: time.Now().Format(time.RFC3339)}:
			case <-done:
				return
			}
			<-t
		}
	}()
	s.Serve(ticks)
}

// ExampleStream_Serve serves the README's clock and reads its first
// event, as a browser's EventSource reconnecting after event 41 would.
func ExampleStream_Serve() {
	srv := &brisk.Server{Handler: clock}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	client := &http.Client{Transport: &http.Transport{DialContext: ln.DialContext}}
	req, _ := http.NewRequest("GET", "http://example.com/clock", nil)
	req.Header.Set("Last-Event-ID", "41")
	resp, err := client.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.Header.Get("Content-Type"))
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	fmt.Print(line)
	// Output:
	// text/event-stream
	// id: 42
}

// TestREADMEExample: the README's Server-Sent Events example is the code
// above, byte for byte, so that it compiles as written.
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "\n```go\n// clock ")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatal("README.md has no Go block starting with \"// clock \"")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "\n\n// clock "+block+"\n\n") {
		t.Errorf("README.md's SSE example differs from the code in sse/example_test.go:\n%s", block)
	}
}
