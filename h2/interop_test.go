package h2

import (
	"context"
	"encoding/xml"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// tool returns the path of an external program, looked up in PATH and
// then in $GOPATH/bin (where `go install` puts h2spec), or skips the test.
func tool(t *testing.T, name, install string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if home, err := os.UserHomeDir(); err == nil {
			gopath = filepath.Join(home, "go")
		}
	}
	if p := filepath.Join(gopath, "bin", name); gopath != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("%s not found in PATH or $GOPATH/bin; install it with: %s", name, install)
	return ""
}

// run runs a command for at most limit and returns its combined output.
func run(t *testing.T, limit time.Duration, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return string(out), err
}

// TestCurl: curl speaks HTTP/1.1 and HTTP/2 to one TLS server, and HTTP/2
// with prior knowledge to a cleartext one.
func TestCurl(t *testing.T) {
	curl := tool(t, "curl", "apt-get install curl")
	if v, _ := run(t, 5*time.Second, curl, "-V"); !strings.Contains(v, "HTTP2") {
		t.Skip("this curl has no HTTP/2 support (curl -V lists no HTTP2 feature)")
	}
	tlsAddr := start(t, &brisk.Server{}, Config{}, true)
	h2cAddr := start(t, &brisk.Server{H2C: true}, Config{}, false)
	for _, tc := range []struct {
		name, flag, url, want string
	}{
		{"http1.1_tls", "--http1.1", "https://" + tlsAddr + "/", "h1 1.1"},
		{"http2_tls", "--http2", "https://" + tlsAddr + "/", "h2 HTTP/2.0 tls=yes read=0 2"},
		{"http2_prior_knowledge", "--http2-prior-knowledge", "http://" + h2cAddr + "/", "h2 HTTP/2.0 tls=no read=0 2"},
		{"http1.1_h2c_server", "--http1.1", "http://" + h2cAddr + "/", "h1 1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, 10*time.Second, curl, "-sS", "-k", "--max-time", "5", "-w", " %{http_version}", tc.flag, tc.url)
			if err != nil || out != tc.want {
				t.Fatalf("curl %s %s: %q, %v; want %q", tc.flag, tc.url, out, err, tc.want)
			}
		})
	}
}

// h2specKnown lists the h2spec cases (by spec ID, as h2spec takes them on
// its command line) that fail for a reason outside the hand-over, with
// that reason. They still run and are logged; any other failure fails
// the test, and a listed case that passes is reported so it can go.
var h2specKnown = map[string]string{
	"http2/3.5/2": "h2c only: the port also serves HTTP/1.1, so a connection that does not open with " +
		"the preface is answered as HTTP/1.1 (400 and close), not closed at once",
	"http2/6.5.3/1": "x/net/http2 refuses a SETTINGS frame that repeats a setting with PROTOCOL_ERROR " +
		"(a defence against settings floods), where RFC 9113 §6.5.3 applies the values in order",
	"http2/8.1.2.2/1": "x/net/http2 answers a request with a connection-specific field 400, where " +
		"RFC 9113 §8.2.2 makes it malformed (RST_STREAM PROTOCOL_ERROR)",
	"http2/8.1.2.2/2": "x/net/http2 answers a request whose TE is not \"trailers\" 400, where " +
		"RFC 9113 §8.2.2 makes it malformed (RST_STREAM PROTOCOL_ERROR)",
}

