package files

import (
	"html"
	"io/fs"
	"net/url"
	"slices"
	"strings"

	"github.com/brisk-http/brisk"
)

// maxListing is the most directory entries a listing shows; a larger
// directory is listed in part, with a note saying so.
const maxListing = 10000

// list answers a directory with an HTML list of its entries, sorted by
// name: names are HTML-escaped, links are relative and percent-encoded
// (so a name like "a:b" or "?x" stays a path), directories end in "/",
// dotfiles are left out unless s.Dotfiles. The directory name is opened
// only here.
func (s *Server) list(c *brisk.Ctx, name string) {
	d, err := s.FS.Open(name)
	if err != nil {
		s.fail(c, name, err)
		return
	}
	defer d.Close()
	rd, ok := d.(fs.ReadDirFile)
	if !ok {
		answerError(&c.Response, 404)
		return
	}
	entries, err := rd.ReadDir(maxListing + 1)
	if err != nil && len(entries) == 0 && name != "." {
		s.fail(c, name, err)
		return
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	title := html.EscapeString(string(c.Request.Path()))
	r := &c.Response
	r.Header.Set("Content-Type", "text/html; charset=utf-8")
	r.WriteString("<!doctype html>\n<meta charset=\"utf-8\">\n<title>Index of " + title +
		"</title>\n<h1>Index of " + title + "</h1>\n<ul>\n")
	for i, e := range entries {
		if i == maxListing {
			r.WriteString("</ul>\n<p>Only the first 10000 entries are listed.</p>\n")
			return
		}
		n := e.Name()
		if !s.Dotfiles && strings.HasPrefix(n, ".") {
			continue
		}
		slash := ""
		if e.IsDir() {
			slash = "/"
		}
		r.WriteString("<li><a href=\"./" + html.EscapeString(url.PathEscape(n)) + slash + "\">" +
			html.EscapeString(n) + slash + "</a></li>\n")
	}
	r.WriteString("</ul>\n")
}
