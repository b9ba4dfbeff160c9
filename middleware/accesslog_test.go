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
	"syscall"
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

// TestAccessLogReject: a head that does not parse is logged once, from
// OnReject, with what of its request line parsed; a request refused
// after its head parsed (413) once, from OnRequestDone.
func TestAccessLogReject(t *testing.T) {
	for _, tc := range []struct {
		format AccessFormat
		want   []string
	}{
		{FormatSlog, []string{
			`level=INFO msg=rejected method=GET target=/x status=400 error="wire: missing, repeated or invalid Host at byte 17" client=127.0.0.1 remote=127.0.0.1:`,
			`level=INFO msg=rejected status=400 error="wire: invalid method at byte 3" client=127.0.0.1 remote=127.0.0.1:`,
			`level=INFO msg=rejected method=GET target="/a\"b" status=505 error="wire: HTTP version not supported at byte 9" client=127.0.0.1 remote=127.0.0.1:`,
			`level=INFO msg=request method=POST target=/big proto=HTTP/1.1 status=413 bytes=`,
		}},
		{FormatJSON, []string{
			`"level":"INFO","msg":"rejected","method":"GET","target":"/x","status":400,"error":"wire: missing, repeated or invalid Host at byte 17","client":"127.0.0.1","remote":"127.0.0.1:`,
			`"level":"INFO","msg":"rejected","status":400,"error":"wire: invalid method at byte 3","client":"127.0.0.1","remote":"127.0.0.1:`,
			`"level":"INFO","msg":"rejected","method":"GET","target":"/a\"b","status":505,"error":"wire: HTTP version not supported at byte 9","client":"127.0.0.1","remote":"127.0.0.1:`,
			`"level":"INFO","msg":"request","method":"POST","target":"/big","proto":"HTTP/1.1","status":413,"bytes":`,
		}},
		{FormatCommon, []string{
			`127.0.0.1 - - [date] "GET /x" 400 0`,
			`127.0.0.1 - - [date] "-" 400 0`,
			`127.0.0.1 - - [date] "GET /a\"b" 505 0`,
			`127.0.0.1 - - [date] "POST /big HTTP/1.1" 413 `,
		}},
	} {
		var out syncbuf.Buffer
		l := &AccessLog{Format: tc.format, Writer: &out, Logger: slog.New(slog.NewTextHandler(&out, nil))}
		addr := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: ok, MaxBodyBytes: 10,
			OnRequestDone: l.OnRequestDone, OnReject: l.OnReject}))
		for _, raw := range []string{
			"GET /x HTTP/1.1\r\n\r\n",               // no Host: 400
			"BAD\x01 / HTTP/1.1\r\nHost: x\r\n\r\n", // bad method byte: 400, nothing parsed
			"GET /a\"b HTTP/2.0\r\nHost: x\r\n\r\n", // 505
			"POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n",
		} {
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			nc.SetDeadline(time.Now().Add(5 * time.Second))
			io.WriteString(nc, raw)
			io.ReadAll(nc)
			nc.Close()
		}
		var lines []string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if lines = strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); len(lines) >= len(tc.want) {
				break
			}
		}
		time.Sleep(50 * time.Millisecond) // a second record of one would come now
		lines = strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != len(tc.want) {
			t.Fatalf("format %d: %d lines, want %d:\n%s", tc.format, len(lines), len(tc.want), out.String())
		}
		dates := regexp.MustCompile(`\[[^]]+\]`)
		for i, w := range tc.want {
			if got := dates.ReplaceAllString(lines[i], "[date]"); !strings.Contains(got, w) {
				t.Errorf("format %d line %d: %q, want it to contain %q", tc.format, i, got, w)
			}
		}
	}
}

