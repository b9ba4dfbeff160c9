package wire

import (
	"bytes"
	"fmt"
	"testing"
)

// addHeadSeeds adds the fixtures and the table inputs to a fuzz corpus.
func addHeadSeeds(f *testing.F) {
	for _, name := range fixtureNames {
		f.Add(readFixture(f, name), uint16(17))
	}
	for _, c := range validRequests {
		if len(c.in) < 1000 {
			f.Add([]byte(c.in), uint16(len(c.in)/2))
		}
	}
	for _, c := range rejectRequests {
		if len(c.in) < 1000 {
			f.Add([]byte(c.in), uint16(len(c.in)/3))
		}
	}
	for _, c := range validResponses {
		f.Add([]byte(c.in), uint16(9))
	}
	for _, c := range obsFoldCases {
		f.Add([]byte(c.in), uint16(20))
	}
}

// checkSane checks a successful parse: n within buf and Raw a sub-slice
// of the head ending right before the final line ending.
func checkSane(t *testing.T, buf []byte, n int, fs *FieldSection) {
	t.Helper()
	if n <= 0 || n > len(buf) {
		t.Fatalf("n = %d out of 1..%d", n, len(buf))
	}
	if fs.Raw == nil {
		t.Fatalf("Raw is nil")
	}
	off := cap(buf) - cap(fs.Raw)
	end := off + len(fs.Raw)
	if off < 0 || end > n || !(end == n-2 && buf[n-2] == '\r' || end == n-1) {
		t.Fatalf("Raw at %d..%d, head ends at %d", off, end, n)
	}
	for _, f := range fs.Fields {
		if len(f.Name) == 0 {
			t.Fatalf("empty field name")
		}
		if cap(f.Name) != len(f.Name) || cap(f.Value) != len(f.Value) {
			t.Fatalf("field %q: %q has capacity %d, %d: appending would write over the input", f.Name, f.Value, cap(f.Name), cap(f.Value))
		}
	}
	if cap(fs.Host) != len(fs.Host) {
		t.Fatalf("Host %q has capacity %d", fs.Host, cap(fs.Host))
	}
}

// fuzzSplit compares the whole parse with byte-by-byte feeding and with a
// split at cut. Accepts must be identical. Rejects must agree on being
// rejects; the kind may differ in one known way: a later piece of a line
// is only checked for bare CR and token bytes before the line ends, so
// with two errors in one line, split feeding can report the later one.
func fuzzSplit(t *testing.T, whole result, feed func(cuts []int) result, n, cut int) {
	one := make([]int, 0, n)
	for k := 1; k < n; k++ {
		one = append(one, k)
	}
	for _, cuts := range [][]int{one, {cut % (n + 1)}} {
		r := feed(cuts)
		if (r.kind == 0) != (whole.kind == 0) || whole.kind == 0 && r != whole {
			t.Fatalf("cuts %v:\n got %v\nwant %v", cuts, r, whole)
		}
		if whole.kind == ErrNeedMore && r.kind != ErrNeedMore {
			t.Fatalf("cuts %v: %v, whole needs more", cuts, r)
		}
	}
}

func FuzzParseRequest(f *testing.F) {
	addHeadSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		if len(data) > 4096 {
			return
		}
		for _, p := range []Parser{{}, {AllowBareLF: true, AllowEmptyHost: true, MaxRequestLineBytes: 64, MaxHeaderBytes: 512}, {noLookAhead: true, noQuickFields: true}} {
			buf := data[:len(data):len(data)]
			var h RequestHead
			h.Reset(make([]Field, 128))
			n, err := p.ParseRequest(buf, &h)
			if err == nil {
				checkSane(t, buf, n, &h.FieldSection)
			} else if KindOf(err) == 0 {
				t.Fatalf("err %v has no kind", err)
			}
			whole := outcome(n, err, describeRequest(&h))
			fuzzSplit(t, whole, func(cuts []int) result { return feedRequest(t, &p, buf, cuts) }, len(buf), int(cut))
		}
	})
}

func FuzzParseResponse(f *testing.F) {
	addHeadSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		if len(data) > 4096 {
			return
		}
		for _, p := range []Parser{{}, {AllowBareLF: true, MaxHeaderBytes: 512}, {noLookAhead: true, noQuickFields: true}, {AllowObsFold: true}} {
			// A fresh copy for each parse: AllowObsFold writes over buf.
			buf := bytes.Clone(data[:len(data):len(data)])
			var h ResponseHead
			h.Reset(make([]Field, 128))
			n, err := p.ParseResponse(buf, &h)
			if err == nil {
				checkSane(t, buf, n, &h.FieldSection)
				if h.StatusCode < 100 || h.StatusCode > 599 {
					t.Fatalf("status %d", h.StatusCode)
				}
			} else if KindOf(err) == 0 {
				t.Fatalf("err %v has no kind", err)
			}
			whole := outcome(n, err, describeResponse(&h))
			if h.ObsFold && err == nil {
				checkUnfolded(t, buf[:len(buf):len(buf)], whole)
			}
			feed := func(cuts []int) result { return feedResponse(t, &p, bytes.Clone(data), cuts) }
			fuzzSplit(t, whole, feed, len(buf), int(cut))
		}
	})
}

// checkUnfolded checks that buf, a whole head with its obs-folds replaced
// by AllowObsFold, is the same head without obs-fold to the strict parser.
// (A head cut short or rejected may end in a continuation line not
// unfolded yet, which the strict parser rejects as ErrObsFold.)
func checkUnfolded(t *testing.T, buf []byte, folded result) {
	t.Helper()
	var h ResponseHead
	h.Reset(make([]Field, 128))
	n, err := new(Parser).ParseResponse(buf, &h)
	h.ObsFold = true
	if r := outcome(n, err, describeResponse(&h)); r != folded {
		t.Fatalf("unfolded head:\n got %v\nwant %v", r, folded)
	}
}

// FuzzFastPaths checks that the fast paths change nothing but speed: each
// head parses to the same outcome (length, error kind and offset, parsed
// parts) with the start-line and field-line fast paths on and off in all
// four combinations, as a request and as a response.
func FuzzFastPaths(f *testing.F) {
	addHeadSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ uint16) {
		if len(data) > 4096 {
			return
		}
		buf := data[:len(data):len(data)]
		type parsed struct {
			result
			err string // with the offset
		}
		var req, resp [4]parsed
		for i, p := range []Parser{{}, {noLookAhead: true}, {noQuickFields: true}, {noLookAhead: true, noQuickFields: true}} {
			var h RequestHead
			h.Reset(make([]Field, 128))
			n, err := p.ParseRequest(buf, &h)
			req[i] = parsed{outcome(n, err, describeRequest(&h)), fmt.Sprint(err)}
			var rh ResponseHead
			rh.Reset(make([]Field, 128))
			n, err = p.ParseResponse(buf, &rh)
			resp[i] = parsed{outcome(n, err, describeResponse(&rh)), fmt.Sprint(err)}
		}
		for i := 1; i < len(req); i++ {
			if req[i] != req[0] {
				t.Fatalf("request, fast paths off (case %d): %v\nall on: %v", i, req[i], req[0])
			}
			if resp[i] != resp[0] {
				t.Fatalf("response, fast paths off (case %d): %v\nall on: %v", i, resp[i], resp[0])
			}
		}
	})
}
