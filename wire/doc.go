// Package wire is brisk's HTTP/1.1 codec: a pure parser and encoder over
// byte slices, shared by the server and the client.
//
// It does no I/O and allocates nothing in steady state: parsers read a
// caller-owned buffer and return slices that alias it; encoders append to a
// caller-owned slice. Parsers are resumable: a head arriving in pieces is
// scanned once in total, not from byte 0 on every call.
//
// The grammar is RFC 9112 (HTTP/1.1 message syntax) and RFC 9110 §5 (fields),
// applied strictly: every leniency is a separate, documented, off-by-default
// option of Parser.
//
// On amd64 the field lines of the usual shape are split by SSE2 assembly
// (scan_amd64.s) in one call that marks the bytes ending values 32 at a
// time with AVX2 (16 with SSE2 on CPUs without it) and walks from line to
// line; the request-target and field values are scanned 16 bytes at a
// time. Any other line takes the Go path, which applies every rule and
// reports every error. Other architectures and the purego build tag use
// the Go twin of each assembly function, which tests eight bytes at a
// time and is tested against it.
//
// The encoders (the Append functions) trust their input: nothing is escaped
// or refused, so a field name or value that did not come from brisk's own
// code must first pass ValidFieldName or ValidFieldValue, else a CR or LF
// in it would split the message.
package wire
