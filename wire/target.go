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
		return AuthorityForm, validHost(t, true)
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
	return validHost(rest[:end], false)
}

// validHost reports whether v is uri-host [ ":" port ] (RFC 3986 §3.2.2,
// §3.2.3; RFC 9110 §7.2): a non-empty reg-name with valid pct-encoding, an
// IPv4 address, or an IP-literal in brackets holding hex digits, ':' and
// '.'; the port is 1 to 5 digits, required when needPort.
func validHost(v []byte, needPort bool) bool {
	i := 0
	if len(v) > 0 && v[0] == '[' {
		j := bytes.IndexByte(v, ']')
		if j < 2 {
			return false
		}
		for _, c := range v[1:j] {
			if ascii.Class[c]&ascii.Hex == 0 && c != ':' && c != '.' {
				return false
			}
		}
		i = j + 1
	} else {
		for ; i < len(v) && v[i] != ':'; i++ {
			c := v[i]
			if ascii.Class[c]&ascii.Host == 0 {
				return false
			}
			if c == '%' && (i+2 >= len(v) || ascii.Class[v[i+1]]&ascii.Hex == 0 || ascii.Class[v[i+2]]&ascii.Hex == 0) {
				return false
			}
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
	for _, c := range port {
		if !ascii.IsDigit(c) {
			return false
		}
	}
	return true
}
