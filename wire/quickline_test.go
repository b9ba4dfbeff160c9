package wire

import "testing"

// TestQuickLine checks quickLine against splitFieldLine: for field lines
// of several shapes, with every byte value at every position, quickLine
// must either defer (end 0) or return exactly what splitFieldLine does.
func TestQuickLine(t *testing.T) {
	lines := []string{
		"Host: example.com\r\nX",
		"Content-Length: 12\r\nX",
		"transfer-encoding: chunked\r\n",
		"Connection:keep-alive\r\nX: y",
		"X-Custom-Field-Name_1: v\r\n\r\n",
		"Accept: text/html,application/xhtml+xml,application/xml;q=0.9\r\n\r\n",
		"Cookie: a=b\tc=d \x80\xff\r\nHost: x\r\n",
		"Upgrade-Insecure-Requests: 1\r\n\r\n",
		"E:\r\n                          ",
	}
	for _, line := range lines {
		for j := 0; j < len(line); j++ {
			for v := 0; v < 256; v++ {
				b := []byte(line)
				b[j] = byte(v)
				const pre = "GET / HTTP/1.1\r\n"
				colon, v0, v1, end, id := quickLine(append([]byte(pre), b...), len(pre))
				if end == 0 {
					continue
				}
				colon, v0, v1, end = colon-len(pre), v0-len(pre), v1-len(pre), end-len(pre)
				wc, w0, w1, stop, wid, k := splitFieldLine(b)
				if k != 0 || wc != colon || w0 != v0 || w1 != v1 || stop+2 != end || b[stop] != '\r' || wid != id {
					t.Fatalf("%q: quick (%d %d %d %d %d), split (%d %d %d %d %d %v)",
						b, colon, v0, v1, end, id, wc, w0, w1, stop, wid, k)
				}
			}
		}
	}
}
