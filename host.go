package brisk

import "github.com/brisk-http/brisk/wire"

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
// ValidHost. It is the check the server's parser applies (wire.ValidHost)
// and does not allocate.
func ValidHost(b []byte) bool { return wire.ValidHost(b) }
