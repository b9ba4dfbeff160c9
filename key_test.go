package brisk

import (
	"fmt"
	"testing"
)

var (
	userKey  = NewKey[*string]("user")
	countKey = NewKey[int]("count")
)

// TestKeyValues checks Set, Get, replacement, more keys than the inline
// storage, and that reset clears them.
func TestKeyValues(t *testing.T) {
	var c Ctx
	if _, ok := userKey.Get(&c); ok {
		t.Fatal("value before Set")
	}
	name := "ada"
	userKey.Set(&c, &name)
	countKey.Set(&c, 1)
	countKey.Set(&c, 2)
	keys := make([]*Key[int], 2*inlineValues)
	for i := range keys {
		keys[i] = NewKey[int](fmt.Sprint("k", i))
		keys[i].Set(&c, i)
	}
	if u, ok := userKey.Get(&c); !ok || *u != "ada" {
		t.Errorf("user = %v, %v", u, ok)
	}
	if n, ok := countKey.Get(&c); !ok || n != 2 {
		t.Errorf("count = %v, %v", n, ok)
	}
	for i, k := range keys {
		if v, ok := k.Get(&c); !ok || v != i {
			t.Errorf("%v = %v, %v", k, v, ok)
		}
	}
	if len(c.route.values) != 2+len(keys) {
		t.Errorf("%d values stored", len(c.route.values))
	}
	c.route.reset()
	if _, ok := countKey.Get(&c); ok || cap(c.route.values) == 0 {
		t.Errorf("after reset: value kept or storage dropped")
	}
	if userKey.String() != "user" {
		t.Error(userKey.String())
	}
}
