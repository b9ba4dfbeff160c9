package brisk

import (
	"mime"

	"github.com/brisk-http/brisk/internal/ascii"
)

// Request bodies carrying forms (RFC 7578, WHATWG URL Standard §5). An
// application/x-www-form-urlencoded body is read with an Args:
//
//	var form brisk.Args
//	if brisk.IsFormURLEncoded(contentType) {
//		body, err := req.Body()
//		...
//		form.Reset(body)
//		name := form.Peek("name")
//	}
//
// A multipart/form-data body goes through ParseMultipart.

// IsFormURLEncoded reports whether the Content-Type field value ct names
// application/x-www-form-urlencoded, ignoring case, parameters and
// whitespace before them (RFC 9110 §8.3.1). It does not allocate.
func IsFormURLEncoded(ct []byte) bool {
	return mediaTypeIs(ct, "application/x-www-form-urlencoded")
}

// IsMultipartForm reports whether the Content-Type field value ct names
// multipart/form-data, ignoring case and parameters. It does not allocate.
func IsMultipartForm(ct []byte) bool {
	return mediaTypeIs(ct, "multipart/form-data")
}

// mediaTypeIs reports whether the media type of the Content-Type field
// value ct, before any ";", is lower (lower-case), ignoring ASCII case and
// surrounding whitespace.
func mediaTypeIs(ct []byte, lower string) bool {
	for i, c := range ct {
		if c == ';' {
			ct = ct[:i]
			break
		}
	}
	return ascii.EqualFold(ascii.TrimOWS(ct), lower)
}

// MultipartBoundary returns the boundary parameter of a multipart/form-data
// Content-Type field value ct (RFC 7578 §4.1, RFC 2046 §5.1.1: 1 to 70
// characters). It returns ErrNotMultipart when ct is another media type,
// malformed, or lacks a valid boundary. It allocates (mime.ParseMediaType).
func MultipartBoundary(ct []byte) (string, error) {
	if !IsMultipartForm(ct) {
		return "", ErrNotMultipart
	}
	_, params, err := mime.ParseMediaType(string(ct))
	if err != nil {
		return "", ErrNotMultipart
	}
	b := params["boundary"]
	if len(b) == 0 || len(b) > 70 || b[len(b)-1] == ' ' {
		return "", ErrNotMultipart
	}
	return b, nil
}
