package brisk

import (
	"reflect"
	"testing"
)

// bridgeSkips lists the Server fields ForBridge does not copy, with the
// reason (TestForBridge checks that every field is in one list).
var bridgeSkips = map[string]string{
	"IdleTimeout":         "a bridged connection carries one request; the transport applies it to its connection",
	"MaxConns":            "counted on s for the transport's connection (HTTP/2, QUIC), not per request",
	"MaxRequestsPerConn":  "a bridged connection carries one request",
	"CloseHijacked":       "HTTP/2 and HTTP/3 streams cannot be hijacked",
	"TLSConfig":           "TLS is the transport's; the bridged request carries its state",
	"TLSHandshakeTimeout": "TLS is the transport's (h3 maps it to the QUIC handshake timeout)",
	"HTTP2":               "the bridge speaks HTTP/1.1 to the handler",
	"H2C":                 "the bridge speaks HTTP/1.1 to the handler",
	"ProxyProtocol":       "a PROXY header precedes the transport's connection and is read by s, whose hand-over reports its source",
	"DrainDelay":          "Drain is s's",
	"ConnState":           "s reports the transport's connection; bridged connections are per request",
	"NoParkIdle":          "a bridged connection is in memory and carries one request: nothing to park",
	"ParkIdleAfter":       "see NoParkIdle",
}

// TestForBridge: ForBridge copies every Server field that bridgeSkips
// does not name, so that a field added to Server must be decided on here.
func TestForBridge(t *testing.T) {
	srv := &Server{Handler: func(*Ctx) {}, ErrorHandler: func(*Ctx, int, error) {}, JSON: &JSONCodec{}}
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
	got := reflect.ValueOf(srv.ForBridge()).Elem()
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
			t.Errorf("Server.%s is neither copied by ForBridge nor in bridgeSkips", f.Name)
		}
	}
}