// junit is the part of h2spec's JUnit report (-j) that names each case
// and tells whether it failed.
type junit struct {
	Suites []struct {
		Package string `xml:"package,attr"`
		Cases   []struct {
			Name    string    `xml:"classname,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct{} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// failedCases returns the spec IDs of the failed cases in a JUnit report,
// each with its description.
func failedCases(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r junit
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatalf("h2spec report: %v", err)
	}
	failed := map[string]string{}
	for _, s := range r.Suites {
		for i, c := range s.Cases {
			if c.Failure != nil || c.Error != nil {
				failed[s.Package+"/"+strconv.Itoa(i+1)] = c.Name
			}
		}
	}
	return failed
}

// h2specSummary is the last line of an h2spec run.
var h2specSummary = regexp.MustCompile(`(\d+) tests, (\d+) passed, (\d+) skipped, (\d+) failed`)

// TestH2Spec runs h2spec (github.com/summerwind/h2spec: the HTTP/2 and
// HPACK conformance cases, strict ones included) against the TLS and the
// h2c server. Every case must pass but those of h2specKnown, whose
// failures are x/net/http2's or the shared port's and are logged.
func TestH2Spec(t *testing.T) {
	if testing.Short() {
		t.Skip("h2spec takes ~20 s; skipped in -short mode")
	}
	h2spec := tool(t, "h2spec", "go install github.com/summerwind/h2spec/cmd/h2spec@latest")
	for _, tlsOn := range []bool{true, false} {
		name := map[bool]string{true: "tls", false: "h2c"}[tlsOn]
		t.Run(name, func(t *testing.T) {
			addr := start(t, &brisk.Server{H2C: !tlsOn}, Config{}, tlsOn)
			_, port, _ := net.SplitHostPort(addr)
			report := filepath.Join(t.TempDir(), "h2spec.xml")
			args := []string{"-h", "127.0.0.1", "-p", port, "-o", "2", "-S", "-j", report}
			if tlsOn {
				args = append(args, "-t", "-k")
			}
			out, err := run(t, 3*time.Minute, h2spec, args...)
			m := h2specSummary.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("h2spec %s: no summary line (%v):\n%s", strings.Join(args, " "), err, out)
			}
			t.Logf("h2spec %s: %s", name, m[0])
			failed := failedCases(t, report)
			for id, desc := range failed {
				if why, ok := h2specKnown[id]; ok {
					t.Logf("known failure %s %q: %s", id, desc, why)
				} else {
					t.Errorf("h2spec %s failed %s %q", name, id, desc)
				}
			}
			for id := range h2specKnown {
				if _, ok := failed[id]; !ok && !(tlsOn && id == "http2/3.5/2") {
					t.Logf("known failure %s passed: remove it from h2specKnown", id)
				}
			}
			if t.Failed() {
				t.Logf("h2spec output:\n%s", failures(out))
			}
		})
	}
}

// failures returns the "Failures:" section of h2spec's output, or all of
// it when there is none.
func failures(out string) string {
	if i := strings.Index(out, "Failures:"); i >= 0 {
		return out[i:]
	}
	return out
}

// h2loadRequests is h2load's "requests:" summary line.
var h2loadRequests = regexp.MustCompile(`requests: (\d+) total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored`)

// TestH2Load drives 1,000 requests with h2load (nghttp2) over HTTP/2 on
// TLS and h2c, ten streams at once on each of ten connections, and over
// HTTP/1.1 on TLS: every one must succeed. A short run, not a benchmark.
func TestH2Load(t *testing.T) {
	h2load := tool(t, "h2load", "apt-get install nghttp2-client")
	tlsAddr := start(t, &brisk.Server{}, Config{}, true)
	h2cAddr := start(t, &brisk.Server{H2C: true}, Config{}, false)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"h2_tls", []string{"-m", "10", "https://" + tlsAddr + "/"}},
		{"h2c", []string{"-m", "10", "http://" + h2cAddr + "/"}},
		{"h1_tls", []string{"--h1", "https://" + tlsAddr + "/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, 30*time.Second, h2load, append([]string{"-n", "1000", "-c", "10"}, tc.args...)...)
			m := h2loadRequests.FindStringSubmatch(out)
			if err != nil || m == nil || m[1] != "1000" || m[2] != "1000" {
				t.Fatalf("h2load %s: %v\n%s", tc.args, err, out)
			}
		})
	}
}
