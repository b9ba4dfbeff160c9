package brisk_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// coreImports are the packages outside the standard library that the
// core package (github.com/brisk-http/brisk, what every user links) may
// import, directly or not, each with its reason. A path ending in "/"
// allows everything under it. Anything else (a metrics library, an
// encoder, an add-on of this module) belongs in a subpackage or another
// module: see ARCHITECTURE.md, "Modules and dependencies".
var coreImports = map[string]string{
	"github.com/brisk-http/brisk/internal/":  "the module's own production helpers (connio, ascii, limit...)",
	"github.com/brisk-http/brisk/wire":       "the HTTP/1.1 codec the engine is built on",
	"github.com/brisk-http/brisk/proxyproto": "the PROXY protocol grammar, for Server's PROXY header and the client's",

	"golang.org/x/sys/": "system calls the standard library does not export: epoll (parking), " +
		"socket options, CPU features for wire's scans",

	"golang.org/x/net/http/httpguts":  "net/http's own header and token validity rules",
	"golang.org/x/net/http/httpproxy": "the client's proxy from HTTP_PROXY, HTTPS_PROXY and NO_PROXY",
	"golang.org/x/net/proxy":          "the client's SOCKS5 proxy",
	"golang.org/x/net/internal/socks": "imported by golang.org/x/net/proxy",
	"golang.org/x/net/idna":           "imported by httpguts (IDNA host names)",
	"golang.org/x/text/":              "imported by golang.org/x/net/idna only (x/net's own dependency)",
}

// allowedCoreImport reports whether the core may import path.
func allowedCoreImport(path string) bool {
	for allowed := range coreImports {
		if path == allowed || strings.HasSuffix(allowed, "/") && strings.HasPrefix(path, allowed) {
			return true
		}
	}
	return false
}

// TestCoreImports: the core package imports nothing outside the standard
// library but coreImports, on every platform whose files differ (the
// dependencies of `go list -deps`, so indirect imports count too).
func TestCoreImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH: cannot list the core's dependencies")
	}
	for _, goos := range []string{"linux", "darwin", "windows", "freebsd"} {
		cmd := exec.Command(goBin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps .: %v\n%s", goos, err, out)
		}
		n := 0
		for _, path := range strings.Fields(string(out)) {
			n++
			if path != "github.com/brisk-http/brisk" && !allowedCoreImport(path) {
				t.Errorf("GOOS=%s: the core package imports %s, which is not in coreImports (deps_test.go): "+
					"move the code that needs it to a subpackage or module, or add it with its reason", goos, path)
			}
		}
		if n < 2 {
			t.Errorf("GOOS=%s: go list -deps . listed %d packages outside the standard library: is the listing broken?", goos, n)
		}
	}
}
