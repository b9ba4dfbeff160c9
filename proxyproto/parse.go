package proxyproto

import (
	"bytes"
	"encoding/binary"
)

// maxV1 is the longest v1 header, CRLF included (spec §2.1).
const maxV1 = 107

// ScanResult is what the start of a connection's input holds (see Scan).
type ScanResult int

const (
	// NeedMore: the input is empty or a proper prefix of a PROXY header.
	NeedMore ScanResult = iota
	// NotProxy: the input does not begin with a PROXY header signature.
	NotProxy
	// Found: the input begins with a whole PROXY header of the length
	// Scan returns (to be checked by Parse).
	Found
	// Invalid: the input begins with a PROXY signature and no valid
	// header can follow (a v1 line longer than 107 bytes).
	Invalid
)

// Scan classifies the start of a connection's input b and, when it
// holds a whole PROXY header, returns its length n: the v1 line up to
// its LF, or the 16 bytes of a v2 header's fixed part and the length it
// gives. For NeedMore, n is the whole v2 header's length once its fixed
// part is there, else 0. Scan looks at the first 107 bytes at most of a
// v1 header and at the signature and length of a v2 one; Parse checks
// the rest.
func Scan(b []byte) (n int, r ScanResult) {
	switch {
	case len(b) == 0:
		return 0, NeedMore
	case b[0] == sigV2[0]:
		if n := min(len(b), len(sigV2)); string(b[:n]) != sigV2[:n] {
			return 0, NotProxy
		}
		if len(b) < 16 {
			return 0, NeedMore
		}
		n := 16 + int(binary.BigEndian.Uint16(b[14:16]))
		if len(b) < n {
			return n, NeedMore
		}
		return n, Found
	case b[0] == 'P':
		const sig = "PROXY "
		if n := min(len(b), len(sig)); string(b[:n]) != sig[:n] {
			return 0, NotProxy
		}
		if i := bytes.IndexByte(b[:min(len(b), maxV1)], '\n'); i >= 0 {
			return i + 1, Found // parseV1 checks the CR
		}
		if len(b) >= maxV1 {
			return 0, Invalid
		}
		return 0, NeedMore
	}
	return 0, NotProxy
}

// Parse decodes b, one whole PROXY header (the first n bytes of input
// for which Scan reports Found), into h: text v1 (spec §2.1) when it
// starts with "P", else binary v2 (spec §2.2). h is emptied first, its
// storage kept, so that parsing into a reused Header allocates nothing
// (bar the path names of a v2 AF_UNIX header); Parse copies what it
// keeps, and b may be reused once it returns.
//
// Headers are parsed strictly, as the specification says: v1 fields
// separated by single spaces, addresses of the family named (no zone),
// ports without a leading zero, CRLF within 107 bytes; v2 commands and
// address families the specification defines, an address block as long
// as its family's, and a TLV vector of whole TLVs. A v2 LOCAL command,
// a datagram transport and v1 "UNKNOWN" leave Source and Destination
// nil. The error is ErrNotHeader when b is not one whole header as Scan
// finds it, else one of the ErrInvalidV1 and ErrV2 errors.
func Parse(b []byte, h *Header) error {
	if n, r := Scan(b); r != Found || n != len(b) {
		return ErrNotHeader
	}
	if b[0] == 'P' {
		h.reset(1)
		return parseV1(b, h)
	}
	h.reset(2)
	return parseV2(b, h)
}
