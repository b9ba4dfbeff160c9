package conformance

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Case is one conformance case, one line of testdata/requests.jsonl: the
// bytes sent on a fresh connection and what the server must answer. Its
// fields and Expect's, with their JSON names, are the file format.
type Case struct {
	ID      string  `json:"id"`
	Rule    string  `json:"rule"`
	Level   string  `json:"level,omitempty"`
	Raw     *string `json:"raw,omitempty"`
	RawB64  *string `json:"raw_b64,omitempty"`
	PauseAt []int   `json:"pause_at,omitempty"`
	Expect  Expect  `json:"expect"`
	Why     string  `json:"why"`

	input []byte // Raw or RawB64, decoded by LoadCases
}

// Expect lists what the server's answer must satisfy. Every key that is
// set must hold; AnyOf adds that at least one alternative must hold too.
type Expect struct {
	// Status lists the acceptable codes of the first final response.
	Status []int `json:"status,omitempty"`
	// Statuses lists acceptable codes per final response, in order.
	Statuses [][]int `json:"statuses,omitempty"`
	// Close requires the server to close the connection; unless Responses
	// is set it also requires that no more than one final response was sent.
	Close bool `json:"close,omitempty"`
	// Responses is the exact number of final (non-1xx) responses.
	Responses *int `json:"responses,omitempty"`
	// Echo checks the echo body of the first final response.
	Echo *Echo `json:"echo,omitempty"`
	// Echoes checks the echo body of each final response; null skips one.
	Echoes []*Echo `json:"echoes,omitempty"`
	// NoInterim forbids any 1xx interim response.
	NoInterim bool `json:"no_interim,omitempty"`
	// AnyOf holds alternative expectations; at least one must hold.
	AnyOf []Expect `json:"any_of,omitempty"`
}

// Echo names the request fields the server must have parsed, as reported by
// the echo handler. Unset fields are not checked.
type Echo struct {
	Method  *string `json:"method,omitempty"`
	URI     *string `json:"uri,omitempty"`
	Version *string `json:"version,omitempty"`
	Body    *string `json:"body,omitempty"`
	BodyB64 *string `json:"body_b64,omitempty"`
	// Headers must each be present: names compared case-insensitively,
	// values exactly. HeadersB64 is the same with base64 names and values.
	Headers    [][2]string `json:"headers,omitempty"`
	HeadersB64 [][2]string `json:"headers_b64,omitempty"`
	// HeadersAbsent names fields that must not be present.
	HeadersAbsent []string `json:"headers_absent,omitempty"`
}

// IsShould reports whether the case is graded at the SHOULD level: its
// failures are reported but do not fail the run.
func (c *Case) IsShould() bool { return c.Level == "SHOULD" }

// Input returns the bytes to send.
func (c *Case) Input() []byte { return c.input }

// LoadCases reads a JSON Lines corpus and validates every case.
func LoadCases(path string) ([]*Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCases(f)
}

// readCases parses JSON Lines from r: one case per non-blank line.
func readCases(r io.Reader) ([]*Case, error) {
	var cases []*Case
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		c, err := parseCase(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("line %d: duplicate id %q", line, c.ID)
		}
		seen[c.ID] = true
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return nil, errors.New("no cases")
	}
	return cases, nil
}

// parseCase decodes and validates one JSON object.
func parseCase(text []byte) (*Case, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	c := new(Case)
	if err := dec.Decode(c); err != nil {
		return nil, err
	}
	if c.ID == "" {
		return nil, errors.New("missing id")
	}
	if err := c.decodeInput(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	if c.Level != "" && c.Level != "MUST" && c.Level != "SHOULD" {
		return nil, fmt.Errorf("%s: level %q is not MUST or SHOULD", c.ID, c.Level)
	}
	if err := validPauses(c.PauseAt, len(c.input)); err != nil {
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	if err := c.Expect.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	return c, nil
}

// decodeInput fills c.input from exactly one of raw and raw_b64.
func (c *Case) decodeInput() error {
	switch {
	case c.Raw != nil && c.RawB64 != nil:
		return errors.New("both raw and raw_b64 set")
	case c.Raw != nil:
		c.input = []byte(*c.Raw)
	case c.RawB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*c.RawB64)
		if err != nil {
			return fmt.Errorf("raw_b64: %w", err)
		}
		c.input = b
	default:
		return errors.New("neither raw nor raw_b64 set")
	}
	if len(c.input) == 0 {
		return errors.New("empty input")
	}
	return nil
}

// validPauses checks that pause offsets fall strictly inside the input and
// increase.
func validPauses(at []int, n int) error {
	prev := 0
	for _, off := range at {
		if off <= prev || off >= n {
			return fmt.Errorf("pause_at offset %d out of order or outside 1..%d", off, n-1)
		}
		prev = off
	}
	return nil
}

// validate rejects an expectation that checks nothing or has bad values.
func (e *Expect) validate() error {
	if e.empty() {
		return errors.New("expect checks nothing")
	}
	for _, echo := range append([]*Echo{e.Echo}, e.Echoes...) {
		if echo != nil && echo.Body != nil && echo.BodyB64 != nil {
			return errors.New("echo sets both body and body_b64")
		}
	}
	for i := range e.AnyOf {
		if err := e.AnyOf[i].validate(); err != nil {
			return fmt.Errorf("any_of[%d]: %w", i, err)
		}
	}
	return nil
}

// empty reports whether e sets no key at all.
func (e *Expect) empty() bool {
	return len(e.Status) == 0 && len(e.Statuses) == 0 && !e.Close &&
		e.Responses == nil && e.Echo == nil && len(e.Echoes) == 0 &&
		!e.NoInterim && len(e.AnyOf) == 0
}

// String renders the expectation briefly for failure lines.
func (e *Expect) String() string {
	var parts []string
	if len(e.Status) > 0 {
		parts = append(parts, "status "+codes(e.Status))
	}
	for i, s := range e.Statuses {
		parts = append(parts, fmt.Sprintf("#%d %s", i+1, codes(s)))
	}
	if e.Responses != nil {
		parts = append(parts, fmt.Sprintf("%d responses", *e.Responses))
	}
	if e.Close {
		parts = append(parts, "close")
	}
	if e.Echo != nil || len(e.Echoes) > 0 {
		parts = append(parts, "echo")
	}
	if e.NoInterim {
		parts = append(parts, "no 1xx")
	}
	if len(e.AnyOf) > 0 {
		alts := make([]string, len(e.AnyOf))
		for i := range e.AnyOf {
			alts[i] = "{" + e.AnyOf[i].String() + "}"
		}
		parts = append(parts, "one of "+strings.Join(alts, " or "))
	}
	return strings.Join(parts, " + ")
}

// codes formats a status list as [400 501].
func codes(list []int) string { return fmt.Sprint(list) }
