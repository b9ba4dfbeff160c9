package brisk

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestArgsPeek(t *testing.T) {
	tests := []struct {
		name, raw, key string
		want           string
		found          bool
	}{
		{"first", "a=1&b=2", "a", "1", true},
		{"last", "a=1&b=2", "b", "2", true},
		{"missing", "a=1&b=2", "c", "", false},
		{"first_of_duplicates", "a=1&a=2", "a", "1", true},
		{"plus_is_space", "q=caf%C3%A9+au+lait", "q", "café au lait", true},
		{"encoded_name", "a%62c=1", "abc", "1", true},
		{"plus_in_name", "a+b=1", "a b", "1", true},
		{"no_equals", "flag&x=1", "flag", "", true},
		{"empty_value", "a=&b=2", "a", "", true},
		{"empty_pairs_skipped", "&&a=1&&", "a", "1", true},
		{"empty_name", "=1&a=2", "", "1", true},
		{"value_with_equals", "a=b=c", "a", "b=c", true},
		{"bad_escape_kept", "a=%zz%4", "a", "%zz%4", true},
		{"encoded_ampersand", "a=x%26y&b=2", "a", "x&y", true},
		{"prefix_is_not_match", "ab=1&a=2", "a", "2", true},
		{"name_longer_than_key", "a=1", "ab", "", false},
		{"escaped_name_mismatch", "a%63=1", "ab", "", false},
		{"empty_raw", "", "a", "", false},
		{"encoded_name_before_plain", "s%6Frt=1&sort=2", "sort", "1", true},
		{"plus_name_before_plain", "a+b=1&a b=2", "a b", "1", true},
		{"name_inside_value", "x=id&id=2", "id", "2", true},
		{"name_after_escape", "x=%41&a=2", "a", "2", true},
		{"suffix_is_not_match", "xa=1&a=2", "a", "2", true},
		{"no_equals_last", "x=1&flag", "flag", "", true},
		{"name_then_ampersand", "a&a=2", "a", "", true},
		{"value_after_plain_prefix_decoded", "a=x+y", "a", "x y", true},
		{"name_with_equals", "a=b=1&a%3Db=2", "a=b", "2", true},
		{"name_is_equals", "=", "=", "", false},
		{"name_with_ampersand", "a&b=1&a%26b=2", "a&b", "2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a Args
			a.Reset([]byte(tt.raw))
			got := a.Peek(tt.key)
			if string(got) != tt.want || (got != nil) != tt.found {
				t.Fatalf("Peek(%q) in %q = %q (nil %v), want %q (found %v)", tt.key, tt.raw, got, got == nil, tt.want, tt.found)
			}
			if a.Has(tt.key) != tt.found {
				t.Fatalf("Has(%q) = %v", tt.key, !tt.found)
			}
		})
	}
}

func TestRawNameIs(t *testing.T) {
	tests := []struct {
		name, pair, key string
		want            int
	}{
		{"equal_then_eq", "id=1", "id", 2},
		{"equal_no_eq", "id", "id", 2},
		{"empty_name", "=1", "", 0},
		{"empty_name_no_match", "a=1", "", -1},
		{"differs", "ix=1", "id", -1},
		{"pair_name_shorter", "i=1", "id", -1},
		{"pair_shorter_no_eq", "i", "id", -1},
		{"pair_name_longer", "idx=1", "id", -1},
		{"longer_by_escape", "id%41=1", "id", -1},
		{"escape_at_difference", "i%64=1", "id", nameEscaped},
		{"plus_at_difference", "a+b=1", "a b", nameEscaped},
		{"escape_first", "%69d=1", "id", nameEscaped},
		{"key_has_eq", "a=b=1", "a=b", -1},
		{"key_has_percent", "%41=1", "%41", nameEscaped},
		{"key_has_plus", "a+b=1", "a+b", nameEscaped},
		{"key_has_amp", "a=1", "a&", -1},
		{"value_is_not_name", "x=id", "id", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rawNameIs([]byte(tt.pair), tt.key); got != tt.want {
				t.Fatalf("rawNameIs(%q, %q) = %d, want %d", tt.pair, tt.key, got, tt.want)
			}
		})
	}
}

