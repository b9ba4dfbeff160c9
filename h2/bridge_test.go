package h2

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestBridgeConfig: newBridge copies every brisk.Server field that
// bridgeSkips does not name, so that a field added to brisk.Server must
// be decided on here.
func TestBridgeConfig(t *testing.T) {
	srv := &brisk.Server{Handler: h1Handler, ErrorHandler: func(*brisk.Ctx, int, error) {}, JSON: &brisk.JSONCodec{}}
	v := reflect.ValueOf(srv).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() || f.Name == "Handler" || f.Name == "Logger" {
			continue
		}
		switch fv := v.Field(i); fv.Kind() {
		case reflect.Int, reflect.Int64:
			fv.SetInt(int64(i + 1))
		case reflect.Bool:
			fv.SetBool(true)
		case reflect.String:
			fv.SetString("x")
		case reflect.Slice:
			fv.Set(reflect.MakeSlice(fv.Type(), 1, 1))
		case reflect.Func:
			ft := fv.Type()
			fv.Set(reflect.MakeFunc(ft, func([]reflect.Value) []reflect.Value {
				out := make([]reflect.Value, ft.NumOut())
				for i := range out {
					out[i] = reflect.Zero(ft.Out(i))
				}
				return out
			}))
		}
	}
	b := newBridge(srv)
	got := reflect.ValueOf(b.srv).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() || f.Name == "Handler" || f.Name == "Logger" {
			continue
		}
		_, skipped := bridgeSkips[f.Name]
		gf, vf := got.Field(i), v.Field(i)
		copied := !gf.IsZero() && reflect.DeepEqual(gf.Interface(), vf.Interface())
		if gf.Kind() == reflect.Func {
			copied = !gf.IsZero() && gf.Pointer() == vf.Pointer()
		}
		switch {
		case skipped && copied:
			t.Errorf("%s is copied and in bridgeSkips", f.Name)
		case !skipped && !copied:
			t.Errorf("brisk.Server.%s is neither copied by newBridge nor in bridgeSkips", f.Name)
		}
	}
}

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
