package middleware

import (
	"bufio"
	"encoding/json"
	"fmt"
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
// bytes escaped so that a quoted field cannot be closed early.
func TestAccessLogCommon(t *testing.T) {
	date := `\[\d\d/\w\w\w/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]`
	for _, tc := range []struct {
		format AccessFormat
		want   []string
	}{
		{FormatCommon, []string{
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\?q=1 HTTP/1\.1" 200 \d+$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /missing HTTP/1\.1" 404 \d+$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\\\\b HTTP/1\.0" 400 \d+$`,
		}},
		{FormatCombined, []string{
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\?q=1 HTTP/1\.1" 200 \d+ "https://r\.example/" "evil\\"\\xc3\\xa9" \d+ "x" "-"$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /missing HTTP/1\.1" 404 \d+ "-" "-" \d+ "x" "-"$`,
			`^127\.0\.0\.1 - - ` + date + ` "GET /a\\\\b HTTP/1\.0" 400 \d+ "-" "-" \d+ "x" "-"$`,
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

// TestAccessLogJSON: FormatJSON gives, without slog, the records that
// FormatSlog gives slog's JSONHandler: the same fields in the same order
// with the same values, but for the time and duration.
func TestAccessLogJSON(t *testing.T) {
	var recs [2][]string
	for i, format := range []AccessFormat{FormatJSON, FormatSlog} {
		lines := accessLogLines(t, &AccessLog{Format: format})
		if len(lines) != 3 {
			t.Fatalf("format %d: %q", format, lines)
		}
		for _, l := range lines {
			recs[i] = append(recs[i], jsonFields(t, l))
		}
	}
	for i := range recs[0] {
		if recs[0][i] != recs[1][i] {
			t.Errorf("record %d:\nFormatJSON %s\nFormatSlog %s", i, recs[0][i], recs[1][i])
		}
	}
	want := []string{
		`level=INFO msg=request method=GET target=/a?q=1 proto=HTTP/1.1 status=200 bytes=* client=127.0.0.1 remote=127.0.0.1:* host=x user_agent=evil"é referer=https://r.example/`,
		`level=INFO msg=request method=GET target=/missing proto=HTTP/1.1 status=404 bytes=* client=127.0.0.1 remote=127.0.0.1:* host=x`,
		`level=INFO msg=request method=GET target=/a\b proto=HTTP/1.0 status=400 bytes=* client=127.0.0.1 remote=127.0.0.1:* host=x error=brisk: forbidden byte in path`,
	}
	for i, w := range want {
		if recs[0][i] != w {
			t.Errorf("record %d:\n%s\nwant\n%s", i, recs[0][i], w)
		}
	}
}

// jsonFields returns the JSON object of line as key=value pairs in their
// order, checking that time is RFC 3339 and leaving it and duration_us
// out; bytes and the remote port are "*".
func jsonFields(t *testing.T, line string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var out []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("line %q: %v %v", line, tok, err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		val := fmt.Sprint(v)
		switch k {
		case "time":
			if _, err := time.Parse(time.RFC3339Nano, val); err != nil {
				t.Errorf("time %q: %v", val, err)
			}
			continue
		case "duration_us":
			if n, err := v.(json.Number).Int64(); err != nil || n < 0 {
				t.Errorf("duration_us %v", v)
			}
			continue
		case "bytes":
			if n, err := v.(json.Number).Int64(); err != nil || n <= 0 {
				t.Errorf("bytes %v", v)
			}
			val = "*"
		case "remote":
			val = val[:strings.LastIndexByte(val, ':')+1] + "*"
		}
		out = append(out, fmt.Sprintf("%s=%s", k, val))
	}
	return strings.Join(out, " ")
}
