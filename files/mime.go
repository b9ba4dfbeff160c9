package files

import (
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
)

// webTypes maps the extensions of common web files, in lower case, to
// their media types, so the answer does not depend on the host's
// mime.types. Text types carry charset=utf-8.
var webTypes = map[string]string{
	".avif":        "image/avif",
	".css":         "text/css; charset=utf-8",
	".csv":         "text/csv; charset=utf-8",
	".gif":         "image/gif",
	".htm":         "text/html; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".ico":         "image/x-icon",
	".jpeg":        "image/jpeg",
	".jpg":         "image/jpeg",
	".js":          "text/javascript; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".md":          "text/markdown; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".mp3":         "audio/mpeg",
	".mp4":         "video/mp4",
	".oga":         "audio/ogg",
	".ogg":         "audio/ogg",
	".ogv":         "video/ogg",
	".otf":         "font/otf",
	".pdf":         "application/pdf",
	".png":         "image/png",
	".svg":         "image/svg+xml",
	".ttf":         "font/ttf",
	".txt":         "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webm":        "video/webm",
	".webmanifest": "application/manifest+json",
	".webp":        "image/webp",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".xml":         "text/xml; charset=utf-8",
	".zip":         "application/zip",
}

// TypeByExtension returns the media type for the extension of name
// ("a/b.css" gives "text/css; charset=utf-8"): from a built-in table of
// the common web types, else from mime.TypeByExtension (the host's
// tables), else "". Extensions are compared case-insensitively.
func TypeByExtension(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := webTypes[ext]; ok {
		return t
	}
	if ext == "" {
		return ""
	}
	return mime.TypeByExtension(ext)
}

// sniffLen is how many bytes http.DetectContentType considers.
const sniffLen = 512

// sniffType reads up to the first 512 bytes of content to guess its media
// type (http.DetectContentType, the WHATWG MIME sniffing algorithm) and
// seeks back to the start.
func sniffType(content io.ReadSeeker) (string, error) {
	var buf [sniffLen]byte
	n, err := io.ReadFull(content, buf[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", err
	}
	if _, err := content.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	return http.DetectContentType(buf[:n]), nil
}
