package wire

// ChunkedDecoder decodes the chunked transfer coding (RFC 9112 §7.1) in
// place, incrementally. The zero value is ready to use with default limits.
// (Stub: the full contract is in the owning issue.)
type ChunkedDecoder struct {
	// MaxExtensionBytes bounds the chunk-ext bytes of one chunk line.
	MaxExtensionBytes int
	// MaxTrailerBytes bounds the trailer section.
	MaxTrailerBytes int
	// Trailers receives the trailer fields; set to storage[:0] like
	// FieldSection.Fields. Slices alias the decoded input.
	Trailers []Field
}

// Decode decodes the chunked bytes in src, moving the chunk data to the
// front of src. It returns n, the number of body bytes now in src[:n], and
// consumed, the number of bytes of src used. Bytes src[consumed:] were not
// used: keep them and call again after appending more input. When Done
// reports true, the last chunk and trailer section have been read and
// src[consumed:] belongs to the next message.
func (d *ChunkedDecoder) Decode(src []byte) (n, consumed int, err error) {
	panic("wire: Decode not implemented yet")
}

// Done reports whether the last chunk and the trailer section were decoded.
func (d *ChunkedDecoder) Done() bool { panic("wire: Done not implemented yet") }

// Reset prepares d for a new body, keeping its limits and trailer storage.
func (d *ChunkedDecoder) Reset() { panic("wire: Reset not implemented yet") }
