package metrics

import (
	"testing"

	"github.com/brisk-http/brisk"
)

func TestProtoVersion(t *testing.T) {
	for proto, want := range map[string]string{"HTTP/1.0": "1.0", "HTTP/1.1": "1.1", "HTTP/2.0": "2", "HTTP/3.0": "3", "": "1.1"} {
		if got := protoVersion(&brisk.RequestInfo{Proto: proto}); got != want {
			t.Errorf("protoVersion(%q) = %q, want %q", proto, got, want)
		}
	}
}
