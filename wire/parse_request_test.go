package wire

import (
	"os"
	"testing"
)

func TestParseRequestSmoke(t *testing.T) {
	var p Parser
	for _, name := range []string{"browser", "tfb", "post"} {
		buf, err := os.ReadFile("testdata/" + name + ".http")
		if err != nil {
			t.Fatal(err)
		}
		n, h, err := parseReq(&p, string(buf))
		t.Logf("%s: n=%d err=%v\n%s", name, n, err, describeRequest(h))
	}
}
