package wire

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// describeRequest renders everything ParseRequest fills in, for comparing
// results of different ways of feeding the same bytes.
func describeRequest(h *RequestHead) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%q %q form=%d 1.%d\n", h.Method, h.Target, h.Form, h.Minor)
	describeFields(&sb, &h.FieldSection)
	return sb.String()
}

// describeResponse is describeRequest for a response head.
func describeResponse(h *ResponseHead) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "1.%d %d %q\n", h.Minor, h.StatusCode, h.Reason)
	describeFields(&sb, &h.FieldSection)
	return sb.String()
}

func describeFields(sb *strings.Builder, fs *FieldSection) {
	for _, f := range fs.Fields {
		fmt.Fprintf(sb, "%q: %q\n", f.Name, f.Value)
	}
	fmt.Fprintf(sb, "raw=%q cl=%d chunked=%v te=%v close=%v ka=%v e100=%v host=%q(%v) fold=%v",
		fs.Raw, fs.ContentLength, fs.Chunked, fs.TransferEncoding,
		fs.ConnectionClose, fs.ConnectionKeepAlive, fs.Expect100, fs.Host, fs.Host != nil, fs.ObsFold)
}

// parseReq parses s whole with p into a fresh head with room for 128
// fields.
func parseReq(p *Parser, s string) (int, *RequestHead, error) {
	h := new(RequestHead)
	h.Reset(make([]Field, 128))
	n, err := p.ParseRequest([]byte(s), h)
	return n, h, err
}

func parseResp(p *Parser, s string) (int, *ResponseHead, error) {
	h := new(ResponseHead)
	h.Reset(make([]Field, 128))
	n, err := p.ParseResponse([]byte(s), h)
	return n, h, err
}

// result is one parse outcome in comparable form.
type result struct {
	n    int
	kind Kind // 0 when accepted
	desc string
}

func (r result) String() string {
	if r.kind != 0 {
		return "error " + r.kind.Error()
	}
	return fmt.Sprintf("n=%d %s", r.n, r.desc)
}

// feedRequest parses buf delivered in pieces: cuts are the lengths
// of the successive prefixes given before the whole of buf. Every call
// before the last must report ErrNeedMore unless the head is complete or
// invalid by then; feedRequest returns the first outcome that is not
// ErrNeedMore (or ErrNeedMore after the whole buf).
func feedRequest(t testing.TB, p *Parser, buf []byte, cuts []int) result {
	h := new(RequestHead)
	h.Reset(make([]Field, 128))
	for _, k := range append(cuts, len(buf)) {
		n, err := p.ParseRequest(buf[:k], h)
		if err == ErrNeedMore {
			if n != 0 {
				t.Fatalf("ErrNeedMore with n=%d", n)
			}
			continue
		}
		return outcome(n, err, describeRequest(h))
	}
	return result{kind: ErrNeedMore}
}

func feedResponse(t testing.TB, p *Parser, buf []byte, cuts []int) result {
	h := new(ResponseHead)
	h.Reset(make([]Field, 128))
	for _, k := range append(cuts, len(buf)) {
		n, err := p.ParseResponse(buf[:k], h)
		if err == ErrNeedMore {
			continue
		}
		return outcome(n, err, describeResponse(h))
	}
	return result{kind: ErrNeedMore}
}

func outcome(n int, err error, desc string) result {
	if err != nil {
		return result{kind: KindOf(err)}
	}
	return result{n: n, desc: desc}
}

// assertKind checks that err has kind want both ways errors.Is can see it,
// and that it is an *Error (only ErrNeedMore is returned bare).
func assertKind(t *testing.T, err error, want Kind) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want kind %q", err, want)
	}
	var e *Error
	if want != ErrNeedMore && !errors.As(err, &e) {
		t.Fatalf("err = %#v, want an *Error", err)
	}
	if e != nil && !errors.Is(e, e.Kind) {
		t.Fatalf("errors.Is(%v, %v) = false", e, e.Kind)
	}
}

// headSplits returns the cut lists of the split-feeding harness for an input
// of n bytes: one byte at a time, then every single split point.
func headSplits(n int) [][]int {
	one := make([]int, 0, n)
	for k := 1; k < n; k++ {
		one = append(one, k)
	}
	all := [][]int{nil, one}
	for k := 1; k < n; k++ {
		all = append(all, []int{k})
	}
	return all
}

// strictPaths returns p with every fast path off.
func (p Parser) strictPaths() Parser {
	p.noLookAhead, p.noQuickFields = true, true
	return p
}