func TestArgsIterators(t *testing.T) {
	var a Args
	a.Reset([]byte("a=1&b=x+y&&a=%32&c&a=3"))
	var all []string
	for k, v := range a.All() {
		all = append(all, string(k)+":"+string(v))
	}
	if got := strings.Join(all, ","); got != "a:1,b:x y,a:2,c:,a:3" {
		t.Fatalf("All = %s", got)
	}
	var vals []string
	for v := range a.Values("a") {
		vals = append(vals, string(v))
		if len(vals) == 2 {
			break
		}
	}
	if got := strings.Join(vals, ","); got != "1,2" {
		t.Fatalf("Values(a) with break = %s", got)
	}
	if a.Len() != 5 {
		t.Fatalf("Len = %d, want 5", a.Len())
	}
}

// TestArgsBeyondIndex checks pairs past the remembered ones.
func TestArgsBeyondIndex(t *testing.T) {
	var b strings.Builder
	const n = maxIndexedArgs*2 + 3
	for i := range n {
		fmt.Fprintf(&b, "k%d=v%d&", i, i)
	}
	var a Args
	a.Reset([]byte(b.String()))
	for _, i := range []int{n - 1, 0, maxIndexedArgs, maxIndexedArgs - 1, n - 2} {
		if got := a.Peek(fmt.Sprintf("k%d", i)); string(got) != fmt.Sprintf("v%d", i) {
			t.Fatalf("Peek(k%d) = %q", i, got)
		}
	}
	if a.Len() != n {
		t.Fatalf("Len = %d, want %d", a.Len(), n)
	}
}

// TestArgsEveryCount peeks at every pair of queries of 1 to 34 pairs,
// ending with and without "&", so that the first bytes are stored at
// every position in their words, and the last word is full or not.
func TestArgsEveryCount(t *testing.T) {
	for n := 1; n <= maxIndexedArgs+2; n++ {
		for _, tail := range []string{"", "&"} {
			var b strings.Builder
			for i := range n {
				if i > 0 {
					b.WriteByte('&')
				}
				fmt.Fprintf(&b, "%c%d=v%d", 'a'+i%3, i, i)
			}
			b.WriteString(tail)
			var a Args
			a.Reset([]byte(b.String()))
			for i := n - 1; i >= 0; i-- {
				if got := a.Peek(fmt.Sprintf("%c%d", 'a'+i%3, i)); string(got) != fmt.Sprintf("v%d", i) {
					t.Fatalf("%d pairs %q: Peek of pair %d = %q", n, tail, i, got)
				}
			}
			if a.Has("\x00") || a.Has("a") {
				t.Fatalf("%d pairs %q: Has of a missing name", n, tail)
			}
		}
	}
}

func TestArgsReset(t *testing.T) {
	var a Args
	a.Reset([]byte("a=x+1&b=2"))
	if string(a.Peek("a")) != "x 1" {
		t.Fatal("first Reset")
	}
	a.Reset([]byte("b=3"))
	if a.Peek("a") != nil || string(a.Peek("b")) != "3" || string(a.Raw()) != "b=3" {
		t.Fatal("state kept across Reset")
	}
	// The first bytes of the 9 pairs before stay in the index past the 1
	// pair after: none may be taken for a pair.
	a.Reset([]byte("x=1&y=2&z=3&a=4&c=5&d=6&e=7&f=8&g=9"))
	if string(a.Peek("g")) != "9" {
		t.Fatal("ninth pair")
	}
	a.Reset([]byte("b=3"))
	for _, name := range []string{"x", "y", "a", "g", "c"} {
		if a.Peek(name) != nil || a.Has(name) {
			t.Fatalf("pair %q kept across Reset", name)
		}
	}
}

