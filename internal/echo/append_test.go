package echo

import (
	"encoding/json"
	"testing"

	"github.com/brisk-http/brisk"
)

// newRequest builds a request the way a client does.
func newRequest(method, target string, fields ...[2]string) *brisk.Request {
	r := new(brisk.Request)
	r.SetMethod(method)
	r.SetTarget(target)
	for _, f := range fields {
		r.Header.Add(f[0], f[1])
	}
	return r
}

// TestAppendDecodes checks the document is valid JSON with the five keys,
// and that every value decodes back to the request's bytes.
func TestAppendDecodes(t *testing.T) {
	r := newRequest("PATCH", "/x?y=1", [2]string{"Host", "h"}, [2]string{"X-A", "1"}, [2]string{"X-A", "2"})
	body := []byte("{\"k\":\"v\"}\n")
	var got struct {
		Headers [][2][]byte
		Body    []byte
		Method  []byte
		Version []byte
		URI     []byte
	}
	out := Append(nil, r, body)
	if err := json.Unmarshal(out, &got); err != nil { // []byte fields decode standard base64
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if string(got.Method) != "PATCH" || string(got.URI) != "/x?y=1" || string(got.Version) != r.Proto() || string(got.Body) != string(body) {
		t.Errorf("decoded %q %q %q %q", got.Method, got.URI, got.Version, got.Body)
	}
	want := [][2]string{{"Host", "h"}, {"X-A", "1"}, {"X-A", "2"}}
	if len(got.Headers) != len(want) {
		t.Fatalf("%d headers, want %d", len(got.Headers), len(want))
	}
	for i, f := range got.Headers {
		if string(f[0]) != want[i][0] || string(f[1]) != want[i][1] {
			t.Errorf("header %d = %q: %q, want %q", i, f[0], f[1], want[i])
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	r := newRequest("GET", "/plaintext", [2]string{"Host", "localhost:8080"},
		[2]string{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"},
		[2]string{"Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"},
		[2]string{"Connection", "keep-alive"})
	buf := Append(nil, r, nil)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = Append(buf[:0], r, nil)
	}
}

// TestAppendAfterPrefix checks that Append appends: bytes already in dst
// are kept, and what follows them is the same document as from nil.
func TestAppendAfterPrefix(t *testing.T) {
	r := newRequest("GET", "/", [2]string{"A", "b"})
	out := Append([]byte("prefix"), r, []byte("xy"))
	if string(out[:6]) != "prefix" {
		t.Errorf("prefix clobbered: %q", out)
	}
	if want := Append(nil, r, []byte("xy")); string(out[6:]) != string(want) {
		t.Errorf("after a prefix: %q, want %q", out[6:], want)
	}
}
