//go:build !race

package brisk

import "testing"

// TestCtxJSONAllocs: Ctx.JSON of a small struct adds no allocation per
// request with encoding/json.
func TestCtxJSONAllocs(t *testing.T) {
	v := &item{ID: 7, Name: "seven"}
	step := stepServer(t, fixture(t, "tfb.http"), func(c *Ctx) { c.JSON(200, v) })
	step()
	step()
	if n := testing.AllocsPerRun(200, func() { step() }); n != 0 {
		t.Errorf("%v allocs per request, want 0", n)
	}
}
