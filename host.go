package brisk

import "github.com/brisk-http/brisk/wire"

// ValidHost reports whether b is uri-host [ ":" port ], the value of a Host
// field or the authority of an absolute-form request-target (RFC 9110 §7.2,
// RFC 3986 §3.2.2-3.2.3), by the check the server's parser applies:
// wire.ValidHost, which says what is accepted. It does not allocate.
func ValidHost(b []byte) bool { return wire.ValidHost(b, false) }
