package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Result is the verdict on one case.
type Result struct {
	Case     *Case
	Problems []string // empty when the case passed
	Seen     string   // a short account of what the server did
}

// Passed reports whether every expectation held.
func (r *Result) Passed() bool { return len(r.Problems) == 0 }

// Judge runs the checks of a case against what the server sent.
func Judge(c *Case, obs Observation) Result {
	res := Result{Case: c}
	if obs.DialErr != nil {
		res.Problems = []string{"dial: " + obs.DialErr.Error()}
		res.Seen = "no connection"
		return res
	}
	s := ParseStream(obs.Data, RequestMethods(c.Input()))
	res.Seen = describe(obs, s)
	if s.Err != nil {
		res.Problems = append(res.Problems, "unreadable response bytes: "+s.Err.Error())
	}
	res.Problems = append(res.Problems, check(&c.Expect, obs, s)...)
	return res
}

// check returns every expectation in e that the answer breaks.
func check(e *Expect, obs Observation, s Stream) []string {
	var p []string
	if len(e.Status) > 0 {
		p = append(p, checkStatus(0, e.Status, s)...)
	}
	for i, want := range e.Statuses {
		p = append(p, checkStatus(i, want, s)...)
	}
	if e.Responses != nil && len(s.Finals) != *e.Responses {
		p = append(p, fmt.Sprintf("%d final responses, want %d", len(s.Finals), *e.Responses))
	}
	if e.Close {
		p = append(p, checkClose(e, obs, s)...)
	}
	if e.NoInterim && len(s.Interims) > 0 {
		p = append(p, fmt.Sprintf("sent %d interim 1xx responses, want none", len(s.Interims)))
	}
	if e.Echo != nil {
		p = append(p, checkEcho(0, e.Echo, s)...)
	}
	for i, echo := range e.Echoes {
		if echo != nil {
			p = append(p, checkEcho(i, echo, s)...)
		}
	}
	if len(e.AnyOf) > 0 {
		p = append(p, checkAnyOf(e.AnyOf, obs, s)...)
	}
	return p
}

// checkStatus checks the status code of final response i.
func checkStatus(i int, want []int, s Stream) []string {
	if i >= len(s.Finals) {
		return []string{fmt.Sprintf("no response #%d, want status %s", i+1, codes(want))}
	}
	if got := s.Finals[i].Status; !slices.Contains(want, got) {
		return []string{fmt.Sprintf("response #%d status %d, want %s", i+1, got, codes(want))}
	}
	return nil
}

// checkClose requires a closed connection and, unless the expectation
// counts responses itself, no more than one final response.
func checkClose(e *Expect, obs Observation, s Stream) []string {
	var p []string
	if !obs.Closed {
		p = append(p, "connection left open, want close")
	}
	if e.Responses == nil && len(s.Finals) > 1 {
		p = append(p, fmt.Sprintf("%d final responses, want the connection closed after the first", len(s.Finals)))
	}
	return p
}

// checkAnyOf passes when one alternative holds, else lists why each failed.
func checkAnyOf(alts []Expect, obs Observation, s Stream) []string {
	var why []string
	for i := range alts {
		p := check(&alts[i], obs, s)
		if len(p) == 0 {
			return nil
		}
		why = append(why, fmt.Sprintf("(%s: %s)", alts[i].String(), strings.Join(p, ", ")))
	}
	return []string{"no alternative held: " + strings.Join(why, " or ")}
}

// echoed is the echo handler's report, decoded from base64.
type echoed struct {
	Method, URI, Version string
	Body                 []byte
	Header               [][2]string
}

// echoWire is the echo body as sent: every string is standard base64.
type echoWire struct {
	Headers [][]string `json:"headers"`
	Body    string     `json:"body"`
	Method  string     `json:"method"`
	Version string     `json:"version"`
	URI     string     `json:"uri"`
}

