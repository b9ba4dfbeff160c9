package brisk_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/brisk-http/brisk"
)

// A handler sees the protocol the request came on, as net/http reports
// it: "HTTP/2.0" for a request of an HTTP/2 stream, whether the brisk
// Server handed the connection to package h2 or a net/http server
// bridged it (ToHTTP, Server.HTTPHandler).
func ExampleCtx_Proto() {
	h := brisk.ToHTTP(func(c *brisk.Ctx) { c.Response.WriteString(c.Proto()) })
	for _, major := range []int{1, 2} {
		r := httptest.NewRequest("GET", "/", nil)
		if major == 2 {
			r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Body.String())
	}
	// Output:
	// HTTP/1.1
	// HTTP/2.0
}
