package otel

import "testing"

func TestSemconvVersion(t *testing.T) {
	for proto, want := range map[string]string{"HTTP/1.0": "1.0", "HTTP/1.1": "1.1", "HTTP/2.0": "2", "HTTP/3.0": "3"} {
		if got := semconvVersion(proto); got != want {
			t.Errorf("semconvVersion(%q) = %q, want %q", proto, got, want)
		}
	}
}
