package brisk

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/brisk-http/brisk/internal/pipe"
)

// ToHTTP returns an http.Handler that serves each request with the brisk
// handler h, with the Server defaults; see Server.HTTPHandler.
func ToHTTP(h Handler) http.Handler { return (&Server{Handler: h}).HTTPHandler() }

// HTTPHandler returns an http.Handler that serves each request of a
// net/http server (HTTP/1 or HTTP/2) with s.Handler, under s's
// configuration (limits, timeouts, Name, Logger), so that brisk handlers
// mount in net/http muxes. s may serve listeners as well.
//
// Each request goes to s as HTTP/1.1 over an in-memory connection: the
// brisk handler sees the request as brisk parses it (an HTTP/2 request as
// HTTP/1.1; Expect is removed, net/http sends "100 Continue" itself when
// the body is read) and its response (status, fields but the
// connection-specific ones, streamed body, trailers) is copied to the
// ResponseWriter as it arrives, flushed after each read. An interim
// response (Ctx.SendInterim) is forwarded with WriteHeader before the
// final one; a body cut short (the handler panicked mid-stream) aborts
// the net/http response with http.ErrAbortHandler. A 101 from
// Ctx.Upgrade or a 2xx from Ctx.Tunnel hijacks the net/http connection
// (HTTP/1 only) and joins it to the brisk handler's. Ctx.RemoteAddr is
// the request's RemoteAddr and Ctx.LocalAddr its http.LocalAddrContextKey
// (network "tcp"). A request body the brisk handler leaves unread is
// still copied to its end, or until the client stops sending, before
// ServeHTTP returns. The cost is an in-memory connection, a goroutine and
// a copy of each byte both ways per request.
func (s *Server) HTTPHandler() http.Handler {
	s.mu.Lock()
	s.start()
	s.mu.Unlock()
	return httpBridge{s}
}

// httpBridge is the http.Handler of Server.HTTPHandler.
type httpBridge struct{ s *Server }

func (b httpBridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	client, server := pipe.New()
	local, remote := bridgedAddrs(r)
	b.s.startConn(bridgedConn{server, local, remote, r.TLS})
	defer client.Close()
	http.NewResponseController(w).EnableFullDuplex()
	sent := make(chan error, 1)
	go func() { sent <- writeBridgedRequest(client, r) }()
	br := bufio.NewReader(client)
	resp, err := http.ReadResponse(br, r)
	for err == nil && resp.StatusCode/100 == 1 && resp.StatusCode != 101 {
		if r.ProtoAtLeast(1, 1) { // none to HTTP/1.0 (RFC 9110 §15.2), as SendInterim
			writeBridgedInterim(w, resp)
		}
		resp, err = http.ReadResponse(br, r)
	}
	if err != nil {
		client.Close()
		<-sent
		http.Error(w, "brisk handler sent no response", http.StatusBadGateway)
		return
	}
	if resp.StatusCode == 101 || r.Method == "CONNECT" && resp.StatusCode/100 == 2 {
		<-sent
		spliceBridged(w, resp, br, client)
		return
	}
	copyBridgedResponse(w, resp)
	client.Close() // unblocks a request body the handler did not read
	<-sent
}

// writeBridgedRequest writes r as an HTTP/1.1 request: Content-Length
// when known, chunked (with r.Trailer) otherwise.
func writeBridgedRequest(nc net.Conn, r *http.Request) error {
	bw := bufio.NewWriter(nc)
	target := r.RequestURI
	if target == "" {
		target = r.URL.RequestURI()
	}
	if r.Method == "CONNECT" && r.URL.Path == "" {
		target = r.Host
	}
	bw.WriteString(r.Method + " " + target + " HTTP/1.1\r\nHost: " + r.Host + "\r\n")
	h := r.Header.Clone()
	for _, k := range []string{"Host", "Content-Length", "Transfer-Encoding", "Expect", "Trailer"} {
		delete(h, k)
	}
	h.Write(bw)
	hasBody := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	chunked := hasBody && r.ContentLength < 0
	switch {
	case chunked:
		bw.WriteString("Transfer-Encoding: chunked\r\n")
		for k := range r.Trailer {
			bw.WriteString("Trailer: " + k + "\r\n")
		}
	case hasBody:
		bw.WriteString("Content-Length: " + strconv.FormatInt(r.ContentLength, 10) + "\r\n")
	}
	bw.WriteString("\r\n")
	if err := bw.Flush(); err != nil || !hasBody {
		return err
	}
	if !chunked {
		_, err := io.Copy(nc, io.LimitReader(r.Body, r.ContentLength))
		return err
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Body.Read(buf)
		if n > 0 {
			bw.WriteString(strconv.FormatInt(int64(n), 16) + "\r\n")
			bw.Write(buf[:n])
			bw.WriteString("\r\n")
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			bw.WriteString("0\r\n")
			r.Trailer.Write(bw)
			bw.WriteString("\r\n")
			return bw.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// hopByHop are the response fields that describe brisk's in-memory
// connection, not the response.
var hopByHop = [...]string{"Connection", "Keep-Alive", "Transfer-Encoding", "Trailer"}

// writeBridgedInterim sends the interim (1xx) response resp through w,
// leaving w's fields as they were for the final response.
func writeBridgedInterim(w http.ResponseWriter, resp *http.Response) {
	h := w.Header()
	for k, vv := range resp.Header {
		h[k] = vv
	}
	w.WriteHeader(resp.StatusCode)
	for k := range resp.Header {
		delete(h, k)
	}
}

// copyBridgedResponse copies resp to w: fields, status, the body flushed
// after each read, then trailers. A body cut short (the brisk handler
// panicked or failed mid-stream) aborts the net/http response with
// http.ErrAbortHandler, so that it looks cut short too.
func copyBridgedResponse(w http.ResponseWriter, resp *http.Response) {
	defer resp.Body.Close()
	h := w.Header()
	for k, vv := range resp.Header {
		h[k] = vv
	}
	for _, k := range hopByHop {
		delete(h, k)
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			rc.Flush()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(http.ErrAbortHandler)
		}
	}
	for k, vv := range resp.Trailer {
		h[http.TrailerPrefix+k] = vv
	}
}

// spliceBridged hijacks w's connection, writes the switching response
// head to it and copies bytes both ways until either side closes.
func spliceBridged(w http.ResponseWriter, resp *http.Response, br *bufio.Reader, nc net.Conn) {
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	defer conn.Close()
	brw.WriteString("HTTP/1.1 " + resp.Status + "\r\n")
	resp.Header.Write(brw)
	brw.WriteString("\r\n")
	if err := brw.Flush(); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		io.Copy(nc, brw.Reader)
		nc.Close()
		close(done)
	}()
	io.Copy(conn, br)
	conn.Close()
	<-done
}

// bridgedConn is the server end of a bridged request's connection,
// with the net/http connection's addresses.
type bridgedConn struct {
	*pipe.Conn
	local, remote net.Addr
	tls           *tls.ConnectionState // r.TLS, for Ctx.TLS (see connTLS)
}

func (c bridgedConn) LocalAddr() net.Addr  { return c.local }
func (c bridgedConn) RemoteAddr() net.Addr { return c.remote }

// stringAddr is a net.Addr known by its string form.
type stringAddr string

func (a stringAddr) Network() string { return "tcp" }
func (a stringAddr) String() string  { return string(a) }

// bridgedAddrs returns the addresses of r's connection.
func bridgedAddrs(r *http.Request) (local, remote net.Addr) {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		local = stringAddr("")
	}
	return local, stringAddr(r.RemoteAddr)
}
