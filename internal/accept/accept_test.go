package accept

import (
	"slices"
	"testing"
)

// negotiationCases: each gives the field lines (nil for no
// Accept-Encoding), the ranking Order must give of the offers (br, zstd,
// gzip unless offers says otherwise) and identity's weight.
var negotiationCases = []struct {
	name     string
	values   []string
	offers   []string // nil for br, zstd, gzip
	order    []int
	identity int
}{
	{"absent", nil, nil, nil, 1000},
	{"empty", []string{""}, nil, nil, 1},
	{"one", []string{"gzip"}, nil, []int{2}, 1},
	{"server_order", []string{"gzip, zstd, br"}, nil, []int{0, 1, 2}, 1},
	{"q_values", []string{"br;q=0.2, gzip;q=0.9, zstd;q=0.5"}, nil, []int{2, 1, 0}, 1},
	{"q_spaces_case", []string{"GZIP ; Q=0.9 , br ; q=0.1"}, nil, []int{2, 0}, 1},
	{"q_zero", []string{"br;q=0, zstd;q=0.000"}, nil, nil, 1},
	{"q_bad", []string{"br;q=2, zstd;q=0.5x, gzip;q=1.0000"}, nil, nil, 1},
	{"q_one", []string{"br;q=0.999, gzip;q=1.000"}, nil, []int{2, 0}, 1},
	{"q_lowest", []string{"zstd;q=0.001"}, nil, []int{1}, 1},
	{"x_gzip", []string{"x-gzip"}, nil, []int{2}, 1},
	{"star", []string{"*"}, nil, []int{0, 1, 2}, 1000},
	{"star_low", []string{"*;q=0.1, gzip"}, nil, []int{2, 0, 1}, 100},
	{"star_zero", []string{"*;q=0"}, nil, nil, 0},
	{"star_zero_identity", []string{"*;q=0, identity"}, nil, nil, 1000},
	{"identity_zero", []string{"gzip, identity;q=0"}, nil, []int{2}, 0},
	{"two_lines", []string{"gzip;q=0.5", "br;q=0.6"}, nil, []int{0, 2}, 1},
	{"repeated_keeps_max", []string{"gzip;q=0.1, gzip;q=0.9, br;q=0.5"}, nil, []int{2, 0}, 1},
	{"malformed", []string{",,;q=1, ;, gzip"}, nil, []int{2}, 1},
	{"unknown", []string{"deflate, compress"}, nil, nil, 1},

	// Identity's weight against the codings' (RFC 9110 §12.5.3).
	{"identity_preferred", []string{"br;q=0.1, identity"}, nil, nil, 1000},
	{"coding_preferred", []string{"br, identity;q=0.5"}, nil, []int{0}, 500},
	{"tie_goes_to_coding", []string{"br;q=0.5, identity;q=0.5"}, nil, []int{0}, 500},
	{"tie_listed_identity", []string{"gzip, identity"}, nil, []int{2}, 1000},
	{"below_identity_dropped", []string{"br;q=0.2, gzip;q=0.5, identity;q=0.3"}, nil, []int{2}, 300},
	{"star_over_identity", []string{"*;q=0.2, identity;q=0.1"}, nil, []int{0, 1, 2}, 100},
	{"star_under_identity", []string{"*;q=0.1, identity;q=0.2"}, nil, nil, 200},
	{"star_gives_identity", []string{"*;q=0.4, gzip;q=0.3"}, nil, []int{0, 1}, 400},
	{"identity_over_star", []string{"identity;q=0.3, *"}, nil, []int{0, 1, 2}, 300},
	{"identity_only", []string{"identity"}, nil, nil, 1000},
	{"identity_only_zero", []string{"identity;q=0"}, nil, nil, 0},
	{"identity_repeated_keeps_max", []string{"identity;q=0.2, br;q=0.4, identity;q=0.6"}, nil, nil, 600},
	{"identity_case", []string{"IDENTITY;Q=0.5, gzip;q=0.4"}, nil, nil, 500},
	{"identity_other_line", []string{"br;q=0.3", "identity;q=0.5"}, nil, nil, 500},
	{"gzip_refused_star", []string{"gzip;q=0, *"}, nil, []int{0, 1}, 1000},
	{"gzip_refused_star_only_gzip", []string{"gzip;q=0, *"}, []string{"gzip"}, nil, 1000},
	{"x_gzip_below_identity", []string{"x-gzip;q=0.5, identity"}, []string{"gzip"}, nil, 1000},
}

func TestOrder(t *testing.T) {
	for _, tc := range negotiationCases {
		t.Run(tc.name, func(t *testing.T) {
			offers := tc.offers
			if offers == nil {
				offers = []string{"br", "zstd", "gzip"}
			}
			var vs [][]byte
			for _, v := range tc.values {
				vs = append(vs, []byte(v))
			}
			var buf [MaxOffers]int
			order := Order(vs, offers, &buf)
			if _, identity := Weights(vs, offers); !slices.Equal(order, tc.order) || identity != tc.identity {
				t.Errorf("Order = %v, identity %d; want %v, identity %d", order, identity, tc.order, tc.identity)
			}
			want := -1
			if len(tc.order) > 0 {
				want = tc.order[0]
			}
			if got := Negotiate(vs, offers); got != want {
				t.Errorf("Negotiate = %d, want %d", got, want)
			}
		})
	}
}

// TestOrderMaxOffers: offers past MaxOffers are never chosen.
func TestOrderMaxOffers(t *testing.T) {
	offers := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	var buf [MaxOffers]int
	order := Order([][]byte{[]byte("i, h")}, offers, &buf)
	if !slices.Equal(order, []int{7}) {
		t.Errorf("Order = %v, want [7]", order)
	}
}
