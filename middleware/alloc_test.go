//go:build !race

package middleware

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// exchange writes req on nc and reads one response, which has a
// Content-Length, into buf; it returns the status code, 0 on an error.
func exchange(nc net.Conn, req, buf []byte) int {
	if _, err := nc.Write(req); err != nil {
		return 0
	}
	n := 0
	for {
		m, err := nc.Read(buf[n:])
		n += m
		if err != nil {
			return 0
		}
		end := bytes.Index(buf[:n], []byte("\r\n\r\n"))
		if end < 0 {
			continue
		}
		size := 0
		if i := bytes.Index(buf[:end], []byte("\r\nContent-Length: ")); i >= 0 {
			for _, d := range buf[i+len("\r\nContent-Length: ") : end] {
				if d < '0' || d > '9' {
					break
				}
				size = 10*size + int(d-'0')
			}
		}
		if n >= end+4+size {
			return int(buf[9]-'0')*100 + int(buf[10]-'0')*10 + int(buf[11]-'0')
		}
	}
}

// TestMiddlewareAllocs: each middleware adds no allocation per request
// on its common path, measured through a Server on an in-memory
// connection (whose own part allocates nothing).
func TestMiddlewareAllocs(t *testing.T) {
	access := &AccessLog{Format: FormatCombined, Writer: io.Discard}
	accessCommon := &AccessLog{Format: FormatCommon, Writer: io.Discard, ClientErrorLevel: slog.LevelDebug}
	accessJSON := &AccessLog{Format: FormatJSON, Writer: io.Discard}
	for _, tc := range []struct {
		name   string
		mw     brisk.Middleware
		fields string
		done   func(*brisk.RequestInfo)
	}{
		{"none", nil, "", nil},
		{"request_id_new", RequestID(RequestIDConfig{}), "", nil},
		{"request_id_trusted", RequestID(RequestIDConfig{TrustIncoming: true}), "X-Request-ID: abc-123\r\n", nil},
		{"recovery", Recovery(nil), "", nil},
		{"cors_allowed", CORS(CORSConfig{AllowOrigins: []string{"https://a.example"}}), "Origin: https://a.example\r\n", nil},
		{"cors_preflight", CORS(CORSConfig{AllowOrigins: []string{"https://a.example"}, AllowMethods: []string{"PUT"}}),
			"Origin: https://a.example\r\nAccess-Control-Request-Method: PUT\r\n", nil},
		{"rate_limit", RateLimit(RateLimitConfig{Rate: 1e9, Burst: 1e9}), "", nil},
		{"basic_auth", BasicAuth("r", map[string]string{"Aladdin": "open sesame"}), "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n", nil},
		{"access_log_combined", nil, "User-Agent: test\r\n", access.OnRequestDone},
		{"access_log_common", nil, "", accessCommon.OnRequestDone},
		{"access_log_json", nil, "User-Agent: test\r\nReferer: https://r.example/\r\nX-Request-ID: abc\r\n", accessJSON.OnRequestDone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := brisk.Handler(ok)
			if tc.mw != nil {
				h = tc.mw(h)
			}
			srv := &brisk.Server{Handler: h, OnRequestDone: tc.done}
			ln := brisktest.NewListener()
			go srv.Serve(ln)
			defer srv.Shutdown(context.Background())
			nc, err := ln.Dial()
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			method := "GET"
			if tc.name == "cors_preflight" {
				method = "OPTIONS"
			}
			req := []byte(method + " /x HTTP/1.1\r\nHost: h\r\n" + tc.fields + "\r\n")
			buf := make([]byte, 4096)
			status := 0
			run := func() { status = exchange(nc, req, buf) }
			run()
			if status != 200 && status != 204 {
				t.Fatalf("status %d", status)
			}
			if a := testing.AllocsPerRun(200, run); a != 0 {
				t.Errorf("%v allocations per request, want 0", a)
			}
		})
	}
}
