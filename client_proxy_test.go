package brisk

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/peer"
)

// TestClientProxyWire checks the exact request an HTTP proxy receives for
// an http target: absolute-form request-target, Host of the target, and
// the proxy URL's credentials as Basic Proxy-Authorization.
func TestClientProxyWire(t *testing.T) {
	proxyURL, got, _ := captureServer(t, ok200)
	cases := []struct {
		name, proxy, want string
	}{
		{"no_auth", proxyURL,
			"GET http://origin.test:8080/a?b=1 HTTP/1.1\r\nHost: origin.test:8080\r\nAccept-Encoding: gzip\r\n\r\n"},
		{"basic_auth", strings.Replace(proxyURL, "://", "://alice:s3cret@", 1),
			"GET http://origin.test:8080/a?b=1 HTTP/1.1\r\nHost: origin.test:8080\r\n" +
				"Proxy-Authorization: Basic YWxpY2U6czNjcmV0\r\nAccept-Encoding: gzip\r\n\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, _ := url.Parse(tc.proxy)
			c := Client{ClientConfig: ClientConfig{Proxy: ProxyURL(u)}}
			var req Request
			var resp Response
			req.SetURI("http://origin.test:8080/a?b=1")
			if err := c.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			if w := <-got; w != tc.want {
				t.Errorf("proxy got\n%q\nwant\n%q", w, tc.want)
			}
		})
	}
}

// TestClientProxyErrors: failures to reach a target through a proxy are a
// *ProxyError naming the proxy (password redacted) and the target.
func TestClientProxyErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := ln.Addr().String()
	ln.Close()
	refuser, _ := rawServer(t, func(_ int64, nc net.Conn) {
		buf := make([]byte, 4096)
		nc.Read(buf)
		fmt.Fprint(nc, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
	})
	cases := []struct {
		name, proxy, target string
		status              int
		want                string
	}{
		{"dial_refused", "http://bob:pw@" + closedAddr, "http://origin.test/", 0, "http://bob:xxxxx@" + closedAddr},
		{"connect_refused", refuser, "https://origin.test/", 403, refuser},
		{"socks_dial_refused", "socks5://" + closedAddr, "http://origin.test/", 0, "socks5://" + closedAddr},
		{"bad_scheme", "ftp://" + closedAddr, "http://origin.test/", 0, "ftp://" + closedAddr},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, _ := url.Parse(tc.proxy)
			c := Client{ClientConfig: ClientConfig{Proxy: ProxyURL(u)}}
			var req Request
			var resp Response
			req.SetURI(tc.target)
			err := c.Do(&req, &resp)
			var pe *ProxyError
			if !errors.Is(err, ErrProxy) || !errors.As(err, &pe) {
				t.Fatalf("err %v, want a *ProxyError", err)
			}
			if pe.Proxy != tc.want || pe.StatusCode != tc.status || !strings.HasPrefix(pe.Target, "origin.test:") {
				t.Errorf("ProxyError %+v, want proxy %q status %d", pe, tc.want, tc.status)
			}
			if strings.Contains(err.Error(), ":pw@") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}

// TestProxyFromEnvironment follows net/http's rules: HTTP_PROXY for http
// targets, HTTPS_PROXY for https, none for NO_PROXY hosts and loopback.
// ProxyFromEnvironment reads the environment once per process, so the
// test reads it with envProxyFunc, as ProxyFromEnvironment's first call
// does.
func TestProxyFromEnvironment(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://plain.proxy:3128")
	t.Setenv("HTTPS_PROXY", "http://secure.proxy:3129")
	t.Setenv("NO_PROXY", "skip.test")
	cases := []struct{ scheme, host, want string }{
		{"http", "a.test:80", "http://plain.proxy:3128"},
		{"https", "a.test:443", "http://secure.proxy:3129"},
		{"http", "skip.test:80", ""},
		{"http", "127.0.0.1:8080", ""},
		{"http", "localhost:8080", ""},
	}
	for _, tc := range cases {
		u, err := envProxyFunc()(&url.URL{Scheme: tc.scheme, Host: tc.host})
		got := ""
		if u != nil {
			got = u.String()
		}
		if err != nil || got != tc.want {
			t.Errorf("%s://%s: %q, %v; want %q", tc.scheme, tc.host, got, err, tc.want)
		}
	}
}

// tlsPair returns a server configuration with a fresh self-signed
// certificate for 127.0.0.1 and a client configuration trusting it.
func tlsPair(t testing.TB) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "brisk test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	return server, &tls.Config{RootCAs: pool}
}

// originServers starts a brisk server answering "origin <path>" over
// plain TCP and over TLS, and returns their URLs and the client TLS
// configuration.
func originServers(t *testing.T) (plain, secure string, clientTLS *tls.Config) {
	t.Helper()
	h := func(c *Ctx) { fmt.Fprintf(&c.Response, "origin %s", c.Request.Path()) }
	plain = startStreamServer(t, &Server{Handler: h})
	serverTLS, clientTLS := tlsPair(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Handler: h}
	go s.Serve(tls.NewListener(ln, serverTLS))
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	return plain, "https://" + ln.Addr().String(), clientTLS
}

// startProcess runs a proxy binary for the test, waits (up to 15 s) until
// addr accepts connections, and stops it at the end of the test. It skips
// the test when the binary is not installed.
func startProcess(t *testing.T, addr, pkg, name string, args ...string) {
	t.Helper()
	peer.Start(t, addr, peer.Need(t, name, "Debian package "+pkg), args...)
}

