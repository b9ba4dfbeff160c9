package h2

import (
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestBridgedHandler: with Config.Handler nil, HTTP/2 requests reach the
// brisk Server's own handler, over TLS with Ctx.TLS set, and over h2c.
func TestBridgedHandler(t *testing.T) {
	h := func(c *brisk.Ctx) {
		proto := "cleartext"
		if st := c.TLS(); st != nil {
			proto = st.NegotiatedProtocol
		}
		c.Response.SetBodyString("brisk " + string(c.Request.Method()) + " " + string(c.Request.Path()) + " " + proto)
	}
	for _, tlsOn := range []bool{true, false} {
		srv := &brisk.Server{Handler: h, H2C: !tlsOn, Name: "briskd", WriteTimeout: time.Second}
		if err := Configure(srv, Config{}); err != nil {
			t.Fatal(err)
		}
		addr := serve(t, srv, tlsOn)
		scheme := map[bool]string{true: "https", false: "http"}[tlsOn]
		resp, err := h2Client(t, tlsOn).Do(mustRequest(t, "POST", scheme+"://"+addr+"/x", strings.NewReader("body")))
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp)
		want := map[bool]string{true: "brisk POST /x h2", false: "brisk POST /x cleartext"}[tlsOn]
		if resp.ProtoMajor != 2 || body != want || resp.Header.Get("Server") != "briskd" {
			t.Fatalf("%s: %s %q Server=%q, want HTTP/2 %q Server=briskd", scheme, resp.Proto, body, resp.Header.Get("Server"), want)
		}
	}
}
