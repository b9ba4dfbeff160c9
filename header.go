package brisk

import (
	"iter"

	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Header is a field section (RFC 9110 §5): the header fields of a request or
// response, or a trailer section. One type serves all three.
//
// Lookups are case-insensitive (RFC 9110 §5.1); iteration is in wire order
// with names in their original case. A received Header aliases the
// connection's read buffer: every returned slice is valid until the handler
// returns (copy it to keep it) and must not be modified. Fields added by
// Add/Set are copied into storage owned by the Header.
//
// The zero value is an empty Header ready to use.
type Header struct {
	fields []wire.Field
	raw    []byte // received field section, nil when built locally
	arena  []byte // storage for added names and values
}

// Get returns the value of the first field named name, compared
// case-insensitively, or nil if there is none.
func (h *Header) Get(name string) []byte {
	if i := h.index(name); i >= 0 {
		return h.fields[i].Value
	}
	return nil
}

// Has reports whether a field named name is present.
func (h *Header) Has(name string) bool { return h.index(name) >= 0 }

// HasToken reports whether a field named name lists tok: whether one of
// its values, a comma-separated list (RFC 9110 §5.6.1), has the element
// tok, compared case-insensitively (e.g. HasToken("Connection", "close")).
func (h *Header) HasToken(name, tok string) bool {
	for v := range h.Values(name) {
		if wire.HasToken(v, tok) {
			return true
		}
	}
	return false
}

// Values iterates over the values of every field named name, in wire order.
// A list-valued field sent as several field lines yields one value per line;
// values are not split at commas.
func (h *Header) Values(name string) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for i := range h.fields {
			if ascii.EqualFold(h.fields[i].Name, name) && !yield(h.fields[i].Value) {
				return
			}
		}
	}
}

// All iterates over all fields in wire order, names in their original case.
func (h *Header) All() iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		for i := range h.fields {
			if !yield(h.fields[i].Name, h.fields[i].Value) {
				return
			}
		}
	}
}

// Len returns the number of field lines.
func (h *Header) Len() int { return len(h.fields) }

// Add appends the field "name: value". Name and value are copied. They are
// validated when a response is written, not here (see Response).
func (h *Header) Add(name, value string) { addField(h, name, value) }

// AddBytes is Add for byte slices; they are copied, not kept, so they may
// be in a buffer on the caller's stack.
//
//go:noinline
func (h *Header) AddBytes(name, value []byte) { addField(h, name, value) }

// The byte-slice methods are not inlined: inlined into a caller in
// another package, their call of the generic addField or setField carries
// no escape information there, and the compiler moves the caller's
// arguments to the heap (an allocation per call for a stack buffer). Not
// inlined, the caller sees that they do not escape.

// Set replaces the value of the first field named name and removes the
// other fields of that name, or appends the field when absent.
func (h *Header) Set(name, value string) { setField(h, name, value) }

// SetBytes is Set for byte slices; they are copied, not kept, so they may
// be in a buffer on the caller's stack.
//
//go:noinline
func (h *Header) SetBytes(name, value []byte) { setField(h, name, value) }

// Del removes every field named name.
func (h *Header) Del(name string) { delFrom(h, 0, name) }

// Raw returns the field section exactly as received (wire.FieldSection.Raw):
// from the first field line through the CRLF ending the last one. It is nil
// for a Header built locally and is not updated by Add, Set or Del.
func (h *Header) Raw() []byte { return h.raw }

// Reset empties h, keeping its storage for reuse.
func (h *Header) Reset() {
	h.fields = h.fields[:0]
	h.raw = nil
	h.arena = h.arena[:0]
}

// setReceived makes h the view of a parsed field section (or trailer
// fields). h then aliases the parser's storage and buffer.
func (h *Header) setReceived(fields []wire.Field, raw []byte) {
	h.fields = fields
	h.raw = raw
	h.arena = h.arena[:0]
}

func (h *Header) index(name string) int {
	for i := range h.fields {
		if ascii.EqualFold(h.fields[i].Name, name) {
			return i
		}
	}
	return -1
}

// delFrom removes the fields named name at index from and later.
func delFrom[N wire.Bytes](h *Header, from int, name N) {
	j := from
	for i := from; i < len(h.fields); i++ {
		if !ascii.EqualFold(h.fields[i].Name, name) {
			h.fields[j] = h.fields[i]
			j++
		}
	}
	clear(h.fields[j:])
	h.fields = h.fields[:j]
}

// store copies b into the arena and returns the copy. Earlier copies stay
// valid when the arena grows: they keep the old array alive.
func store[B wire.Bytes](h *Header, b B) []byte {
	start := len(h.arena)
	h.arena = append(h.arena, b...)
	return h.arena[start:len(h.arena):len(h.arena)]
}

func addField[N, V wire.Bytes](h *Header, name N, value V) {
	h.fields = append(h.fields, wire.Field{Name: store(h, name), Value: store(h, value)})
}

func setField[N, V wire.Bytes](h *Header, name N, value V) {
	for i := range h.fields {
		if ascii.EqualFold(h.fields[i].Name, name) {
			h.fields[i].Value = store(h, value)
			delFrom(h, i+1, name)
			return
		}
	}
	addField(h, name, value)
}

// validToken reports whether b is a non-empty token (RFC 9110 §5.6.2).
func validToken[T string | []byte](b T) bool { return wire.ValidFieldName(b) }
