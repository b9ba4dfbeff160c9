package brisk_test

import (
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// testSupport is the tree of packages for tests only.
const testSupport = "github.com/brisk-http/brisk/internal/testsupport"

// testSupportUsers are the directories outside internal/testsupport whose
// non-test files may import it, each with the reason.
var testSupportUsers = map[string]string{
	"brisktest": "public test support: TLSCerts wraps internal/testsupport/certs",
}

// TestTestSupportIsTestOnly: internal/testsupport is for tests, so no
// non-test file outside it imports it (but testSupportUsers), in any
// module of the repository: production code never links it.
func TestTestSupportIsTestOnly(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	for _, path := range repoFiles(t, ".go") {
		if strings.HasSuffix(path, "_test.go") || strings.HasPrefix(path, "internal/testsupport/") {
			continue
		}
		dir := path[:max(strings.LastIndex(path, "/"), 0)]
		if _, ok := testSupportUsers[dir]; ok {
			continue
		}
		n++
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == testSupport || strings.HasPrefix(p, testSupport+"/") {
				t.Errorf("%s: a non-test file imports %s, which is for tests only", fset.Position(imp.Pos()), p)
			}
		}
	}
	if n < 100 {
		t.Errorf("checked %d non-test files, want 100 or more: is the walk broken?", n)
	}
}
