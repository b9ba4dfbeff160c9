package wire

import "github.com/brisk-http/brisk/internal/ascii"

// FieldClass names the fields whose meaning a sender of HTTP/1.1 messages
// manages itself rather than copying from its caller: framing (RFC 9112
// §6), connection options (RFC 9110 §7.6.1), Host (RFC 9112 §3.2) and the
// server's Date and Server fields (RFC 9110 §6.6.1, §10.2.4).
type FieldClass uint8

// The field classes. FieldOther is every other field.
const (
	FieldOther FieldClass = iota
	FieldHost
	FieldExpect
	FieldConnection
	FieldContentLength
	FieldTransferEncoding
	FieldDate
	FieldServer
)

// ClassifyField returns the class of the field name, compared
// case-insensitively with the parser's own name table.
func ClassifyField(name []byte) FieldClass {
	switch len(name) {
	case 4, 6, 10, 14, 17: // the lengths of the classified names
	default:
		return FieldOther
	}
	switch nameID(name) {
	case fieldHost:
		return FieldHost
	case fieldExpect:
		return FieldExpect
	case fieldConnection:
		return FieldConnection
	case fieldContentLength:
		return FieldContentLength
	case fieldTransferEncoding:
		return FieldTransferEncoding
	}
	switch {
	case len(name) == 4 && ascii.EqualFoldLower(name, "date"):
		return FieldDate
	case len(name) == 6 && ascii.EqualFoldLower(name, "server"):
		return FieldServer
	}
	return FieldOther
}

// ClassSet is a set of field classes.
type ClassSet uint16

// Classes returns the set of the given classes.
func Classes(cs ...FieldClass) ClassSet {
	var s ClassSet
	for _, c := range cs {
		s |= 1 << c
	}
	return s
}

// Has reports whether c is in s.
func (s ClassSet) Has(c FieldClass) bool { return s&(1<<c) != 0 }

// OutgoingFields is what a sender learns from the field lines its caller
// gave for an outgoing head, by ScanOutgoing.
type OutgoingFields struct {
	// Invalid is the name of the first field line whose name is not a
	// token or whose value is not a valid field value (RFC 9110 §5.1,
	// §5.5), nil when every line is valid. Such a head must not be sent.
	Invalid []byte

	// Present is the set of the classes of the fields present.
	Present ClassSet

	// Close reports a Connection field with the "close" option (RFC 9112
	// §9.6).
	Close bool

	// ContentLength is the value of the first Content-Length field when it
	// is 1*DIGIT within int64 (RFC 9110 §8.6), else -1.
	ContentLength int64
}

// ScanOutgoing validates the field lines fields and notes those of the
// classes a sender manages.
func ScanOutgoing(fields []Field) OutgoingFields {
	o := OutgoingFields{ContentLength: -1}
	for i := range fields {
		f := &fields[i]
		if !ValidFieldName(f.Name) || !ValidFieldValue(f.Value) {
			if o.Invalid == nil {
				o.Invalid = f.Name
			}
			continue
		}
		c := ClassifyField(f.Name)
		switch c {
		case FieldOther:
			continue
		case FieldConnection:
			o.Close = o.Close || HasToken(f.Value, "close")
		case FieldContentLength:
			if !o.Present.Has(FieldContentLength) {
				if n, ok := ParseDecimal(f.Value); ok {
					o.ContentLength = n
				}
			}
		}
		o.Present |= 1 << c
	}
	return o
}

// AppendFields appends fields as field lines, in order, except those whose
// class is in drop. The fields must have passed ScanOutgoing with a nil
// Invalid.
func AppendFields(dst []byte, fields []Field, drop ClassSet) []byte {
	for i := range fields {
		f := &fields[i]
		if drop == 0 || !drop.Has(ClassifyField(f.Name)) {
			dst = AppendField(dst, f.Name, f.Value)
		}
	}
	return dst
}

// HasToken reports whether the comma-separated list value (RFC 9110
// §5.6.1) has the element tok, compared case-insensitively, as a
// connection option, transfer coding or protocol name is compared.
func HasToken(value []byte, tok string) bool {
	value = ascii.TrimOWS(value)
	for len(value) > 0 {
		var elem []byte
		elem, value = nextElement(value)
		if ascii.EqualFold(elem, tok) {
			return true
		}
	}
	return false
}
