package wire

import (
	"bytes"

	"github.com/brisk-http/brisk/internal/ascii"
)

// targetForm returns the form of the request-target t (not empty, bytes
// already checked by targetEnd) and whether method may use it (RFC 9112
// §3.2): authority-form only and always with CONNECT, asterisk-form only
// with OPTIONS, absolute-form only with an http or https scheme and a
// valid authority, origin-form otherwise.
func targetForm(method, t []byte) (TargetForm, bool) {
	connect := string(method) == "CONNECT"
	switch {
	case connect:
		return AuthorityForm, ValidHost(t, true)
	case t[0] == '/':
		return OriginForm, true
	case len(t) == 1 && t[0] == '*':
		return AsteriskForm, string(method) == "OPTIONS"
	}
	return AbsoluteForm, validAbsolute(t)
}

// validAbsolute reports whether t is an absolute-URI with scheme http or
// https (case-insensitive, RFC 9110 §4.2) and a non-empty authority
// without userinfo (RFC 9110 §4.2.4).
func validAbsolute(t []byte) bool {
	var rest []byte
	switch {
	case len(t) > 7 && ascii.EqualFold(t[:7], "http://"):
		rest = t[7:]
	case len(t) > 8 && ascii.EqualFold(t[:8], "https://"):
		rest = t[8:]
	default:
		return false
	}
	end := len(rest)
	if i := bytes.IndexAny(rest, "/?"); i >= 0 {
		end = i
	}
	return ValidHost(rest[:end], false)
}

// ValidHost reports whether v is uri-host [ ":" port ] (RFC 3986 §3.2.2,
// §3.2.3; RFC 9110 §7.2), as ParseRequest checks a Host field and the
// authority of an absolute-form target: a non-empty reg-name with valid
// pct-encoding, an IPv4 address, or an IP-literal in brackets holding an
// IPv6address (IPvFuture and zone IDs are refused); a ":" must be
// followed by a port of 1 to 5 digits no larger than 65535. The empty
// Host value that RFC 9110 §7.2 allows for a target without authority is
// for the caller to accept first (Parser.AllowEmptyHost). It does not
// allocate. With needPort, the port is required (authority-form, RFC
// 9112 §3.2.3).
func ValidHost(v []byte, needPort bool) bool {
	i := 0
	if len(v) > 0 && v[0] == '[' {
		j := bytes.IndexByte(v, ']')
		if j < 0 || !validIPv6(v[1:j]) {
			return false
		}
		i = j + 1
	} else {
		for {
			i += ascii.Run(v[i:], ascii.Host)
			if i == len(v) || v[i] != '%' || i+2 >= len(v) || ascii.Class[v[i+1]]&ascii.Class[v[i+2]]&ascii.Hex == 0 {
				break
			}
			i += 3
		}
		if i == 0 {
			return false
		}
	}
	if i == len(v) {
		return !needPort
	}
	if v[i] != ':' {
		return false
	}
	port := v[i+1:]
	if len(port) == 0 || len(port) > 5 {
		return false
	}
	n := 0
	for _, c := range port {
		if !ascii.IsDigit(c) {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535 // the port is a 16-bit number (RFC 9293 §3.1)
}

// validIPv6 reports whether s is an IPv6address (RFC 3986 §3.2.2): eight
// groups of 1 to 4 HEXDIG separated by ":", where one "::" stands for one
// or more zero groups and the last two groups may be an IPv4 address in
// dotted-decimal form.
func validIPv6(s []byte) bool {
	groups, gap := 0, false
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		gap, s = true, s[2:]
	}
	for len(s) > 0 {
		n := 0
		for n < len(s) && n < 5 && ascii.Class[s[n]]&ascii.Hex != 0 {
			n++
		}
		switch {
		case n < len(s) && s[n] == '.':
			if groups+2 > 8 || !validIPv4(s) {
				return false
			}
			groups, s = groups+2, nil
			continue
		case n == 0 || n > 4:
			return false
		}
		groups++
		s = s[n:]
		switch {
		case len(s) >= 2 && s[0] == ':' && s[1] == ':':
			if gap {
				return false
			}
			gap, s = true, s[2:]
		case len(s) >= 2 && s[0] == ':':
			s = s[1:]
		case len(s) != 0:
			return false
		}
	}
	return groups == 8 && !gap || gap && groups <= 7
}

// validIPv4 reports whether s is an IPv4address (RFC 3986 §3.2.2): four
// decimal octets 0-255 without leading zeros, separated by ".".
func validIPv4(s []byte) bool {
	for part := 0; part < 4; part++ {
		n, v := 0, 0
		for n < len(s) && n < 4 && ascii.IsDigit(s[n]) {
			v = v*10 + int(s[n]-'0')
			n++
		}
		if n == 0 || n > 3 || v > 255 || n > 1 && s[0] == '0' {
			return false
		}
		s = s[n:]
		if part < 3 {
			if len(s) == 0 || s[0] != '.' {
				return false
			}
			s = s[1:]
		}
	}
	return len(s) == 0
}
