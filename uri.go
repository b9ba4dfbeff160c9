package brisk

import (
	"bytes"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// URI is a request-target split into its parts (RFC 9112 §3.2). All slices
// alias the target given to Parse, are valid as long as it is, and must not
// be modified. The zero value is an empty origin-form target. URI holds no
// pointers of its own, so it can be embedded in a request and reused.
type URI struct {
	// Form is the form of the request-target.
	Form wire.TargetForm

	// Scheme is the scheme of an absolute-form target ("http" or "https",
	// in the case received), nil in the other forms.
	Scheme []byte

	// Authority is uri-host [ ":" port ] from an absolute-form or
	// authority-form target, nil in the other forms. For absolute-form it
	// overrides the Host field (RFC 9112 §3.2.2); see EffectiveHost.
	Authority []byte

	// RawPath is the path exactly as received: the absolute-path of an
	// origin-form target, the path-abempty of an absolute-form one (possibly
	// empty, meaning "/"), "*" for asterisk-form and empty for
	// authority-form. Decode it with DecodePath.
	RawPath []byte

	// Query is the query without its "?", nil when the target has no "?".
	Query []byte
}

// Parse splits target, a request-target as received with the request
// method, into u, and checks that the form suits the method
// (RFC 9112 §3.2):
//   - origin-form "/path?query", for any method but CONNECT;
//   - absolute-form "http://authority/path?query" (scheme "http" or
//     "https", any case), for any method but CONNECT: the authority must be
//     a valid host without userinfo;
//   - authority-form "host:port", for CONNECT only, port required;
//   - asterisk-form "*", for OPTIONS only.
//
// Errors: ErrTargetForm (no form fits, or the method forbids it),
// ErrTargetScheme, ErrTargetUserinfo, ErrInvalidHost. All are answered
// 400. Parse checks structure, not every byte: the request-line parser
// rejects bytes outside the request-target grammar, and DecodePath checks
// the path. It does not allocate.
func (u *URI) Parse(method, target []byte) error {
	*u = URI{}
	connect := string(method) == "CONNECT"
	switch {
	case len(target) == 0:
		return ErrTargetForm
	case target[0] == '/':
		if connect {
			return ErrTargetForm
		}
		u.Form = wire.OriginForm
		u.RawPath, u.Query = SplitTarget(target)
		return nil
	case len(target) == 1 && target[0] == '*':
		if string(method) != "OPTIONS" {
			return ErrTargetForm
		}
		u.Form, u.RawPath = wire.AsteriskForm, target
		return nil
	case connect:
		u.Form = wire.AuthorityForm
		return u.parseAuthorityForm(target)
	}
	u.Form = wire.AbsoluteForm
	return u.parseAbsoluteForm(target)
}

// SplitTarget splits an origin-form request-target (or the part of an
// absolute-form one after the authority) at its first "?" into the raw path
// and the query without the "?". query is nil when there is no "?". Both
// alias target.
func SplitTarget(target []byte) (path, query []byte) {
	if i := bytes.IndexByte(target, '?'); i >= 0 {
		return target[:i], target[i+1:]
	}
	return target, nil
}

// parseAbsoluteForm parses target as absolute-URI with scheme http or https
// and an authority (RFC 9110 §4.2.1-4.2.2, RFC 3986 §3).
func (u *URI) parseAbsoluteForm(target []byte) error {
	colon := bytes.IndexByte(target, ':')
	if colon < 0 {
		return ErrTargetForm
	}
	scheme, rest := target[:colon], target[colon+1:]
	if !ascii.EqualFold(scheme, "http") && !ascii.EqualFold(scheme, "https") {
		return ErrTargetScheme
	}
	if len(rest) < 2 || rest[0] != '/' || rest[1] != '/' {
		return ErrTargetScheme
	}
	rest = rest[2:]
	end := 0
	for end < len(rest) && rest[end] != '/' && rest[end] != '?' {
		end++
	}
	authority := rest[:end]
	if bytes.IndexByte(authority, '@') >= 0 {
		return ErrTargetUserinfo
	}
	if !wire.ValidHost(authority, false) {
		return ErrInvalidHost
	}
	u.Scheme, u.Authority = scheme, authority
	u.RawPath, u.Query = SplitTarget(rest[end:])
	return nil
}

// parseAuthorityForm parses target as uri-host ":" port
// (RFC 9112 §3.2.3); the port is required.
func (u *URI) parseAuthorityForm(target []byte) error {
	if bytes.IndexByte(target, '@') >= 0 {
		return ErrTargetUserinfo
	}
	if !wire.ValidHost(target, true) {
		return ErrInvalidHost
	}
	u.Authority = target
	return nil
}

// EffectiveHost returns the host the request is for: the authority of an
// absolute-form or authority-form target, which overrides the Host field
// (RFC 9112 §3.2.2, §3.3), or else hostField, the value of the single Host
// field (nil when absent). The result aliases one of them.
func (u *URI) EffectiveHost(hostField []byte) []byte {
	if u.Authority != nil {
		return u.Authority
	}
	return hostField
}

// AppendPath appends the decoded, normalized path of u to dst (see
// DecodePath): "*" for asterisk-form, nothing for authority-form.
func (u *URI) AppendPath(dst []byte) ([]byte, error) {
	switch u.Form {
	case wire.AsteriskForm:
		return append(dst, '*'), nil
	case wire.AuthorityForm:
		return dst, nil
	}
	return DecodePath(dst, u.RawPath)
}
