package echo

import (
	"bytes"
	"strconv"

	"github.com/brisk-http/brisk"
)

// PrefersHTML reports whether the Accept fields of r (RFC 9110 §12.5.1)
// rank text/html strictly above application/json: each type gets the
// q-value of the most specific media range that matches it ("text/html",
// then "text/*", then "*/*"; absent: 0), so a browser's
// "text/html,...,*/*;q=0.8" is true, while no Accept, "*/*" and
// "application/json" are false: a tie goes to JSON, for programs. Media
// range parameters other than q are ignored; an invalid q counts as 0.
func PrefersHTML(r *brisk.Request) bool {
	var html, json ranked
	for value := range r.Header.Values("Accept") {
		for elem := range bytes.SplitSeq(value, []byte(",")) {
			rng, q := mediaRange(elem)
			html.offer(rng, "text", "html", q)
			json.offer(rng, "application", "json", q)
		}
	}
	return html.q > json.q
}

// ranked is the q-value of one media type so far and how specific the
// range that gave it was: 0 none, 1 "*/*", 2 "type/*", 3 "type/subtype".
type ranked struct {
	q           float64
	specificity int
}

// offer applies the range rng with q-value q to the type typ/sub.
func (r *ranked) offer(rng []byte, typ, sub string, q float64) {
	s := 0
	switch t, st, _ := bytes.Cut(rng, []byte("/")); {
	case string(rng) == "*/*":
		s = 1
	case !bytes.EqualFold(t, []byte(typ)):
		return
	case string(st) == "*":
		s = 2
	case bytes.EqualFold(st, []byte(sub)):
		s = 3
	default:
		return
	}
	if s > r.specificity {
		r.q, r.specificity = q, s
	}
}

// mediaRange splits one element of an Accept list into its media range
// (OWS trimmed) and its q-value (1 when absent).
func mediaRange(elem []byte) (rng []byte, q float64) {
	rng, params, _ := bytes.Cut(elem, []byte(";"))
	q = 1
	for p := range bytes.SplitSeq(params, []byte(";")) {
		name, v, ok := bytes.Cut(bytes.TrimSpace(p), []byte("="))
		if ok && bytes.EqualFold(bytes.TrimSpace(name), []byte("q")) {
			f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0
			}
			q = f
		}
	}
	return bytes.TrimSpace(rng), q
}
