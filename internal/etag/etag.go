// Package etag scans lists of entity-tags (RFC 9110 §8.8.3), the values
// of If-Match and If-None-Match, for package brisk and package compress:
// one scanner, so that both read a list alike.
package etag

// Next returns the next element of a comma-separated list of
// entity-tags: "*" or `[ "W/" ] DQUOTE *etagc DQUOTE`, where etagc is
// any byte but a control character, space, DQUOTE or DEL (%x21 / %x23-7E
// / obs-text). It skips OWS and empty elements. tag and rest alias v. ok
// is false at the end of the list and at a malformed element, which ends
// the list: the elements after it are not read.
func Next(v []byte) (tag, rest []byte, ok bool) {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t' || v[0] == ',') {
		v = v[1:]
	}
	switch {
	case len(v) == 0:
		return nil, nil, false
	case v[0] == '*':
		return v[:1], v[1:], true
	}
	i := 0
	if len(v) >= 2 && v[0] == 'W' && v[1] == '/' {
		i = 2
	}
	if i >= len(v) || v[i] != '"' {
		return nil, nil, false
	}
	for j := i + 1; j < len(v); j++ {
		switch c := v[j]; {
		case c == '"':
			return v[:j+1], v[j+1:], true
		case c < 0x21 || c == 0x7f:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// Split returns the opaque-tag of an entity-tag (quotes included),
// aliasing tag, and whether it is weak (has the "W/" prefix).
func Split(tag []byte) (opaque []byte, weak bool) {
	if len(tag) >= 2 && tag[0] == 'W' && tag[1] == '/' {
		return tag[2:], true
	}
	return tag, false
}
