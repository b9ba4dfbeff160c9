package wire

import (
	"fmt"
	"testing"
)

// TestQuickFields checks the field-line fast path (quickFields, with the
// odd lines it leaves to splitFieldLine) against splitFieldLine alone:
// for field sections of several shapes, with every byte value at every
// position, ParseRequest must give the same outcome (length, error kind
// and offset, fields, what was noted) with the fast path on and off.
// Where there is a fast path (haveFieldLines), the first line of each
// unmutated section must be taken by it.
func TestQuickFields(t *testing.T) {
	sections := []string{
		"Host: example.com\r\nX",
		"Content-Length: 12\r\nHost: a\r\n\r\n",
		"transfer-encoding: chunked\r\nHost: a\r\n\r\n",
		"Connection:keep-alive\r\nX: y",
		"Expect: 100-continue\r\nHost: a\r\n\r\n",
		"X-Custom-Field-Name_1: v\r\n\r\n",
		"Accept: text/html,application/xhtml+xml,application/xml;q=0.9\r\n\r\n",
		"Host: x\r\nCookie: a=b\tc=d \x80\xff\r\nAccept: */*\r\n\r\n",
		"Upgrade-Insecure-Requests: 1\r\n\r\n",
		"Upgrade-Insecure-Requests: 1\r\nHost: a\r\n\r\n",
		"X-A-Name-Of-Thirty-One-Bytes-XY: v\r\nHost:\ta\r\nX:  y\r\n\r\n",
		"E:\r\n                          ",
	}
	const pre = "GET / HTTP/1.1\r\n"
	type parsed struct {
		result
		err string // with the offset
	}
	parse := func(p Parser, b []byte) parsed {
		var h RequestHead
		h.Reset(make([]Field, 0, 4))
		n, err := p.ParseRequest(b, &h)
		return parsed{outcome(n, err, describeRequest(&h)), fmt.Sprint(err)}
	}
	for _, section := range sections {
		var p Parser
		quick := FieldSection{ContentLength: -1}
		b := []byte(pre + section)
		if next, _, _ := p.quickFields(b, len(pre), make([]Field, 0, 4), &quick, 1, true); haveFieldLines && next == len(pre) {
			t.Errorf("%q: not taken by quickFields", section)
		}
		for j := range len(section) {
			for v := range 256 {
				b := []byte(pre + section)
				b[len(pre)+j] = byte(v)
				if on, off := parse(Parser{}, b), parse(Parser{noQuickFields: true}, b); on != off {
					t.Fatalf("%q:\n on: %v\noff: %v", b, on, off)
				}
			}
		}
	}
}
