package brisk_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/brisk-http/brisk"
)

// upper is a BodyFilter that sends a streamed body in upper case.
type upper struct{ out io.Writer }

func (u *upper) Begin(c *brisk.Ctx) bool {
	u.out = c.BodyWriter().Unfiltered()
	return true
}
func (u *upper) Write(p []byte) (int, error) { return u.out.Write(bytes.ToUpper(p)) }
func (u *upper) Flush() error                { return nil }

// ExampleBodyWriter_SetFilter transforms a streamed body with a
// BodyFilter, as package compress does.
func ExampleBodyWriter_SetFilter() {
	do, stop := exampleClient(func(c *brisk.Ctx) {
		w := c.BodyWriter()
		w.SetFilter(&upper{})
		c.Response.Header.Set("Content-Type", "text/plain")
		w.WriteString("hello, ")
		w.Flush()
		w.WriteString("filter")
	})
	defer stop()

	_, body, err := do("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(body))
	// Output:
	// HELLO, FILTER
}
