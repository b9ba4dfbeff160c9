package wire

// Bytes is the type set of the encoders' arguments: string or []byte, so
// callers need no conversion (and no allocation).
type Bytes interface{ ~string | ~[]byte }

// AppendStatusLine appends "HTTP/1.1 code reason\r\n" (RFC 9112 §4). An
// empty reason means StatusText(code).
func AppendStatusLine[R Bytes](dst []byte, code int, reason R) []byte {
	panic("wire: AppendStatusLine not implemented yet")
}

// AppendRequestLine appends "method target HTTP/1.1\r\n" (RFC 9112 §3).
func AppendRequestLine[M, T Bytes](dst []byte, method M, target T) []byte {
	panic("wire: AppendRequestLine not implemented yet")
}

// AppendField appends "name: value\r\n" (RFC 9112 §5).
func AppendField[N, V Bytes](dst []byte, name N, value V) []byte {
	panic("wire: AppendField not implemented yet")
}

// AppendChunkSize appends the chunk-size line "hex(n)\r\n" for n > 0
// (RFC 9112 §7.1). The chunk data and its CRLF follow.
func AppendChunkSize(dst []byte, n int) []byte {
	panic("wire: AppendChunkSize not implemented yet")
}

// AppendLastChunk appends "0\r\n", the trailer fields and the final CRLF.
func AppendLastChunk(dst []byte, trailers []Field) []byte {
	panic("wire: AppendLastChunk not implemented yet")
}

// StatusText returns the reason phrase registered for code (RFC 9110 §15),
// or "" when there is none.
func StatusText(code int) string { panic("wire: StatusText not implemented yet") }
