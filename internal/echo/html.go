package echo

import (
	"html"
	"strconv"
	"unicode/utf8"

	"github.com/brisk-http/brisk"
)

// HandleHTML is Handle for a person: it answers with status 200 and the
// request as a text/html page (method, request-target, version, field
// lines in order, body), every byte of the request escaped (see
// AppendHTML). Like Handle, it writes nothing when the body cannot be read.
func HandleHTML(c *brisk.Ctx) {
	body, err := c.Request.Body()
	if err != nil {
		return
	}
	c.Response.Header.Set("Content-Type", "text/html; charset=utf-8")
	c.Response.SetStatusCode(200)
	c.Response.SetBody(AppendHTML(c.Response.Body()[:0], &c.Request, body))
}

// AppendHTML appends to dst a complete HTML document showing r, with body
// as its body, and returns the extended slice. Each value is shown as
// text when it is valid UTF-8 without control characters other than
// HTAB, CR and LF, and otherwise as a Go-quoted string ("\x00", "\xff");
// either way HTML-escaped, so no request byte is markup.
func AppendHTML(dst []byte, r *brisk.Request, body []byte) []byte {
	dst = append(dst, htmlHead...)
	dst = append(dst, "<p><code>"...)
	dst = appendText(dst, r.Method())
	dst = append(dst, ' ')
	dst = appendText(dst, r.Target())
	dst = append(dst, ' ')
	dst = append(dst, r.Proto()...)
	dst = append(dst, "</code></p>\n<h2>Fields</h2>\n<table>\n"...)
	for name, value := range r.Header.All() {
		dst = append(dst, "<tr><th>"...)
		dst = appendText(dst, name)
		dst = append(dst, "</th><td>"...)
		dst = appendText(dst, value)
		dst = append(dst, "</td></tr>\n"...)
	}
	dst = append(dst, "</table>\n<h2>Body ("...)
	dst = strconv.AppendInt(dst, int64(len(body)), 10)
	dst = append(dst, " bytes)</h2>\n<pre>"...)
	dst = appendText(dst, body)
	return append(dst, "</pre>\n<p>Programs get this as JSON: send no <code>Accept</code> preferring <code>text/html</code>.</p>\n</body>\n</html>\n"...)
}

const htmlHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>brisk echo</title>
<link rel="stylesheet" href="/static/style.css">
</head>
<body>
<h1>Your request, as brisk parsed it</h1>
`

// appendText appends b HTML-escaped, Go-quoted first unless it is
// readable text.
func appendText(dst, b []byte) []byte {
	s := string(b)
	if !readable(b) {
		s = strconv.Quote(s)
	}
	return append(dst, html.EscapeString(s)...)
}

// readable reports whether b is valid UTF-8 with no control character
// but HTAB, LF and CR.
func readable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(b)
}
