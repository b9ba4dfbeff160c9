// Command profsrv is the server of bench/profiles.sh: one program per
// implementation (-impl brisk, fasthttp, nethttp or nbio) answering every
// profile the same way:
//
//	/       200, text/plain, "Hello, World!"
//	/json   200, application/json, a small struct by encoding/json
//	/f/NAME the file NAME of -root (brisk files.Server, fasthttp.FS,
//	        http.FileServer; nbio: http.FileServer on nbhttp)
//	/gz/NAME the file NAME of -root compressed on the fly with gzip at
//	        level 6 when asked (brisk compress middleware, fasthttp
//	        CompressHandlerLevel; not nethttp, nbio: they have none)
//	/upload POST: the body read as a stream (up to 32 MiB) and
//	        discarded, 204
//
// With -cert and -key it serves HTTPS instead (brisk, fasthttp, nethttp),
// brisk and net/http with HTTP/2 offered by ALPN (brisk through h2.Configure
// and its own handler).
package main

import (
	"crypto/tls"
	"encoding/json"
	"flag"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
	"github.com/brisk-http/brisk/files"
	"github.com/brisk-http/brisk/h2"
	"github.com/lesismal/nbio/logging"
	"github.com/lesismal/nbio/nbhttp"
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

const (
	hello   = "Hello, World!"
	maxBody = 32 << 20 // the upload profile's bodies are 20 MB
)

// certFile and keyFile are -cert and -key: HTTPS when both are set.
var certFile, keyFile string

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	impl := flag.String("impl", "brisk", "server: brisk, fasthttp or nethttp")
	root := flag.String("root", ".", "`directory` served under /f/")
	flag.StringVar(&certFile, "cert", "", "PEM certificate `file` (HTTPS)")
	flag.StringVar(&keyFile, "key", "", "PEM key `file` (HTTPS)")
	flag.Parse()
	switch *impl {
	case "brisk":
		log.Fatal(serveBrisk(*addr, *root))
	case "fasthttp":
		log.Fatal(serveFasthttp(*addr, *root))
	case "nethttp":
		log.Fatal(serveNethttp(*addr, *root))
	case "nbio":
		log.Fatal(serveNbio(*addr, *root))
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
	gz := compress.New(compress.Config{Codings: []string{compress.Gzip}, GzipLevel: 6})(
		(&files.Server{FS: r.FS(), Prefix: "/gz/"}).Handle)
	h := func(c *brisk.Ctx) {
		switch p := c.Request.Path(); {
		case string(p) == "/json":
			c.JSON(200, &msg)
		case string(p) == "/upload":
			io.Copy(io.Discard, c.Request.BodyReader())
			c.Response.SetStatusCode(204)
		case strings.HasPrefix(string(p), "/f/"):
			fs.Handle(c)
		case strings.HasPrefix(string(p), "/gz/"):
			gz(c)
		default:
			c.Response.Header.Set("Content-Type", "text/plain")
			c.Response.SetBodyString(hello)
		}
	}
	s := &brisk.Server{Handler: h, Name: "brisk", MaxBodyBytes: maxBody,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if certFile == "" {
		return s.ListenAndServe(addr)
	}
	if err := h2.Configure(s, h2.Config{}); err != nil {
		return err
	}
	s.TLSConfig = &tls.Config{}
	return s.ListenAndServeTLS(addr, certFile, keyFile)
}

func serveFasthttp(addr, root string) error {
	fs := &fasthttp.FS{Root: root, AcceptByteRange: true, PathRewrite: fasthttp.NewPathSlashesStripper(1)}
	files := fs.NewRequestHandler()
	gz := fasthttp.CompressHandlerLevel(files, 6)
	h := func(c *fasthttp.RequestCtx) {
		switch p := c.Path(); {
		case string(p) == "/json":
			c.SetContentType("application/json")
			json.NewEncoder(c).Encode(&msg)
		case string(p) == "/upload":
			io.Copy(io.Discard, c.RequestBodyStream())
			c.SetStatusCode(204)
		case strings.HasPrefix(string(p), "/f/"):
			files(c)
		case strings.HasPrefix(string(p), "/gz/"):
			gz(c)
		default:
			c.SetContentType("text/plain")
			c.SetBodyString(hello)
		}
	}
	s := &fasthttp.Server{Handler: h, Name: "fasthttp", StreamRequestBody: true, MaxRequestBodySize: maxBody}
	if certFile != "" {
		return s.ListenAndServeTLS(addr, certFile, keyFile)
	}
	return s.ListenAndServe(addr)
}

func serveNethttp(addr, root string) error {
	s := &http.Server{Addr: addr, Handler: mux(root), ErrorLog: log.New(io.Discard, "", 0)}
	if certFile != "" {
		return s.ListenAndServeTLS(certFile, keyFile)
	}
	return s.ListenAndServe()
}

// serveNbio serves mux(root) with nbio's event-loop engine (nbhttp).
func serveNbio(addr, root string) error {
	logging.SetLevel(logging.LevelNone)
	e := nbhttp.NewEngine(nbhttp.Config{Network: "tcp", Addrs: []string{addr}, Handler: mux(root),
		MaxLoad: 1 << 20, MaxHTTPBodySize: maxBody})
	if err := e.Start(); err != nil {
		return err
	}
	select {}
}

// mux is the net/http handler of net/http and nbio.
func mux(root string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/f/", http.StripPrefix("/f", http.FileServer(http.Dir(root))))
	mux.HandleFunc("/json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(&msg)
	})
	mux.HandleFunc("/upload", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, maxBody))
		w.WriteHeader(204)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(hello))
	})
	return mux
}
