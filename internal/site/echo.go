package site

import (
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
)

func serveEcho(c *brisk.Ctx) { echo.Handle(c) }
