package site

import (
	"net/http"
	"net/http/pprof"

	"github.com/brisk-http/brisk"
)

// The site's endpoints built on net/http code:
//
//	/debug/pprof/  net/http/pprof through brisk.FromHTTP

// pprofHandler serves net/http/pprof's pages, profiles and traces.
var pprofHandler = brisk.FromHTTP(pprofMux())

func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
