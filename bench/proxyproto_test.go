package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	briskproxy "github.com/brisk-http/brisk/proxyproto"
	"github.com/pires/go-proxyproto"
	"github.com/pires/go-proxyproto/tlvparse"
)

// The PROXY differential: brisk parses PROXY headers itself (package
// proxyproto/v1.go, proxyproto/v2.go); here every input goes through a brisk
// Server that trusts loopback and through go-proxyproto's parser, which
// must agree on whether the header is valid and on what it says: the
// client's address, ALPN, authority and SSL TLV as the handler sees
// them.
//
// Where they differ by design: go-proxyproto refuses a v2 header longer
// than its MaxV2HeaderSize (raised here), brisk one longer than the
// server's MaxHeaderBytes.

const proxyDiffRequest = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"

// proxyDiffServer serves the handler that reports what brisk read.
func proxyDiffServer(tb testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &brisk.Server{
		ProxyProtocol: &brisk.ProxyProtocol{
			Trusted:       []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
			HeaderTimeout: 500 * time.Millisecond,
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handler: func(c *brisk.Ctx) {
			c.Response.SetBodyString(describeProxy(c.RemoteAddr(), c.Proxy()))
		},
	}
	go s.Serve(ln)
	tb.Cleanup(func() { s.Shutdown(context.Background()) })
	return ln.Addr().String()
}

func describeProxy(remote net.Addr, h *briskproxy.Header) string {
	r := remote.String()
	if strings.HasPrefix(r, "127.0.0.1:") {
		r = "peer"
	}
	if h == nil {
		return "no header"
	}
	ssl, ok := h.SSL()
	return fmt.Sprintf("v%d remote=%s alpn=%q authority=%q ssl=%v/%v/%v/%q/%q/%q", h.Version, r, h.ALPN(),
		h.Authority(), ok, ssl.TLS, ssl.CertVerified, ssl.Version, ssl.Cipher, ssl.CommonName)
}

// libraryProxy is what go-proxyproto reads from input followed by the
// request: the handler's body as describeProxy would write it, "refused",
// or "" when the library does not end the header where input ends (the
// request bytes are then not a request to either).
func libraryProxy(input []byte) string {
	proxyproto.MaxV2HeaderSize = 0xffff
	stream := append(bytes.Clone(input), proxyDiffRequest...)
	r := bufio.NewReaderSize(bytes.NewReader(stream), 1<<17)
	h, err := proxyproto.Read(r)
	if err != nil {
		return "refused"
	}
	tlvs, err := h.TLVs()
	if err != nil {
		return "refused"
	}
	if r.Buffered() != len(proxyDiffRequest) {
		return ""
	}
	remote := "peer"
	if h.Command.IsProxy() && h.TransportProtocol.IsStream() {
		remote = h.SourceAddr.String()
	}
	var alpn, authority []byte
	for i := len(tlvs) - 1; i >= 0; i-- { // the first of each type wins
		switch tlvs[i].Type {
		case proxyproto.PP2_TYPE_ALPN:
			alpn = tlvs[i].Value
		case proxyproto.PP2_TYPE_AUTHORITY:
			authority = tlvs[i].Value
		}
	}
	s, ok := tlvparse.FindSSL(tlvs)
	version, _ := s.SSLVersion()
	cipher, _ := s.SSLCipher()
	cn, _ := s.ClientCN()
	if !ok {
		version, cipher, cn = "", "", ""
	}
	return fmt.Sprintf("v%d remote=%s alpn=%q authority=%q ssl=%v/%v/%v/%q/%q/%q", h.Version, remote, alpn,
		authority, ok, ok && s.ClientSSL(), ok && s.Verified(), version, cipher, cn)
}

// briskProxy sends input and the request to the server and returns the
// response body, or "refused" when the server closed the connection
// without a response.
func briskProxy(tb testing.TB, addr string, input []byte) string {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	nc.Write(append(bytes.Clone(input), proxyDiffRequest...))
	nc.(*net.TCPConn).CloseWrite()
	resp, err := io.ReadAll(nc)
	if err != nil && len(resp) == 0 {
		return "refused" // a reset: closed with input unread
	}
	if len(resp) == 0 {
		return "refused"
	}
	if !bytes.HasPrefix(resp, []byte("HTTP/1.1 200 ")) {
		return "status " + string(resp[:min(len(resp), 12)])
	}
	_, body, _ := bytes.Cut(resp, []byte("\r\n\r\n"))
	return string(body)
}

// proxyDiffCorpus is valid headers of every kind and their near misses.
func proxyDiffCorpus() [][]byte {
	tcp4 := []byte{203, 0, 113, 7, 198, 51, 100, 1, 0x10, 0x92, 0x01, 0xbb}
	tcp6 := append(bytes.Repeat([]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 7}, 4), 0x10, 0x92, 0x01, 0xbb)
	unix := make([]byte, 216)
	copy(unix, "/run/a.sock")
	tlv := func(typ byte, v string) []byte { return append([]byte{typ, byte(len(v) >> 8), byte(len(v))}, v...) }
	sslv := append([]byte{0x01, 0, 0, 0, 0}, append(tlv(0x21, "TLSv1.3"), append(tlv(0x23, "AES"), tlv(0x22, "cn")...)...)...)
	tlvs := [][]byte{nil, tlv(0x01, "h2"), append(tlv(0x02, "example.com"), tlv(0x04, "")...),
		tlv(0x20, string(sslv)), tlv(0x20, "\x01\x00\x00\x00\x00"), tlv(0x20, "\x00\x00\x00\x00\x01"),
		append(tlv(0x01, "h2"), tlv(0x01, "http/1.1")...), {0x01, 0x00}, {0x01, 0x00, 0x05, 'x'}}
	var out [][]byte
	for _, line := range []string{
		"PROXY TCP4 203.0.113.7 198.51.100.1 4242 443", "PROXY TCP6 2001:db8::7 2001:db8::1 4242 443",
		"PROXY TCP6 ::ffff:203.0.113.7 2001:db8::1 0 65535", "PROXY UNKNOWN", "PROXY UNKNOWN x y",
		"PROXY TCP4 203.0.113.7 198.51.100.1 4242", "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443 ",
		"PROXY TCP4 203.0.113.07 198.51.100.1 4242 443", "PROXY TCP4 203.0.113.7 198.51.100.1 04242 443",
		"PROXY TCP4 203.0.113.7 198.51.100.1 65536 443", "PROXY TCP4 2001:db8::7 198.51.100.1 1 2",
		"PROXY TCP6 203.0.113.7 198.51.100.1 1 2", "PROXY TCP6 fe80::1%lo 2001:db8::1 1 2",
		"PROXY TCP4  203.0.113.7 198.51.100.1 1 2", "PROXY tcp4 203.0.113.7 198.51.100.1 1 2",
		"PROXY UDP4 203.0.113.7 198.51.100.1 1 2", "PROXY", "PROXY ", "PROXYX TCP4", "PROXY UNKNOWNX",
	} {
		out = append(out, []byte(line+"\r\n"), []byte(line+"\n"))
	}
	for _, cmd := range []byte{0x20, 0x21, 0x22, 0x11} {
		for _, fam := range []byte{0x00, 0x11, 0x12, 0x13, 0x21, 0x22, 0x31, 0x32, 0x41} {
			for _, addrs := range [][]byte{nil, tcp4, tcp4[:11], tcp6, unix} {
				for _, t := range tlvs {
					body := append(bytes.Clone(addrs), t...)
					b := append([]byte("\r\n\r\n\x00\r\nQUIT\n"), cmd, fam)
					b = binary.BigEndian.AppendUint16(b, uint16(len(body)))
					out = append(out, append(b, body...))
				}
			}
		}
	}
	return out
}

func TestProxyProtocolMatchesGoProxyproto(t *testing.T) {
	addr := proxyDiffServer(t)
	corpus := proxyDiffCorpus()
	accepted := 0
	for _, input := range corpus {
		want := libraryProxy(input)
		if want == "" {
			continue
		}
		if got := briskProxy(t, addr, input); got != want {
			t.Errorf("%q:\n brisk        %s\n go-proxyproto %s", input, got, want)
		}
		if want != "refused" {
			accepted++
		}
	}
	t.Logf("%d inputs, %d valid headers", len(corpus), accepted)
}

func FuzzProxyProtocolMatchesGoProxyproto(f *testing.F) {
	for _, input := range proxyDiffCorpus() {
		f.Add(input)
	}
	addr := proxyDiffServer(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		if len(input) > 4096 {
			return
		}
		want := libraryProxy(input)
		if want == "" {
			return
		}
		if got := briskProxy(t, addr, input); got != want {
			t.Errorf("%q:\n brisk        %s\n go-proxyproto %s", input, got, want)
		}
	})
}
