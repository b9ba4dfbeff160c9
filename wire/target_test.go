package wire

import "testing"

func TestValidIPv6(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"::", true}, {"::1", true}, {"1::", true}, {"2001:db8::1", true},
		{"1:2:3:4:5:6:7:8", true}, {"::ffff:192.0.2.1", true}, {"1:2:3:4:5:6:192.0.2.1", true},
		{"", false}, {"0", false}, {"1:2:3:4:5:6:7", false}, {"1:2:3:4:5:6:7:8:9", false},
		{"1::2::3", false}, {":1", false}, {"1:", false}, {"12345::", false}, {"1:2:3:4:5:6:7:192.0.2.1", false},
		{"::192.0.2.256", false}, {"::192.0.02.1", false}, {"::1.2.3", false}, {"v1.x", false}, {"g::", false},
	} {
		if got := validIPv6([]byte(c.in)); got != c.want {
			t.Errorf("validIPv6(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestValidHostIPLiteral(t *testing.T) {
	for _, c := range []struct {
		in       string
		needPort bool
		want     bool
	}{
		{"[::1]:80", true, true}, {"[2001:db8::1]", false, true},
		{"[0]:0", true, false}, {"[]:80", true, false}, {"[::1", false, false}, {"[::1]x", false, false},
	} {
		if got := ValidHost([]byte(c.in), c.needPort); got != c.want {
			t.Errorf("ValidHost(%q, %v) = %v, want %v", c.in, c.needPort, got, c.want)
		}
	}
}
