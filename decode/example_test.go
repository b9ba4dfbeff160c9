package decode_test

import (
	"context"
	"fmt"

	"github.com/klauspost/compress/zstd"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/decode"
)

// ExampleAll asks for zstd, br and gzip and reads a zstd body decoded.
func ExampleAll() {
	enc, _ := zstd.NewWriter(nil)
	body := enc.EncodeAll([]byte("decoded by the client"), nil)
	srv := &brisk.Server{Handler: func(c *brisk.Ctx) {
		fmt.Printf("server got Accept-Encoding: %s\n", c.Request.Header.Get("Accept-Encoding"))
		c.Response.Header.Set("Content-Encoding", "zstd")
		c.Response.SetBody(body)
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	c := brisk.Client{ClientConfig: brisk.ClientConfig{Decoders: decode.All(), Dial: ln.DialContext}}
	var req brisk.Request
	var resp brisk.Response
	req.SetURI("http://inmemory/")
	if err := c.Do(&req, &resp); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s (Content-Encoding %q)\n", resp.Body(), resp.Header.Get("Content-Encoding"))
	// Output:
	// server got Accept-Encoding: zstd, br, gzip
	// decoded by the client (Content-Encoding "")
}
