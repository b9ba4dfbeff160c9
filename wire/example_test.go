package wire_test

import (
	"fmt"

	"github.com/brisk-http/brisk/wire"
)

// A client accepts obs-fold in responses (RFC 9112 §5.2) with
// AllowObsFold: the parser writes SP over each obs-fold in the buffer, so
// the field value is one line.
func ExampleParser_ParseResponse_obsFold() {
	buf := []byte("HTTP/1.1 200 OK\r\nX-Note: first\r\n second\r\nContent-Length: 0\r\n\r\n")
	p := wire.Parser{AllowObsFold: true}
	var h wire.ResponseHead
	h.Reset(make([]wire.Field, 16))
	n, err := p.ParseResponse(buf, &h)
	fmt.Println(n, err, h.ObsFold)
	for _, f := range h.Fields {
		fmt.Printf("%s: %q\n", f.Name, f.Value)
	}
	// Output:
	// 62 <nil> true
	// X-Note: "first   second"
	// Content-Length: "0"
}
