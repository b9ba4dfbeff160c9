package accept

import "testing"

func TestNegotiate(t *testing.T) {
	offers := []string{"br", "zstd", "gzip"}
	cases := []struct {
		name       string
		values     []string // field lines; nil for no Accept-Encoding
		index      int
		identityOK bool
	}{
		{"absent", nil, -1, true},
		{"empty", []string{""}, -1, true},
		{"one", []string{"gzip"}, 2, true},
		{"server_order", []string{"gzip, zstd, br"}, 0, true},
		{"q_values", []string{"br;q=0.2, gzip;q=0.9, zstd;q=0.5"}, 2, true},
		{"q_spaces_case", []string{"GZIP ; Q=0.9 , br ; q=0.1"}, 2, true},
		{"q_zero", []string{"br;q=0, zstd;q=0.000"}, -1, true},
		{"q_bad", []string{"br;q=2, zstd;q=0.5x, gzip;q=1.0000"}, -1, true},
		{"q_one", []string{"br;q=0.999, gzip;q=1.000"}, 2, true},
		{"x_gzip", []string{"x-gzip"}, 2, true},
		{"star", []string{"*"}, 0, true},
		{"star_low", []string{"*;q=0.1, gzip"}, 2, true},
		{"star_zero", []string{"*;q=0"}, -1, false},
		{"star_zero_identity", []string{"*;q=0, identity"}, -1, true},
		{"identity_zero", []string{"gzip, identity;q=0"}, 2, false},
		{"two_lines", []string{"gzip;q=0.5", "br;q=0.6"}, 0, true},
		{"repeated_keeps_max", []string{"gzip;q=0.1, gzip;q=0.9, br;q=0.5"}, 2, true},
		{"malformed", []string{",,;q=1, ;, gzip"}, 2, true},
		{"unknown", []string{"deflate, compress"}, -1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var vs [][]byte
			for _, v := range tc.values {
				vs = append(vs, []byte(v))
			}
			got := Negotiate(vs, offers)
			if got.Index != tc.index || got.IdentityOK != tc.identityOK {
				t.Errorf("Negotiate = %+v, want index %d identityOK %v", got, tc.index, tc.identityOK)
			}
		})
	}
}