// startSquid runs Squid on loopback with a generated configuration: no
// cache, an access log, and with auth, Basic authentication of user
// alice, password s3cret, by a shell helper. It returns the proxy
// address and the access log path.
func startSquid(t *testing.T, auth bool) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("squid"); err != nil {
		t.Skip("squid not installed (Debian package squid)")
	}
	dir, err := os.MkdirTemp("", "brisk-squid-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o777) // Squid started as root runs as the proxy user
	addr := freeport.Addr(t)
	conf := fmt.Sprintf(`http_port %s
pid_filename %[2]s/squid.pid
cache_log %[2]s/cache.log
access_log stdio:%[2]s/access.log
cache deny all
coredump_dir %[2]s
shutdown_lifetime 0 seconds
pinger_enable off
dns_v4_first on
`, addr, dir)
	if auth {
		helper := filepath.Join(dir, "auth.sh")
		script := "#!/bin/sh\nwhile read u p; do if [ \"$u $p\" = \"alice s3cret\" ]; then echo OK; else echo ERR; fi; done\n"
		if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		conf += "auth_param basic program " + helper + "\nacl users proxy_auth REQUIRED\nhttp_access allow users\nhttp_access deny all\n"
	} else {
		conf += "http_access allow all\n"
	}
	cf := filepath.Join(dir, "squid.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	startProcess(t, addr, "squid", "squid", "-N", "-f", cf)
	return addr, filepath.Join(dir, "access.log")
}

// proxyGet sends a GET for uri through proxy and returns the response.
func proxyGet(t *testing.T, proxy, uri string, clientTLS *tls.Config) (*Response, error) {
	t.Helper()
	u, err := url.Parse(proxy)
	if err != nil {
		t.Fatal(err)
	}
	c := Client{ClientConfig: ClientConfig{Proxy: ProxyURL(u), TLSConfig: clientTLS, Timeout: 10 * time.Second}}
	defer c.CloseIdleConnections()
	var req Request
	resp := new(Response)
	req.SetURI(uri)
	return resp, c.Do(&req, resp)
}

// TestClientSquid sends http and https (CONNECT) requests through a real
// Squid, with and without Basic authentication.
func TestClientSquid(t *testing.T) {
	plain, secure, clientTLS := originServers(t)
	for _, auth := range []bool{false, true} {
		t.Run(fmt.Sprint("auth_", auth), func(t *testing.T) {
			addr, accessLog := startSquid(t, auth)
			proxy := "http://" + addr
			if auth {
				proxy = "http://alice:s3cret@" + addr
			}
			resp, err := proxyGet(t, proxy, plain+"/p", clientTLS)
			if err != nil || string(resp.Body()) != "origin /p" || !strings.Contains(string(resp.Header.Get("Via")), "squid") {
				t.Fatalf("http: err %v, body %q, Via %q", err, resp.Body(), resp.Header.Get("Via"))
			}
			resp, err = proxyGet(t, proxy, secure+"/s", clientTLS)
			if err != nil || string(resp.Body()) != "origin /s" {
				t.Fatalf("https: err %v, body %q", err, resp.Body())
			}
			// Squid logs a tunnel once it is closed (by proxyGet).
			connect := "CONNECT " + strings.TrimPrefix(secure, "https://")
			var log []byte
			for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				if log, _ = os.ReadFile(accessLog); strings.Contains(string(log), connect) {
					break
				}
			}
			if !strings.Contains(string(log), connect) {
				t.Errorf("no %s in Squid's access log:\n%s", connect, log)
			}
			if !auth {
				return
			}
			// Without credentials: a 407 response for http, a
			// *ProxyError with status 407 for the CONNECT.
			resp, err = proxyGet(t, "http://"+addr, plain+"/p", clientTLS)
			if err != nil || resp.StatusCode() != 407 {
				t.Errorf("http without credentials: err %v, status %d; want 407", err, resp.StatusCode())
			}
			_, err = proxyGet(t, "http://alice:wrong@"+addr, secure+"/s", clientTLS)
			var pe *ProxyError
			if !errors.As(err, &pe) || pe.StatusCode != 407 {
				t.Errorf("CONNECT with a wrong password: err %v, want a *ProxyError with status 407", err)
			}
		})
	}
}

// TestClientSOCKS5 sends http and https requests through a real SOCKS5
// server (microsocks) requiring a user and password; a wrong password is
// a *ProxyError.
func TestClientSOCKS5(t *testing.T) {
	plain, secure, clientTLS := originServers(t)
	addr := freeport.Addr(t)
	host, port, _ := net.SplitHostPort(addr)
	startProcess(t, addr, "microsocks", "microsocks", "-i", host, "-p", port, "-u", "alice", "-P", "s3cret")
	for _, uri := range []string{plain + "/p", secure + "/s"} {
		resp, err := proxyGet(t, "socks5://alice:s3cret@"+addr, uri, clientTLS)
		want := "origin " + uri[strings.LastIndexByte(uri, '/'):]
		if err != nil || string(resp.Body()) != want {
			t.Errorf("%s: err %v, body %q", uri, err, resp.Body())
		}
	}
	_, err := proxyGet(t, "socks5://alice:wrong@"+addr, plain+"/p", clientTLS)
	var pe *ProxyError
	if !errors.As(err, &pe) || pe.Proxy != "socks5://alice:xxxxx@"+addr {
		t.Errorf("wrong password: err %v, want a *ProxyError", err)
	}
}
