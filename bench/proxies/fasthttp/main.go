// Command fasthttp is a reverse proxy on fasthttp's HostClient, the usual
// pattern (fasthttp has none built in), for bench/proxy.sh: the request
// is forwarded with its hop-by-hop fields removed and X-Forwarded-For
// added, the response buffered whole by HostClient.Do.
package main

import (
	"flag"
	"log"
	"net"

	"github.com/valyala/fasthttp"
)

var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address`")
	to := flag.String("to", "127.0.0.1:9001", "upstream `host:port`")
	flag.Parse()
	hc := &fasthttp.HostClient{Addr: *to, MaxConns: 1024}
	h := func(ctx *fasthttp.RequestCtx) {
		req, resp := &ctx.Request, &ctx.Response
		for _, f := range hopByHop {
			req.Header.Del(f)
		}
		if ip, _, err := net.SplitHostPort(ctx.RemoteAddr().String()); err == nil {
			req.Header.Add("X-Forwarded-For", ip)
		}
		if err := hc.Do(req, resp); err != nil {
			ctx.Error("bad gateway: "+err.Error(), fasthttp.StatusBadGateway)
			return
		}
		for _, f := range hopByHop {
			resp.Header.Del(f)
		}
	}
	log.Fatal(fasthttp.ListenAndServe(*addr, h))
}
