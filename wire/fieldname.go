package wire

import (
	"encoding/binary"

	"github.com/brisk-http/brisk/internal/ascii"
)

// fieldID names the fields whose values the parser interprets (see note).
type fieldID uint8

// The interpreted fields; fieldOther is every other name.
const (
	fieldOther fieldID = iota
	fieldHost
	fieldExpect
	fieldConnection
	fieldContentLength
	fieldTransferEncoding
)

// commonNames are the field names recognised whole (commonName, and
// fieldLines through knownNames), lower case, and what they are. They are
// the names of the framing fields and the names most frequent in requests
// and responses, of at most 8*maxNameWords-1 bytes. Any case matches.
var commonNames = []struct {
	name string
	id   fieldID
}{
	{"host", fieldHost}, {"expect", fieldExpect}, {"connection", fieldConnection},
	{"content-length", fieldContentLength}, {"transfer-encoding", fieldTransferEncoding},
	{"accept", 0}, {"accept-encoding", 0}, {"accept-language", 0}, {"accept-charset", 0},
	{"authorization", 0}, {"cache-control", 0}, {"content-type", 0}, {"cookie", 0},
	{"date", 0}, {"etag", 0}, {"if-modified-since", 0}, {"if-none-match", 0},
	{"last-modified", 0}, {"location", 0}, {"origin", 0}, {"pragma", 0}, {"range", 0},
	{"referer", 0}, {"sec-fetch-dest", 0}, {"sec-fetch-mode", 0}, {"sec-fetch-site", 0},
	{"sec-fetch-user", 0}, {"server", 0}, {"set-cookie", 0}, {"upgrade", 0},
	{"user-agent", 0}, {"vary", 0},
	{"x-forwarded-for", 0}, {"x-requested-with", 0},
}

// maxNameWords is how many 8-byte words of a name commonName compares:
// common names of up to 8*maxNameWords-1 bytes are recognised.
const maxNameWords = 3

// knownName is a common name as the words commonName compares: the name
// in lower case loaded from offset 0 (its first bytes only, when shorter
// than 8), from offset 8 when longer than 16 (else n-8) and from offset
// n-8 when longer than 8 (else 0), and its length. n == 0 marks a free
// slot.
type knownName struct {
	first, mid, last uint64
	n                uint8
	id               fieldID
}

// nameSlotBits is log2 of the slots of knownNames; nameHashMul spreads the
// common names over them without collision (knownNames checks).
const (
	nameSlotBits = 7
	nameHashMul  = 0x9e3779b97f4a833f
)

// nameSlot returns the slot of knownNames for a name's first and last
// words.
func nameSlot(first, last uint64) uint64 {
	return (first + last) * nameHashMul >> (64 - nameSlotBits)
}

// knownNames holds the commonNames by nameSlot. Read-only.
var knownNames = func() (t [1 << nameSlotBits]knownName) {
	for _, c := range commonNames {
		var buf [8 * maxNameWords]byte
		copy(buf[:], c.name)
		first, mid, last := nameWords(buf[:], len(c.name))
		k := &t[nameSlot(first, last)]
		if k.n != 0 {
			panic("wire: field name hash collision: " + c.name)
		}
		*k = knownName{first, mid, last, uint8(len(c.name)), c.id}
	}
	return t
}()

// nameWords returns the words of knownName for a name of n bytes at the
// start of b, which has at least 8 bytes and holds the name's words, with
// bit 0x20 set in every byte of the name (see fieldName).
func nameWords(b []byte, n int) (first, mid, last uint64) {
	const fold = 0x2020202020202020
	first = (binary.LittleEndian.Uint64(b) | fold) & nameMask(n)
	mid, last = first, first
	if n > 8 {
		last = binary.LittleEndian.Uint64(b[n-8:]) | fold
		mid = last
	}
	if n > 16 {
		mid = binary.LittleEndian.Uint64(b[8:]) | fold
	}
	return first, mid, last
}

// nameMask returns the mask of the bytes of a name of n bytes in its first
// word.
func nameMask(n int) uint64 {
	if n < 8 {
		return 1<<(8*n) - 1
	}
	return ^uint64(0)
}

// commonName returns what the n bytes at the start of b are, a field
// name followed by a colon, when they are a common name (see fieldName);
// b holds at least 8 bytes and the name's words, the name no CTL.
//
// It compares whole words of the name with bit 0x20 set in every byte:
// that maps exactly the two cases of a letter to the lower-case one, and
// only CTLs besides.
func commonName(b []byte, n int) (fieldID, bool) {
	first, mid, last := nameWords(b, n)
	c := &knownNames[nameSlot(first, last)]
	if first == c.first && mid == c.mid && last == c.last && n == int(c.n) {
		return c.id, true
	}
	return 0, false
}

// fieldName finds the field name at the start of b, a field line, and
// returns the offset of the colon that ends it and what the name is. A
// line that starts with SP or HTAB is ErrObsFold (RFC 9112 §5.2); a name
// that is not a token directly followed by ":" is ErrFieldName at its
// first bad byte (ErrLineEnding for a bare CR); ErrNeedMore when b ends
// first.
func fieldName(b []byte) (colon int, id fieldID, k Kind) {
	i := ascii.Run(b, ascii.Token)
	switch {
	case i == len(b):
		return i, 0, ErrNeedMore
	case i == 0 && ascii.IsOWS(b[0]):
		return 0, 0, ErrObsFold
	case b[i] != ':' || i == 0:
		return i, 0, kindAt(b, i, ErrFieldName)
	}
	return i, nameID(b[:i]), 0
}

// nameID returns what the field name, a token, is, by length then
// case-insensitively.
func nameID(name []byte) fieldID {
	var id fieldID
	var lower string
	switch len(name) {
	case 4:
		id, lower = fieldHost, "host"
	case 6:
		id, lower = fieldExpect, "expect"
	case 10:
		id, lower = fieldConnection, "connection"
	case 14:
		id, lower = fieldContentLength, "content-length"
	case 17:
		id, lower = fieldTransferEncoding, "transfer-encoding"
	default:
		return fieldOther
	}
	if ascii.EqualFoldLower(name, lower) {
		return id
	}
	return fieldOther
}
