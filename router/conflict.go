package router

import "strings"

// The precedence and conflict rules are net/http.ServeMux's (Go 1.22,
// net/http/pattern.go): a pattern with a host wins over one without; else
// the one whose method and path match fewer requests wins. Two patterns
// conflict when some request matches both and neither wins.

// relation is how the requests two patterns match compare.
type relation uint8

const (
	equivalent   relation = iota // the same requests
	moreGeneral                  // all of the other's and more
	moreSpecific                 // a strict subset of the other's
	disjoint                     // no request in common
	overlaps                     // some in common, neither a subset
)

// conflict returns why p1 and p2 conflict, or "" when they do not.
func conflict(p1, p2 *pattern) string {
	if p1.host != p2.host {
		return "" // the one with a host wins, or the hosts differ
	}
	mrel := compareMethods(p1, p2)
	if mrel == disjoint {
		return ""
	}
	prel := comparePaths(p1, p2)
	switch combine(mrel, prel) {
	case equivalent:
		return "they match the same requests"
	case overlaps:
	default:
		return ""
	}
	switch {
	case prel == overlaps:
		return `both match some paths, like "` + commonPath(p1, p2) + `", but neither is more specific`
	case mrel == moreGeneral:
		return "it matches more methods, but has a more specific path"
	}
	return "it matches fewer methods, but has a more general path"
}

// compareMethods relates the methods: "" is any method, "GET" also
// matches HEAD.
func compareMethods(p1, p2 *pattern) relation {
	switch m1, m2 := p1.method, p2.method; {
	case m1 == m2:
		return equivalent
	case m1 == "", m1 == "GET" && m2 == "HEAD":
		return moreGeneral
	case m2 == "", m2 == "GET" && m1 == "HEAD":
		return moreSpecific
	}
	return disjoint
}

// comparePaths relates the paths, segment by segment.
func comparePaths(p1, p2 *pattern) relation {
	s1, s2 := p1.segs, p2.segs
	multi1, multi2 := p1.last().kind == segMulti, p2.last().kind == segMulti
	if len(s1) != len(s2) && !multi1 && !multi2 {
		return disjoint
	}
	rel := equivalent
	for ; len(s1) > 0 && len(s2) > 0; s1, s2 = s1[1:], s2[1:] {
		if rel = combine(rel, compareSegments(s1[0], s2[0])); rel == disjoint {
			return disjoint
		}
	}
	switch {
	case len(s1) == 0 && len(s2) == 0:
		return rel
	case len(s1) < len(s2) && multi1:
		return combine(rel, moreGeneral)
	case len(s2) < len(s1) && multi2:
		return combine(rel, moreSpecific)
	}
	return disjoint
}

// compareSegments relates two segments at the same position.
func compareSegments(a, b segment) relation {
	switch {
	case a.kind == segMulti && b.kind == segMulti:
		return equivalent
	case a.kind == segMulti:
		return moreGeneral
	case b.kind == segMulti:
		return moreSpecific
	case a.kind == segWild && b.kind == segWild:
		return equivalent
	case a.kind == segWild:
		if b.kind == segSlash {
			return disjoint // a single wildcard does not match the trailing "/"
		}
		return moreGeneral
	case b.kind == segWild:
		if a.kind == segSlash {
			return disjoint
		}
		return moreSpecific
	case a == b:
		return equivalent
	}
	return disjoint
}

// combine gives the relation of two patterns from the relations r1 and r2
// of two parts that partition them.
func combine(r1, r2 relation) relation {
	switch r1 {
	case equivalent:
		return r2
	case disjoint:
		return disjoint
	case overlaps:
		if r2 == disjoint {
			return disjoint
		}
		return overlaps
	}
	switch r2 { // r1 is moreGeneral or moreSpecific
	case equivalent:
		return r1
	case inverse(r1):
		return overlaps
	}
	return r2
}

func inverse(r relation) relation {
	switch r {
	case moreGeneral:
		return moreSpecific
	case moreSpecific:
		return moreGeneral
	}
	return r
}

// commonPath returns a path that both p1 and p2 match, for an error
// message; they must not be disjoint.
func commonPath(p1, p2 *pattern) string {
	var b strings.Builder
	s1, s2 := p1.segs, p2.segs
	for ; len(s1) > 0 && len(s2) > 0; s1, s2 = s1[1:], s2[1:] {
		if s1[0].kind == segWild {
			writeSegment(&b, s2[0])
		} else {
			writeSegment(&b, s1[0])
		}
	}
	for _, s := range append(s1, s2...) {
		writeSegment(&b, s)
	}
	return b.String()
}

func writeSegment(b *strings.Builder, s segment) {
	b.WriteByte('/')
	switch s.kind {
	case segLit:
		b.WriteString(s.s)
	case segWild:
		b.WriteString(s.s) // the name stands for any value
	}
}
