package brisk

import (
	"errors"
	"io"
	"regexp"
	"syscall"
	"time"
)

// dateField matches a Date field line, whose value changes every second.
var dateField = regexp.MustCompile("Date: [^\r\n]*\r\n")

// noDate replaces the value of every Date field in raw by "D".
func noDate(raw string) string { return dateField.ReplaceAllString(raw, "Date: D\r\n") }

// readUntilClose returns every byte the server sends until it closes the
// connection (or 3 s pass), with Date values replaced (noDate).
func (c *client) readUntilClose() string {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	b, err := io.ReadAll(c.br)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		c.t.Fatalf("reading until close: %v (after %q)", err, b)
	}
	return noDate(string(b))
}
