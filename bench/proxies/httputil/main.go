// Command httputil is net/http's httputil.ReverseProxy in front of one
// upstream, for bench/proxy.sh: keep-alive to the upstream, X-Forwarded-For
// added (its default).
package main

import (
	"flag"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	to := flag.String("to", "http://127.0.0.1:9001", "upstream `URL`")
	flag.Parse()
	u, err := url.Parse(*to)
	if err != nil {
		log.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.Transport = &http.Transport{MaxIdleConnsPerHost: 1024, MaxIdleConns: 1024, DisableCompression: true}
	log.Fatal(http.ListenAndServe(*addr, p))
}