// TestAccessLogClientErrors: with ClientErrorLevel below the Logger's
// level, requests cut short by their clients are not logged but summed
// up, at once and then at most every ClientErrorSummary; other errors
// are logged at Level; negative ClientErrorSummary drops the summary.
func TestAccessLogClientErrors(t *testing.T) {
	reset := &brisk.RequestInfo{Method: []byte("GET"), Target: []byte("/"), Proto: "HTTP/1.1", Status: 200,
		Err: &net.OpError{Op: "write", Err: syscall.ECONNRESET}}
	closed := &brisk.RequestInfo{Method: []byte("POST"), Target: []byte("/"), Proto: "HTTP/1.1", Status: 400,
		Err: io.ErrUnexpectedEOF}
	bad := &brisk.RequestInfo{Method: []byte("GET"), Target: []byte("/a%zz"), Proto: "HTTP/1.1", Status: 400,
		Err: brisk.ErrPathEscape}
	for _, format := range []AccessFormat{FormatSlog, FormatCommon} {
		var out syncbuf.Buffer
		l := &AccessLog{Format: format, Writer: &out, Logger: slog.New(slog.NewTextHandler(&out, nil)),
			ClientErrorLevel: slog.LevelDebug, ClientErrorSummary: time.Hour}
		l.OnRequestDone(reset) // summed up at once: the first
		l.OnRequestDone(reset)
		l.OnRequestDone(closed)
		l.OnRequestDone(bad) // logged
		l.mu.Lock()
		l.lastSum = time.Now().Add(-time.Hour) // an hour passes
		l.mu.Unlock()
		l.OnRequestDone(reset) // summed up with the two before it
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		want := []string{ // suffixes
			`level=INFO msg="requests cut short by their clients, not logged one by one" reset=1`,
			`/a%zz` + map[AccessFormat]string{FormatSlog: ` proto=HTTP/1.1 status=400 bytes=0 duration_us=0 client=- remote="" error="brisk: invalid percent-encoding in path"`,
				FormatCommon: ` HTTP/1.1" 400 0`}[format],
			`level=INFO msg="requests cut short by their clients, not logged one by one" reset=2 closed=1`,
		}
		if len(lines) != len(want) {
			t.Fatalf("format %d: %d lines, want %d:\n%s", format, len(lines), len(want), out.String())
		}
		for i, w := range want {
			if !strings.HasSuffix(lines[i], w) {
				t.Errorf("format %d line %d: %q, want %q", format, i, lines[i], w)
			}
		}
	}

	var out syncbuf.Buffer
	l := &AccessLog{Logger: slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug})),
		ClientErrorLevel: slog.LevelDebug}
	l.OnRequestDone(reset)
	if got := out.String(); !strings.Contains(got, "level=DEBUG msg=request method=GET") || !strings.Contains(got, "connection reset") {
		t.Errorf("at level debug: %q, want the request at DEBUG with its error", got)
	}
	var none syncbuf.Buffer
	l = &AccessLog{Logger: slog.New(slog.NewTextHandler(&none, nil)), ClientErrorLevel: slog.LevelDebug, ClientErrorSummary: -1}
	l.OnRequestDone(reset)
	if got := none.String(); got != "" {
		t.Errorf("ClientErrorSummary -1: %q, want nothing", got)
	}
}

// TestAccessLogLevel: the Logger's level decides for the writer formats
// too; a Level above it logs.
func TestAccessLogLevel(t *testing.T) {
	in := &brisk.RequestInfo{Method: []byte("GET"), Target: []byte("/"), Proto: "HTTP/1.1", Status: 200}
	warn := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	for _, tc := range []struct {
		level slog.Level
		lines int
	}{{slog.LevelInfo, 0}, {slog.LevelWarn, 1}} {
		var out syncbuf.Buffer
		l := &AccessLog{Format: FormatCommon, Writer: &out, Logger: warn, Level: tc.level}
		l.OnRequestDone(in)
		if n := strings.Count(out.String(), "\n"); n != tc.lines {
			t.Errorf("Level %v, Logger at WARN: %d lines, want %d", tc.level, n, tc.lines)
		}
	}
}

// TestAccessLogJSONString: hostile strings come out of FormatJSON as
// valid JSON that decodes to what slog's JSONHandler gives.
func TestAccessLogJSONString(t *testing.T) {
	for _, in := range []string{"", "plain", "a\"b\\c", "\x00\x01\t\n\r\x1b[31m\x7f", "\xff\xfe", "é\xc3", "\u2028\u2029", "<&>", "\U0001F600"} {
		got := appendJSONString(nil, in)
		var fromSlog strings.Builder
		slog.New(slog.NewJSONHandler(&fromSlog, nil)).Info("", "v", in)
		var want struct{ V string }
		if err := json.Unmarshal([]byte(fromSlog.String()), &want); err != nil {
			t.Fatal(err)
		}
		var v string
		if err := json.Unmarshal(got, &v); err != nil || v != want.V {
			t.Errorf("%q: %s decodes to %q, %v; want %q", in, got, v, err, want.V)
		}
		if strings.ContainsAny(string(got), "\n\r\u2028\u2029") {
			t.Errorf("%q: %q holds a line terminator", in, got)
		}
	}
}
