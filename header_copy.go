package brisk

import "github.com/brisk-http/brisk/wire"

// copyReceived makes h a copy of a parsed field section: raw is copied
// into h's storage once and the fields, which alias raw, are rebased onto
// the copy. Raw then returns the copy.
func (h *Header) copyReceived(fields []wire.Field, raw []byte) {
	h.arena = append(h.arena[:0], raw...)
	h.raw = h.arena[:len(raw):len(raw)]
	h.fields = h.fields[:0]
	for _, f := range fields {
		name, ok1 := rebase(h.raw, raw, f.Name)
		value, ok2 := rebase(h.raw, raw, f.Value)
		if !ok1 || !ok2 { // not within raw: copy separately
			name, value = store(h, f.Name), store(h, f.Value)
		}
		h.fields = append(h.fields, wire.Field{Name: name, Value: value})
	}
}

// rebase returns the part of dst at the offset of s within src, where s
// is a subslice of src (their capacities give the offset) and dst a copy
// of src.
func rebase(dst, src, s []byte) ([]byte, bool) {
	off := cap(src) - cap(s)
	if off < 0 || off+len(s) > len(src) {
		return nil, false
	}
	return dst[off : off+len(s) : off+len(s)], true
}
