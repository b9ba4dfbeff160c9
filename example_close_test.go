package brisk_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/brisk-http/brisk"
)

// Stopping within a deadline: Shutdown lets the requests in flight
// finish; when the deadline comes first, Close cuts what is left, and
// logs each response it cuts. Here a download that never ends holds
// Shutdown past its 100 ms.
func ExampleServer_Close() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := &brisk.Server{Logger: slog.New(slog.DiscardHandler)} // the cut is logged here
	srv.Handler = func(c *brisk.Ctx) {
		w := c.BodyWriter()
		for { // a stream deaf to c.Context(): only a failed write ends it
			if _, err := w.WriteString("tick\n"); err != nil {
				return
			}
			w.Flush()
			time.Sleep(10 * time.Millisecond)
		}
	}
	go srv.Serve(ln)
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()
	fmt.Fprint(nc, "GET /stream HTTP/1.1\r\nHost: example\r\n\r\n")
	time.Sleep(50 * time.Millisecond)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(ctx); errors.Is(err, context.DeadlineExceeded) {
		fmt.Println("deadline passed: closing")
		srv.Close()
	}
	// Output: deadline passed: closing
}

// Exporting the Accept failures as a counter: AcceptErrors only grows,
// each failure (EMFILE, out of file descriptors, for the most part)
// retried after a pause and logged at most once a second.
func ExampleServer_AcceptErrors() {
	srv := &brisk.Server{}
	// e.g. prometheus.NewCounterFunc(opts, func() float64 { return float64(srv.AcceptErrors()) })
	fmt.Println(srv.AcceptErrors())
	// Output: 0
}
