package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestReadCasesRejectsBadCorpus(t *testing.T) {
	tests := map[string]string{
		"unknown key":    `{"id":"a","raw":"GET / HTTP/1.1\r\n\r\n","expect":{"status":[400]},"colour":1}`,
		"both inputs":    `{"id":"a","raw":"x","raw_b64":"eA==","expect":{"status":[400]}}`,
		"no input":       `{"id":"a","expect":{"status":[400]}}`,
		"empty expect":   `{"id":"a","raw":"x","expect":{}}`,
		"bad level":      `{"id":"a","raw":"x","level":"MAY","expect":{"status":[400]}}`,
		"pause past end": `{"id":"a","raw":"abc","pause_at":[3],"expect":{"status":[400]}}`,
		"duplicate id": `{"id":"a","raw":"x","expect":{"status":[400]}}` + "\n" +
			`{"id":"a","raw":"y","expect":{"status":[400]}}`,
	}
	for name, text := range tests {
		if _, err := readCases(strings.NewReader(text)); err == nil {
			t.Errorf("%s: accepted, want an error", name)
		}
	}
}

func TestReadCasesDecodesInput(t *testing.T) {
	text := `{"id":"a","raw":"GET /\u0000 HTTP/1.1\r\n\r\n","expect":{"status":[400]}}` + "\n\n" +
		`{"id":"b","raw_b64":"` + base64.StdEncoding.EncodeToString([]byte("X: \xff\r\n")) + `","level":"SHOULD","expect":{"close":true}}`
	cases, err := readCases(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(cases[0].Input()); got != "GET /\x00 HTTP/1.1\r\n\r\n" {
		t.Errorf("raw decoded to %q", got)
	}
	if got := string(cases[1].Input()); got != "X: \xff\r\n" || !cases[1].IsShould() {
		t.Errorf("raw_b64 decoded to %q (should=%v)", got, cases[1].IsShould())
	}
}

func TestParseStream(t *testing.T) {
	data := "HTTP/1.1 100 Continue\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" +
		"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n" + // HEAD: no body
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=1\r\nde\r\n0\r\nT: 1\r\n\r\n" +
		"HTTP/1.0 400 Bad Request\r\n\r\nclose-delimited"
	s := ParseStream([]byte(data), []string{"POST", "HEAD", "GET", "GET"})
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if len(s.Interims) != 1 || len(s.Finals) != 4 {
		t.Fatalf("got %d interim, %d final responses", len(s.Interims), len(s.Finals))
	}
	bodies := []string{"hello", "", "abcde", "close-delimited"}
	for i, want := range bodies {
		if got := string(s.Finals[i].Body); got != want {
			t.Errorf("body %d = %q, want %q", i, got, want)
		}
	}
	if s.Finals[3].Status != 400 {
		t.Errorf("last status %d", s.Finals[3].Status)
	}
}

func TestParseStreamReportsGarbage(t *testing.T) {
	for _, data := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokGARBAGE\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
		"HTTP/1.1 2000 OK\r\n\r\n",
	} {
		if s := ParseStream([]byte(data), nil); s.Err == nil {
			t.Errorf("%q: no error", data)
		}
	}
}

func TestRequestMethods(t *testing.T) {
	raw := "GET /1 HTTP/1.1\r\nHost: a\r\n\r\n" +
		"POST /2 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: v\r\n\r\n" +
		"HEAD /3 HTTP/1.1\r\nHost: a\r\n\r\n" +
		"PUT /4 HTTP/1.1\r\nContent-Length: 4\r\n\r\nHEAD" +
		"\r\nCONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n"
	got := strings.Join(RequestMethods([]byte(raw)), " ")
	if want := "GET POST HEAD PUT CONNECT"; got != want {
		t.Errorf("methods %q, want %q", got, want)
	}
}

func TestPiecesCoverInputAndHonourPauses(t *testing.T) {
	in := strings.Repeat("0123456789", 30)
	c := &Case{ID: "x", input: []byte(in), PauseAt: []int{7, 150}}
	for _, split := range []bool{false, true} {
		ps := pieces(c, Options{Split: split, Pause: time.Millisecond, Hold: time.Second})
		var all bytes.Buffer
		offset, holds := 0, 0
		for _, p := range ps {
			all.Write(p.data)
			offset += len(p.data)
			if p.pause == time.Second {
				holds++
				if offset != 7 && offset != 150 {
					t.Errorf("split=%v: hold at offset %d", split, offset)
				}
			}
			if split && len(p.data) > 4 {
				t.Errorf("split piece of %d bytes", len(p.data))
			}
		}
		if all.String() != in || holds != 2 {
			t.Errorf("split=%v: pieces rebuild %d bytes with %d holds", split, all.Len(), holds)
		}
		if !split && len(ps) != 3 {
			t.Errorf("whole mode: %d pieces, want 3", len(ps))
		}
	}
}

func TestCheckCloseAndAlternatives(t *testing.T) {
	one := Stream{Finals: []Response{{Status: 200, Body: echoBody("POST", "/", "")}}}
	two := Stream{Finals: []Response{{Status: 200}, {Status: 200}}}
	closed, open := Observation{Closed: true}, Observation{}
	alt := Expect{AnyOf: []Expect{{Status: []int{400}, Close: true}, {Status: []int{200}, Close: true, Echo: &Echo{Body: ptr("")}}}}
	if p := check(&alt, closed, one); len(p) != 0 {
		t.Errorf("closed single 200 with empty body: %v", p)
	}
	if p := check(&alt, open, one); len(p) == 0 {
		t.Error("open connection passed a close expectation")
	}
	if p := check(&alt, closed, two); len(p) == 0 {
		t.Error("two responses passed a close-after-first expectation")
	}
	n := 2
	if p := check(&Expect{Responses: &n, Close: true}, closed, two); len(p) != 0 {
		t.Errorf("close after two counted responses: %v", p)
	}
}

func TestCheckEchoFields(t *testing.T) {
	s := Stream{Finals: []Response{{Status: 200, Body: echoBody("GET", "/", "hi", "X-A", "\xff")}}}
	good := &Echo{Method: ptr("GET"), Body: ptr("hi"),
		HeadersB64: [][2]string{{b64("x-a"), b64("\xff")}}, HeadersAbsent: []string{"X-B"}}
	if p := checkEcho(0, good, s); len(p) != 0 {
		t.Errorf("matching echo: %v", p)
	}
	bad := &Echo{Method: ptr("POST"), Headers: [][2]string{{"X-A", "y"}}, HeadersAbsent: []string{"x-a"}}
	if p := checkEcho(0, bad, s); len(p) != 3 {
		t.Errorf("want 3 problems, got %v", p)
	}
}

// echoBody renders an echo JSON body with the given fields (name, value pairs).
func echoBody(method, uri, body string, fields ...string) []byte {
	w := echoWire{Method: b64(method), Body: b64(body), Version: b64("HTTP/1.1"), URI: b64(uri), Headers: [][]string{}}
	for i := 0; i+1 < len(fields); i += 2 {
		w.Headers = append(w.Headers, []string{b64(fields[i]), b64(fields[i+1])})
	}
	out, _ := json.Marshal(w)
	return out
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
