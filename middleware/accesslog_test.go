package middleware

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
)

// accessLogLines serves three requests (one with Referer and a hostile
// User-Agent, one 404, one HTTP/1.0 whose target does not decode) with an
// AccessLog of format and returns what it wrote.
func accessLogLines(t *testing.T, l *AccessLog) []string {
	var out syncbuf.Buffer
	if l.Format != FormatSlog {
		l.Writer = &out
	} else {
		l.Logger = slog.New(slog.NewJSONHandler(&out, nil))
	}
	done := make(chan struct{}, 3)
	addr := testserver.Start(t, testserver.Quiet(&brisk.Server{
		Handler: func(c *brisk.Ctx) {
			if string(c.Request.Path()) == "/missing" {
				c.Error(404, nil)
				return
			}
			c.Response.SetBodyString("hello")
		},
		OnRequestDone: func(in *brisk.RequestInfo) { l.OnRequestDone(in); done <- struct{}{} },
	}))
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(nc)
	for _, req := range []string{
		"GET /a?q=1 HTTP/1.1\r\nHost: x\r\nReferer: https://r.example/\r\nUser-Agent: evil\"\xc3\xa9\r\n\r\n",
		"GET /missing HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /a\\b HTTP/1.0\r\nHost: x\r\n\r\n",
	} {
		io.WriteString(nc, req)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("OnRequestDone not called for %q", req)
		}
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// TestAccessLogCommon: the Common and Combined Log Formats, with client
// bytes escaped so a quoted field cannot be closed early.
func TestAccessLogCommon(t *testing.T) {
	date := `\[\d\d/\w\w\w/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]`
	for _, tc := range []struct {
		format AccessFormat
		want   []string
	}{
		{FormatCommon, []string{
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\?q=1 HTTP/1\.1" 200 \d+$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /missing HTTP/1\.1" 404 \d+$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\\x5cb HTTP/1\.0" 400 \d+$`,
		}},
		{FormatCombined, []string{
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\?q=1 HTTP/1\.1" 200 \d+ "https://r\.example/" "evil\\x22\\xc3\\xa9"$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /missing HTTP/1\.1" 404 \d+ "-" "-"$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\\x5cb HTTP/1\.0" 400 \d+ "-" "-"$`,
		}},
	} {
		lines := accessLogLines(t, &AccessLog{Format: tc.format})
		if len(lines) != len(tc.want) {
			t.Fatalf("format %d: %d lines: %q", tc.format, len(lines), lines)
		}
		for i, re := range tc.want {
			if !regexp.MustCompile(re).MatchString(lines[i]) {
				t.Errorf("format %d line %d: %q does not match %s", tc.format, i, lines[i], re)
			}
		}
	}
}

// TestAccessLogJSON: FormatJSON and FormatSlog (with a JSON handler) give
// parseable records with the same attributes.
func TestAccessLogJSON(t *testing.T) {
	for _, format := range []AccessFormat{FormatJSON, FormatSlog} {
		lines := accessLogLines(t, &AccessLog{Format: format})
		if len(lines) != 3 {
			t.Fatalf("format %d: %q", format, lines)
		}
		var recs [3]map[string]any
		for i, l := range lines {
			if err := json.Unmarshal([]byte(l), &recs[i]); err != nil {
				t.Fatalf("format %d: line %q: %v", format, l, err)
			}
		}
		r := recs[0]
		if r["method"] != "GET" || r["target"] != "/a?q=1" || r["status"] != 200.0 || r["remote"] != "127.0.0.1" ||
			r["user_agent"] != "evil\"é" && r["user_agent"] != `evil\x22\xc3\xa9` || r["referer"] != "https://r.example/" {
			t.Errorf("format %d: record %v", format, r)
		}
		if recs[1]["status"] != 404.0 || recs[2]["status"] != 400.0 || recs[2]["error"] == nil {
			t.Errorf("format %d: records %v %v", format, recs[1], recs[2])
		}
	}
}
