package brisk

import "errors"

// Sentinel errors of the request-target, cookie and form code. Compare them
// with errors.Is. The status noted is what a server answers when the error
// comes from a request; none of these errors echo client bytes.
var (
	// ErrTargetForm: the request-target is in no valid form, or in a form
	// the method does not allow: authority-form is for CONNECT only and
	// CONNECT takes nothing else, asterisk-form is for OPTIONS only
	// (RFC 9112 §3.2). → 400.
	ErrTargetForm = errors.New("brisk: invalid request-target form")

	// ErrTargetScheme: an absolute-form request-target whose scheme is not
	// "http" or "https", or that lacks "//" authority (RFC 9110 §4.2). → 400.
	ErrTargetScheme = errors.New("brisk: request-target scheme is not http or https")

	// ErrTargetUserinfo: an absolute-form authority with userinfo, which
	// RFC 9110 §4.2.4 tells recipients to treat as an error. → 400.
	ErrTargetUserinfo = errors.New("brisk: userinfo in request-target")

	// ErrInvalidHost: a host or authority that is not uri-host [ ":" port ]
	// (RFC 3986 §3.2.2, §3.2.3; RFC 9110 §7.2). → 400.
	ErrInvalidHost = errors.New("brisk: invalid host")

	// ErrPathEscape: a "%" in the path not followed by two hexadecimal
	// digits (RFC 3986 §2.1). → 400.
	ErrPathEscape = errors.New("brisk: invalid percent-encoding in path")

	// ErrPathByte: the path holds a raw (unencoded) control character or
	// backslash; percent-encoded ones are valid and stay encoded (see
	// DecodePath). → 400.
	ErrPathByte = errors.New("brisk: forbidden byte in path")

	// ErrPathStart: a non-empty path that does not start with "/"
	// (RFC 3986 §3.3 path-absolute / path-abempty). → 400.
	ErrPathStart = errors.New("brisk: path does not start with /")

	// ErrCookieName: a Set-Cookie name that is not a token (RFC 6265
	// §4.1.1).
	ErrCookieName = errors.New("brisk: invalid cookie name")

	// ErrCookieValue: a Set-Cookie value that is not *cookie-octet,
	// optionally in DQUOTEs (RFC 6265 §4.1.1): no CTL, SP, DQUOTE
	// (except as the enclosing pair), ",", ";", "\" or non-ASCII byte.
	ErrCookieValue = errors.New("brisk: invalid cookie value")

	// ErrCookiePath: a Path attribute value holding a CTL, ";" or a
	// non-ASCII byte (RFC 6265 §4.1.1 path-value).
	ErrCookiePath = errors.New("brisk: invalid cookie Path")

	// ErrCookieDomain: a Domain attribute value that is not a host name
	// (RFC 6265 §4.1.1 domain-value, RFC 1034 §3.5).
	ErrCookieDomain = errors.New("brisk: invalid cookie Domain")

	// ErrCookieExpires: an Expires time whose year is outside 1601..9999,
	// which IMF-fixdate cannot carry (RFC 6265 §5.1.1, RFC 9110 §5.6.7).
	ErrCookieExpires = errors.New("brisk: invalid cookie Expires")

	// ErrCookieSecure: Partitioned or SameSite=None without Secure;
	// user agents drop such cookies (draft-cutler-httpbis-partitioned-cookies,
	// RFC 6265bis §4.1.2.7).
	ErrCookieSecure = errors.New("brisk: cookie attribute requires Secure")

	// ErrCookiePrefix: a "__Secure-" cookie without Secure, or a "__Host-"
	// cookie without Secure, with a Domain, or with a Path other than "/"
	// (RFC 6265bis §4.1.3).
	ErrCookiePrefix = errors.New("brisk: cookie name prefix requirements not met")

	// ErrSetCookieSyntax: a Set-Cookie field value without a name-value
	// pair "name=value" before the first ";" (RFC 6265 §5.2).
	ErrSetCookieSyntax = errors.New("brisk: malformed Set-Cookie")

	// ErrNotMultipart: a Content-Type that is not multipart/form-data with
	// a valid boundary parameter (RFC 7578 §4.1, RFC 2046 §5.1.1). → 415
	// (see ErrorStatus).
	ErrNotMultipart = errors.New("brisk: not multipart/form-data with a boundary")

	// ErrMultipartParts: a multipart body with more parts than
	// MultipartLimits.MaxParts. → 413.
	ErrMultipartParts = errors.New("brisk: too many multipart parts")

	// ErrMultipartTooLarge: a multipart body larger than
	// MultipartLimits.MaxMemoryBytes + MaxDiskBytes. → 413.
	ErrMultipartTooLarge = errors.New("brisk: multipart body too large")
)
