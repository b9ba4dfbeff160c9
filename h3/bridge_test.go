package h3

import (
	"reflect"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestBridgeConfig: every exported brisk.Server field is either copied
// to the bridge or listed, with its reason, in bridgeSkips.
func TestBridgeConfig(t *testing.T) {
	srv := &brisk.Server{Handler: describe}
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
	got := reflect.ValueOf(newBridge(srv)).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() || f.Name == "Handler" || f.Name == "Logger" {
			continue
		}
		_, skipped := bridgeSkips[f.Name]
		copied := !v.Field(i).IsZero() && !got.Field(i).IsZero()
		switch {
		case skipped && copied:
			t.Errorf("%s is copied and listed in bridgeSkips", f.Name)
		case !skipped && !copied && !v.Field(i).IsZero():
			t.Errorf("%s is neither copied nor listed in bridgeSkips", f.Name)
		}
	}
}
