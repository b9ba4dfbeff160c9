package wire

import (
	"reflect"
	"testing"
)

// TestQuickFields checks quickFields against splitFieldLine and note: for
// field lines of several shapes, with every byte value at every position,
// quickFields must either stop before the line or parse it exactly as
// splitFieldLine does, with the same field, the same fields noted and the
// same error.
func TestQuickFields(t *testing.T) {
	lines := []string{
		"Host: example.com\r\nX",
		"Content-Length: 12\r\nX",
		"transfer-encoding: chunked\r\n",
		"Connection:keep-alive\r\nX: y",
		"Expect: 100-continue\r\n\r\n",
		"X-Custom-Field-Name_1: v\r\n\r\n",
		"Accept: text/html,application/xhtml+xml,application/xml;q=0.9\r\n\r\n",
		"Cookie: a=b\tc=d \x80\xff\r\nHost: x\r\n",
		"Upgrade-Insecure-Requests: 1\r\n\r\n",
		"Upgrade-Insecure-Requests: 1\r\nHost: a\r\n",
		"X-A-Name-Of-Thirty-One-Bytes-XY: v\r\n\r\n",
		"E:\r\n                          ",
	}
	const pre = "GET / HTTP/1.1\r\n"
	var p Parser
	for _, line := range lines {
		for j := 0; j < len(line); j++ {
			for v := 0; v < 256; v++ {
				b := append([]byte(pre), line...)
				b[len(pre)+j] = byte(v)
				quick := FieldSection{ContentLength: -1}
				next, fields, err := p.quickFields(b, len(pre), make([]Field, 0, 1), &quick, 1, true)
				if next == len(pre) && err == nil {
					continue // left to splitFieldLine
				}
				colon, v0, v1, stop, id, k := splitFieldLine(b[len(pre):])
				if k != 0 || b[len(pre)+stop] != '\r' {
					t.Fatalf("%q: quick parsed, split: kind %v", b, k)
				}
				slow := FieldSection{ContentLength: -1}
				v0, v1 = len(pre)+v0, len(pre)+v1
				var slowErr error
				if id != fieldOther {
					slowErr = p.note(&slow, id, b[v0:v1], v0, 1, true)
				}
				if !reflect.DeepEqual(err, slowErr) || !reflect.DeepEqual(quick, slow) {
					t.Fatalf("%q: quick %v %+v, slow %v %+v", b, err, quick, slowErr, slow)
				}
				if err != nil {
					continue
				}
				want := Field{b[len(pre) : len(pre)+colon], b[v0:v1]}
				if next != len(pre)+stop+2 || len(fields) != 1 || !reflect.DeepEqual(fields[0], want) {
					t.Fatalf("%q: quick next %d %q, slow next %d %q", b, next, fields, len(pre)+stop+2, want)
				}
			}
		}
	}
}
