package brisk

// ValidHost reports whether b is uri-host [ ":" port ], the value of a Host
// field or the authority of an absolute-form or authority-form
// request-target without userinfo (RFC 9110 §7.2, RFC 3986 §3.2.2-3.2.3).
// uri-host is one of:
//   - a reg-name: unreserved, sub-delims and pct-encoded bytes, non-empty;
//   - an IPv4 address (which is also a reg-name);
//   - an IP-literal: "[" IPv6address "]" (IPvFuture and zone IDs are
//     refused).
//
// brisk is stricter than RFC 3986 in two ways: the host must not be empty,
// and a ":" must be followed by a port of 1 to 5 digits no larger than
// 65535. The empty Host field value that RFC 9110 §7.2 allows for a target
// URI without authority is for the caller to accept before calling
// ValidHost. It does not allocate.
func ValidHost(b []byte) bool {
	host, port, ok := splitHostPort(b)
	return ok && validUriHost(host) && (port == nil || validPort(port))
}

// splitHostPort splits b at the ":" before the port, if any; port is nil
// when there is no ":". ok is false for an unterminated IP-literal or bytes
// after its "]" other than a port.
func splitHostPort(b []byte) (host, port []byte, ok bool) {
	if len(b) > 0 && b[0] == '[' {
		end := 0
		for end < len(b) && b[end] != ']' {
			end++
		}
		switch {
		case end == len(b):
			return nil, nil, false
		case end+1 == len(b):
			return b, nil, true
		case b[end+1] != ':':
			return nil, nil, false
		}
		return b[:end+1], b[end+2:], true
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ':' {
			return b[:i], b[i+1:], true
		}
	}
	return b, nil, true
}

// validUriHost reports whether h is a non-empty reg-name or an IP-literal
// holding an IPv6 address.
func validUriHost(h []byte) bool {
	if len(h) == 0 {
		return false
	}
	if h[0] == '[' {
		return len(h) > 2 && h[len(h)-1] == ']' && validIPv6(h[1:len(h)-1])
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c == '%' {
			if i+2 >= len(h) || unhex(h[i+1]) < 0 || unhex(h[i+2]) < 0 {
				return false
			}
			i += 2
			continue
		}
		if !inClass(c, regNameLo, regNameHi) {
			return false
		}
	}
	return true
}

// validPort reports whether p is 1 to 5 digits with a value of at most 65535.
func validPort(p []byte) bool {
	if len(p) == 0 || len(p) > 5 {
		return false
	}
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// validIPv6 reports whether s is an IPv6address (RFC 3986 §3.2.2): eight
// groups of 1-4 hex digits separated by ":", where one run of groups may be
// elided as "::" and the last two groups may be written as an IPv4 address.
func validIPv6(s []byte) bool {
	groups, elided := 0, false
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		elided, s = true, s[2:]
	}
	for len(s) > 0 {
		n := 0
		for n < len(s) && n < 5 && unhex(s[n]) >= 0 {
			n++
		}
		if n < len(s) && s[n] == '.' {
			return validIPv4(s) && (groups == 6 || elided && groups <= 5)
		}
		if n == 0 || n > 4 {
			return false
		}
		groups++
		s = s[n:]
		switch {
		case len(s) == 0:
		case len(s) >= 2 && s[0] == ':' && s[1] == ':':
			if elided {
				return false
			}
			elided, s = true, s[2:]
		case s[0] == ':' && len(s) > 1:
			s = s[1:]
		default:
			return false
		}
	}
	if elided {
		return groups <= 7
	}
	return groups == 8
}

// validIPv4 reports whether s is dec-octet "." dec-octet "." dec-octet "."
// dec-octet (RFC 3986 §3.2.2): no leading zeros, each at most 255.
func validIPv4(s []byte) bool {
	for part := 0; part < 4; part++ {
		if part > 0 {
			if len(s) == 0 || s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n, v := 0, 0
		for n < len(s) && n < 4 && s[n] >= '0' && s[n] <= '9' {
			v = v*10 + int(s[n]-'0')
			n++
		}
		if n == 0 || n > 3 || v > 255 || (n > 1 && s[0] == '0') {
			return false
		}
		s = s[n:]
	}
	return len(s) == 0
}
