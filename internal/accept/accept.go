// Package accept negotiates a content coding from Accept-Encoding field
// values (RFC 9110 §12.5.3), for the file server's precompressed files and
// the compression middleware: the codings the client weighs at least as
// much as identity, best first; at equal weights the server's order, a
// coding before identity.
package accept

import "github.com/brisk-http/brisk/internal/ascii"

// MaxOffers is the most codings Negotiate and Order choose among.
const MaxOffers = 8

// implicitIdentity is the weight of identity when the field lists neither
// "identity" nor "*": acceptable (RFC 9110 §12.5.3), but with no
// preference stated, so the lowest weight there is and any coding the
// client accepts goes first.
const implicitIdentity = 1

// Negotiate picks, from offers (coding names such as "br", "zstd",
// "gzip") in the server's order of preference, the coding Order ranks
// first: its index in offers, or -1 for none (identity).
func Negotiate(values [][]byte, offers []string) int {
	var buf [MaxOffers]int
	if order := Order(values, offers, &buf); len(order) > 0 {
		return order[0]
	}
	return -1
}

// Order ranks offers (coding names, in the server's order of preference)
// by the Accept-Encoding values and returns, as a slice of buf, the
// indexes of those to send rather than identity (weights as Weights
// gives them), best first. Codings go by descending q-value, the
// earlier offer at equal q-values. A coding of weight 0 is left out, and
// so is one weighted below identity: the client prefers no coding to it
// (RFC 9110 §12.4.2, §12.5.3). A coding weighted as much as identity is
// kept: the client is indifferent, and the server prefers the smaller
// representation ("gzip, identity" gives gzip, as "*" gives the first
// offer).
func Order(values [][]byte, offers []string, buf *[MaxOffers]int) []int {
	w, identity := Weights(values, offers)
	floor := max(identity, 1)
	order := buf[:0]
	for {
		best := -1
		for i := range offers[:min(len(offers), MaxOffers)] {
			if w[i] >= floor && (best < 0 || w[i] > w[best]) {
				best = i
			}
		}
		if best < 0 {
			return order
		}
		w[best] = 0
		order = append(order, best)
	}
}

// Weights returns the q-value, in thousandths (0 to 1000), the
// Accept-Encoding values (one per field line, each a comma-separated list)
// give each of the offers, and the one they give identity. A coding not
// listed takes the q-value of "*" when present, else 0 (not acceptable);
// "x-gzip" counts as "gzip" (RFC 9110 §8.4.1.3); a coding listed twice
// keeps its highest q-value. Identity, when not listed, takes the q-value
// of "*" too, else 1, the lowest weight: acceptable unless excluded
// (RFC 9110 §12.5.3) but preferred to no coding. With no Accept-Encoding
// field (values empty) every offer gets 0 and identity 1000: RFC 9110
// allows any coding then, but a client that sent nothing may not decode
// one.
//
// Malformed elements are skipped; a q-value that does not parse counts as
// 0. Offers past MaxOffers get no weight.
func Weights(values [][]byte, offers []string) (w [MaxOffers]int, identity int) {
	if len(values) == 0 {
		return w, 1000
	}
	offers = offers[:min(len(offers), MaxOffers)]
	for i := range offers {
		w[i] = -1
	}
	star, identity := -1, -1
	for _, v := range values {
		for len(v) > 0 {
			var elem []byte
			elem, v = cut(v, ',')
			name, q, ok := parseElement(elem)
			switch {
			case !ok:
			case string(name) == "*":
				star = max(star, q)
			case ascii.EqualFold(name, "identity"):
				identity = max(identity, q)
			default:
				for i, o := range offers {
					if ascii.EqualFold(name, o) || (o == "gzip" && ascii.EqualFold(name, "x-gzip")) {
						w[i] = max(w[i], q)
					}
				}
			}
		}
	}
	for i := range offers {
		if w[i] < 0 {
			w[i] = max(star, 0)
		}
	}
	switch {
	case identity >= 0:
	case star >= 0:
		identity = star
	default:
		identity = implicitIdentity
	}
	return w, identity
}

// parseElement splits one list element, `coding *( OWS ";" OWS param )`,
// into the coding and its q-value in thousandths (1000 without "q=").
func parseElement(elem []byte) (name []byte, q int, ok bool) {
	name, params := cut(elem, ';')
	name = ascii.TrimOWS(name)
	if len(name) == 0 {
		return nil, 0, false
	}
	q = 1000
	for len(params) > 0 {
		var p []byte
		p, params = cut(params, ';')
		p = ascii.TrimOWS(p)
		if len(p) >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=' {
			q = parseQ(p[2:])
		}
	}
	return name, q, true
}

// parseQ parses a qvalue, `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`
// (RFC 9110 §12.4.2), in thousandths; anything else gives 0.
func parseQ(b []byte) int {
	if len(b) == 0 || len(b) > 5 || (b[0] != '0' && b[0] != '1') {
		return 0
	}
	n := int(b[0]-'0') * 1000
	if len(b) == 1 {
		return n
	}
	if b[1] != '.' {
		return 0
	}
	scale := 100
	for _, c := range b[2:] {
		if c < '0' || c > '9' {
			return 0
		}
		n += int(c-'0') * scale
		scale /= 10
	}
	if n > 1000 {
		return 0
	}
	return n
}

func cut(b []byte, sep byte) (before, after []byte) {
	for i, c := range b {
		if c == sep {
			return b[:i], b[i+1:]
		}
	}
	return b, nil
}
