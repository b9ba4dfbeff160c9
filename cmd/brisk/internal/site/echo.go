package site

import (
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
)

// serveEcho answers /echo: an HTML page for a client whose Accept prefers
// text/html (a browser following the home page's link), the JSON echo
// document otherwise. Vary tells caches the answer depends on Accept.
func serveEcho(c *brisk.Ctx) {
	c.Response.Header.Set("Vary", "Accept")
	if echo.PrefersHTML(&c.Request) {
		echo.HandleHTML(c)
		return
	}
	echo.Handle(c)
}
