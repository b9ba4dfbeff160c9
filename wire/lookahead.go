package wire

import "encoding/binary"

// The fast paths compare whole words against the most frequent start
// lines before the general, byte-at-a-time parse. A miss costs one or two
// compares of values already loaded. Words are little-endian loads of the
// bytes shown.
const (
	wordGETRoot = 0x5448202f20544547 // "GET / HT"
	wordTP11    = 0x0a0d312e312f5054 // "TP/1.1\r\n"
	wordHTTP11  = 0x312e312f50545448 // "HTTP/1.1"
	word200OK   = 0x0d4b4f2030303220 // " 200 OK\r"
	wordCRLF    = 0x0a0d             // "\r\n"

	word4GET  = 0x20544547 // "GET "
	word4PUT  = 0x20545550 // "PUT "
	word4POST = 0x54534f50 // "POST"
	word4HEAD = 0x44414548 // "HEAD"
	word4DELE = 0x454c4544 // "DELE"
	word4OPTI = 0x4954504f // "OPTI"
	word4PATC = 0x43544150 // "PATC"
)

// lookAheadGETRoot reports whether b[pos:] starts with the request line
// "GET / HTTP/1.1\r\n" (16 bytes), using two 8-byte loads.
func lookAheadGETRoot(b []byte, pos int) bool {
	if len(b)-pos < 16 {
		return false
	}
	w := b[pos : pos+16]
	return binary.LittleEndian.Uint64(w) == wordGETRoot &&
		binary.LittleEndian.Uint64(w[8:]) == wordTP11
}

// lookAheadMethod returns the length of a common method at b[pos:] that is
// followed by SP, or 0. It needs 8 bytes (shorter input takes the general
// path) and decides with one 4-byte compare and at most one more.
func lookAheadMethod(b []byte, pos int) int {
	if len(b)-pos < 8 {
		return 0
	}
	w := b[pos : pos+8]
	switch binary.LittleEndian.Uint32(w) {
	case word4GET, word4PUT:
		return 3
	case word4POST, word4HEAD:
		if w[4] == ' ' {
			return 4
		}
	case word4DELE: // DELETE
		if w[4] == 'T' && w[5] == 'E' && w[6] == ' ' {
			return 6
		}
	case word4OPTI: // OPTIONS
		if w[4] == 'O' && w[5] == 'N' && w[6] == 'S' && w[7] == ' ' {
			return 7
		}
	case word4PATC: // PATCH
		if w[4] == 'H' && w[5] == ' ' {
			return 5
		}
	}
	return 0
}

// lookAheadStatus200 reports whether b[pos:] starts with the status line
// "HTTP/1.1 200 OK\r\n" (17 bytes): two 8-byte loads and one byte.
func lookAheadStatus200(b []byte, pos int) bool {
	if len(b)-pos < 17 {
		return false
	}
	w := b[pos : pos+17]
	return binary.LittleEndian.Uint64(w) == wordHTTP11 &&
		binary.LittleEndian.Uint64(w[8:]) == word200OK && w[16] == '\n'
}
