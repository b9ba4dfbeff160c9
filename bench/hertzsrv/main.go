// Command hertzsrv is hertz's server for bench/profiles.sh (CloudWeGo
// hertz on its default netpoll transport), answering the profiles like
// bench/profsrv:
//
//	/        200, text/plain, "Hello, World!"
//	/json    200, application/json, a small struct by encoding/json
//	/f/NAME  the file NAME of -root (hertz's app.FS)
//	/upload  POST: the body read as a stream and discarded, 204
//
// It is its own module, outside go.work, so that hertz's dependencies
// stay out of bench/go.mod: build it with GOWORK=off.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"strings"

	"github.com/cloudwego/hertz/pkg/app"
	"github.com/cloudwego/hertz/pkg/app/server"
	"github.com/cloudwego/hertz/pkg/common/hlog"
)

// message is the JSON profile's body, as in bench/profsrv.
type message struct {
	ID      int    `json:"id"`
	Name    string `json:"name"`
	Email   string `json:"email"`
	Active  bool   `json:"active"`
	Score   int    `json:"score"`
	Message string `json:"message"`
}

var msg = message{ID: 42, Name: "user 42", Email: "user42@example.com", Active: true, Score: 554, Message: "Hello, World!"}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	root := flag.String("root", ".", "`directory` served under /f/")
	flag.Parse()
	hlog.SetOutput(io.Discard)
	h := server.New(server.WithHostPorts(*addr), server.WithStreamBody(true),
		server.WithMaxRequestBodySize(32<<20), server.WithDisablePrintRoute(true))
	fs := (&app.FS{Root: *root, PathRewrite: app.NewPathSlashesStripper(1), AcceptByteRange: true}).NewRequestHandler()
	h.Any("/*path", func(_ context.Context, c *app.RequestContext) {
		switch p := string(c.Path()); {
		case p == "/json":
			c.SetContentType("application/json")
			json.NewEncoder(c).Encode(&msg)
		case p == "/upload":
			io.Copy(io.Discard, c.RequestBodyStream())
			c.SetStatusCode(204)
		case strings.HasPrefix(p, "/f/"):
			fs(context.Background(), c)
		default:
			c.SetContentType("text/plain")
			c.SetBodyString("Hello, World!")
		}
	})
	h.Spin()
}
