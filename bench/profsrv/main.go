// Command profsrv is the server of bench/profiles.sh: one program per
// implementation (-impl brisk, fasthttp or nethttp) answering every
// profile the same way:
//
//	/       200, text/plain, "Hello, World!"
//	/json   200, application/json, a small struct by encoding/json
//	/f/NAME the file NAME of -root (brisk files.Server, fasthttp.FS,
//	        http.FileServer)
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
	"github.com/valyala/fasthttp"
)

// message is the JSON profile's body.
type message struct {
	ID      int    `json:"id"`
	Name    string `json:"name"`
	Email   string `json:"email"`
	Active  bool   `json:"active"`
	Score   int    `json:"score"`
	Message string `json:"message"`
}

var msg = message{ID: 42, Name: "user 42", Email: "user42@example.com", Active: true, Score: 554, Message: "Hello, World!"}

const hello = "Hello, World!"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	impl := flag.String("impl", "brisk", "server: brisk, fasthttp or nethttp")
	root := flag.String("root", ".", "`directory` served under /f/")
	flag.Parse()
	switch *impl {
	case "brisk":
		log.Fatal(serveBrisk(*addr, *root))
	case "fasthttp":
		log.Fatal(serveFasthttp(*addr, *root))
	case "nethttp":
		log.Fatal(serveNethttp(*addr, *root))
	default:
		log.Fatalf("unknown -impl %q", *impl)
	}
}

func serveBrisk(addr, root string) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	fs := &files.Server{FS: r.FS(), Prefix: "/f/"}
	h := func(c *brisk.Ctx) {
		switch p := c.Request.Path(); {
		case string(p) == "/json":
			c.JSON(200, &msg)
		case strings.HasPrefix(string(p), "/f/"):
			fs.Handle(c)
		default:
			c.Response.Header.Set("Content-Type", "text/plain")
			c.Response.SetBodyString(hello)
		}
	}
	s := &brisk.Server{Handler: h, Name: "brisk"}
	return s.ListenAndServe(addr)
}

func serveFasthttp(addr, root string) error {
	fs := &fasthttp.FS{Root: root, AcceptByteRange: true, PathRewrite: fasthttp.NewPathSlashesStripper(1)}
	files := fs.NewRequestHandler()
	h := func(c *fasthttp.RequestCtx) {
		switch p := c.Path(); {
		case string(p) == "/json":
			c.SetContentType("application/json")
			json.NewEncoder(c).Encode(&msg)
		case strings.HasPrefix(string(p), "/f/"):
			files(c)
		default:
			c.SetContentType("text/plain")
			c.SetBodyString(hello)
		}
	}
	s := &fasthttp.Server{Handler: h, Name: "fasthttp"}
	return s.ListenAndServe(addr)
}

func serveNethttp(addr, root string) error {
	mux := http.NewServeMux()
	mux.Handle("/f/", http.StripPrefix("/f", http.FileServer(http.Dir(root))))
	mux.HandleFunc("/json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(&msg)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(hello))
	})
	return http.ListenAndServe(addr, mux)
}
