package brisk_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/brisk-http/brisk"
)

// A server parks idle keep-alive connections by default (on Linux): an
// idle connection then holds no goroutine. ParkIdleAfter sets how long a
// connection waits in its goroutine first; NoParkIdle turns parking off.
func ExampleServer_parkIdle() {
	s := &brisk.Server{
		Handler:       func(c *brisk.Ctx) { c.Response.SetBodyString("hello") },
		ParkIdleAfter: 5 * time.Second, // parked after 5 s without a request
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())

	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, string(body))
	// Output: 200 hello
}