// decodeEcho parses an echo body.
func decodeEcho(body []byte) (*echoed, error) {
	var w echoWire
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("echo body is not the echo JSON: %v", err)
	}
	var e echoed
	var err error
	dec := func(s string) string {
		b, derr := base64.StdEncoding.DecodeString(s)
		if derr != nil && err == nil {
			err = fmt.Errorf("echo field %q is not base64", clip([]byte(s)))
		}
		return string(b)
	}
	e.Method, e.URI, e.Version, e.Body = dec(w.Method), dec(w.URI), dec(w.Version), []byte(dec(w.Body))
	for _, h := range w.Headers {
		if len(h) != 2 {
			return nil, fmt.Errorf("echo header entry has %d items, want 2", len(h))
		}
		e.Header = append(e.Header, [2]string{dec(h[0]), dec(h[1])})
	}
	return &e, err
}

// checkEcho compares the echo of final response i with want.
func checkEcho(i int, want *Echo, s Stream) []string {
	if i >= len(s.Finals) {
		return []string{fmt.Sprintf("no response #%d to read an echo from", i+1)}
	}
	got, err := decodeEcho(s.Finals[i].Body)
	if err != nil {
		return []string{fmt.Sprintf("response #%d: %v", i+1, err)}
	}
	var p []string
	field := func(name string, want *string, got string) {
		if want != nil && *want != got {
			p = append(p, fmt.Sprintf("echo #%d %s %q, want %q", i+1, name, clip([]byte(got)), clip([]byte(*want))))
		}
	}
	field("method", want.Method, got.Method)
	field("uri", want.URI, got.URI)
	field("version", want.Version, got.Version)
	field("body", want.Body, string(got.Body))
	if want.BodyB64 != nil {
		field("body", ptr(mustB64(*want.BodyB64)), string(got.Body))
	}
	for _, h := range want.Headers {
		p = append(p, checkField(i, h, got.Header)...)
	}
	for _, h := range want.HeadersB64 {
		p = append(p, checkField(i, [2]string{mustB64(h[0]), mustB64(h[1])}, got.Header)...)
	}
	for _, name := range want.HeadersAbsent {
		if hasField(name, got.Header) {
			p = append(p, fmt.Sprintf("echo #%d has field %q, want it absent", i+1, name))
		}
	}
	return p
}

// checkField requires the field name: value among the echoed fields.
func checkField(i int, want [2]string, got [][2]string) []string {
	var values []string
	for _, f := range got {
		if strings.EqualFold(f[0], want[0]) {
			if f[1] == want[1] {
				return nil
			}
			values = append(values, fmt.Sprintf("%q", clip([]byte(f[1]))))
		}
	}
	if len(values) == 0 {
		return []string{fmt.Sprintf("echo #%d lacks field %q", i+1, want[0])}
	}
	return []string{fmt.Sprintf("echo #%d field %q is %s, want %q", i+1, want[0], strings.Join(values, ","), clip([]byte(want[1])))}
}

// hasField reports whether a field of that name was echoed.
func hasField(name string, got [][2]string) bool {
	return slices.ContainsFunc(got, func(f [2]string) bool { return strings.EqualFold(f[0], name) })
}

// mustB64 decodes base64 from the corpus; a bad value decodes to a marker
// that can never match.
func mustB64(s string) string {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "\x00<bad base64 in corpus>"
	}
	return string(b)
}

func ptr(s string) *string { return &s }

// describe summarises what came back: statuses, interim count, close.
func describe(obs Observation, s Stream) string {
	var parts []string
	for _, r := range s.All {
		if r.Status < 200 && r.Status != 101 {
			parts = append(parts, fmt.Sprintf("(%d)", r.Status))
		} else {
			parts = append(parts, fmt.Sprint(r.Status))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no response")
	}
	state := "open"
	switch {
	case obs.Reset:
		state = "closed (reset)"
	case obs.Closed:
		state = "closed"
	}
	if obs.WriteErr != nil {
		state += ", stopped reading our bytes early"
	}
	return strings.Join(parts, " ") + ", " + state
}
