package proxyproto

import "errors"

// Reasons Parse refuses a header. A header refused is never partly
// trusted: a server closes the connection.
var (
	// ErrNotHeader: the bytes are not one whole PROXY header as Scan
	// finds it (a prefix of one, one with bytes after it, or no signature).
	ErrNotHeader = errors.New("proxyproto: not one whole PROXY header")

	// ErrInvalidV1: a v1 line breaks the grammar of spec §2.1.
	ErrInvalidV1 = errors.New("proxyproto: invalid PROXY v1 header")

	// ErrV2Command: a v2 header's version is not 2 or its command not
	// LOCAL or PROXY (spec §2.2).
	ErrV2Command = errors.New("proxyproto: PROXY v2 header: unsupported version or command")

	// ErrV2Family: a v2 header's address family and transport protocol
	// byte is not one the spec defines, or is UNSPEC with PROXY.
	ErrV2Family = errors.New("proxyproto: PROXY v2 header: unsupported address family or protocol")

	// ErrV2Length: a v2 PROXY header is shorter than its family's
	// address block.
	ErrV2Length = errors.New("proxyproto: PROXY v2 header: length too short for its address family")

	// ErrTruncatedTLV: a v2 header's TLV vector ends inside a TLV.
	ErrTruncatedTLV = errors.New("proxyproto: PROXY v2 header: truncated TLV")
)

// Reasons Append cannot encode a Header.
var (
	// ErrAddress: Source and Destination are *net.TCPAddr, one of them
	// with a port outside 0..65535 or an IP that is neither 4 nor 16
	// bytes long.
	ErrAddress = errors.New("proxyproto: PROXY header: address not encodable")

	// ErrTLVTooLong: a v2 header's TLVs do not fit its 16-bit length.
	ErrTLVTooLong = errors.New("proxyproto: PROXY v2 header: TLVs too long")
)