func TestArgsValueCapacity(t *testing.T) {
	var a Args
	a.Reset([]byte("a=x+1&b=y+2"))
	va := a.Peek("a")
	vb := a.Peek("b")
	_ = append(va, '!')
	if string(vb) != "y 2" {
		t.Fatalf("appending to one value changed another: %q", vb)
	}
}

// FuzzArgs compares Args with net/url.ParseQuery on inputs both accept,
// and Peek and Values with All: for every name, after the index is built
// too.
func FuzzArgs(f *testing.F) {
	for _, s := range []string{"a=1&b=2", "a=%zz", "q=caf%C3%A9+au+lait&a=1&a=2", "&&=&a", "a%62=c",
		strings.Repeat("a%62=1&ab=2&+a=3&", 12) + "z=4&ab=5", "a=" + strings.Repeat("x%41+", 40) + "&b=1"} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, raw, name string) {
		var a Args
		a.Reset([]byte(raw))
		got := a.Peek(name)
		var n int
		seen := false
		for k, v := range a.All() {
			if !seen && string(k) == name {
				seen = true
				if string(v) != string(got) {
					t.Fatalf("Peek(%q) = %q but All gives %q", name, got, v)
				}
			}
			n++
		}
		if seen != (got != nil) {
			t.Fatalf("Peek(%q) = %q but All found it: %v", name, got, seen)
		}
		if n != a.Len() {
			t.Fatalf("All yields %d pairs, Len = %d", n, a.Len())
		}
		first := map[string]string{} // each name's first value, by All
		for k, v := range a.All() {
			if _, ok := first[string(k)]; !ok {
				first[string(k)] = string(v)
			}
		}
		for k, v := range first { // lookups after the index is built
			if got := a.Peek(k); got == nil || string(got) != v {
				t.Fatalf("Peek(%q) in %q = %q, All gives %q first", k, raw, got, v)
			}
		}
		var values, want []string // Values(name) is All filtered by name
		for v := range a.Values(name) {
			values = append(values, string(v))
		}
		for k, v := range a.All() {
			if string(k) == name {
				want = append(want, string(v))
			}
		}
		if !slices.Equal(values, want) {
			t.Fatalf("Values(%q) in %q = %q, All gives %q", name, raw, values, want)
		}
		if strings.Contains(raw, ";") {
			return // net/url rejects ";" separators
		}
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		want, ok := q[name]
		if ok != (got != nil) || ok && want[0] != string(got) {
			t.Fatalf("Peek(%q) in %q = %q, net/url says %q", name, raw, got, want)
		}
	})
}

// TestArgsIterationReference compares All and Values with a plain
// reference (split at "&", then at the first "=", decode with
// refFormDecode) on random queries of every length up to 200, with pairs
// that end in, at the end of and past a 64-byte window, and pairs longer
// than a window.
func TestArgsIterationReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for n := 0; n <= 200; n++ {
		for range 20 {
			b := make([]byte, n)
			long := rng.IntN(3) == 0 // few "&": pairs longer than 64 bytes
			for k := range b {
				switch r := rng.IntN(12); {
				case r == 0 && !long || r == 0 && rng.IntN(8) == 0:
					b[k] = '&'
				case r == 1:
					b[k] = '='
				default:
					b[k] = "a%+2F"[rng.IntN(5)]
				}
			}
			var want, got []string
			var wantA, gotA []string
			for _, p := range strings.Split(string(b), "&") {
				if p == "" {
					continue
				}
				k, v, _ := strings.Cut(p, "=")
				k, v = string(refFormDecode([]byte(k))), string(refFormDecode([]byte(v)))
				want = append(want, k+"\x00"+v)
				if k == "a" {
					wantA = append(wantA, v)
				}
			}
			var a Args
			a.Reset(b)
			for k, v := range a.All() {
				got = append(got, string(k)+"\x00"+string(v))
			}
			for v := range a.Values("a") {
				gotA = append(gotA, string(v))
			}
			if !slices.Equal(got, want) || !slices.Equal(gotA, wantA) {
				t.Fatalf("%q: All = %q, want %q; Values(a) = %q, want %q", b, got, want, gotA, wantA)
			}
		}
	}
}
