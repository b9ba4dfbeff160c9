// Command filesrv is the file server of bench/files.sh: it serves the
// directory -root with brisk's files.Server (over os.Root), fasthttp.FS or
// http.FileServer, and with -gzip compresses responses on the fly: brisk
// through the compress middleware, fasthttp through CompressHandlerLevel,
// both at gzip level 6 (net/http has no compressor of its own).
package main

import (
	"flag"
	"log"
	"net/http"
	"os"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
	"github.com/brisk-http/brisk/files"
	"github.com/valyala/fasthttp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	impl := flag.String("impl", "brisk", "server: brisk, fasthttp or nethttp")
	root := flag.String("root", ".", "`directory` served")
	gz := flag.Bool("gzip", false, "compress responses with gzip (level 6)")
	flag.Parse()
	switch *impl {
	case "brisk":
		r, err := os.OpenRoot(*root)
		if err != nil {
			log.Fatal(err)
		}
		h := (&files.Server{FS: r.FS()}).Handle
		if *gz {
			h = compress.New(compress.Config{Codings: []string{compress.Gzip}, GzipLevel: 6})(h)
		}
		s := &brisk.Server{Handler: h, Name: "brisk"}
		log.Fatal(s.ListenAndServe(*addr))
	case "fasthttp":
		fs := &fasthttp.FS{Root: *root, AcceptByteRange: true}
		h := fs.NewRequestHandler()
		if *gz {
			h = fasthttp.CompressHandlerLevel(h, 6)
		}
		s := &fasthttp.Server{Handler: h, Name: "fasthttp"}
		log.Fatal(s.ListenAndServe(*addr))
	case "nethttp":
		if *gz {
			log.Fatal("nethttp: no gzip")
		}
		log.Fatal(http.ListenAndServe(*addr, http.FileServer(http.Dir(*root))))
	default:
		log.Fatalf("unknown -impl %q", *impl)
	}
}
