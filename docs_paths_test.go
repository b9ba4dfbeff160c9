package brisk_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoPath matches a path of this repository in prose: one under a
// top-level directory that holds scripts, suites, programs or internal
// packages (bench/e2e.sh, tests/proxy, cmd/brisk/serve.go), or a
// Markdown file or shell script named with its directories
// (bench/results/parking.md). A path right after a letter, digit, dot or
// slash is part of a host name, a URL or a longer path, and is not
// matched.
var repoPath = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])((?:(?:bench|tests|examples|cmd|internal)/[A-Za-z0-9_./{}-]*[A-Za-z0-9_]|[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(?:md|sh))\b)`)

// TestDocRepoPathsExist: every bench/, tests/, examples/, cmd/ or
// internal/ path, and every .md or .sh file, that README.md,
// ARCHITECTURE.md, CONTRIBUTING.md, bench/README.md or a Go comment
// names exists, relative to the naming file's directory or to the
// repository root, so scripts, results files and suites that docs point
// to are not renamed or removed under them. Paths with a {placeholder}
// are not checked.
func TestDocRepoPathsExist(t *testing.T) {
	docs := append([]string{"README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "bench/README.md"}, repoFiles(t, ".go")...)
	n := 0
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(path)
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasSuffix(path, ".go") {
				_, line, _ = strings.Cut(line, "//")
			}
			for _, m := range repoPath.FindAllStringSubmatch(line, -1) {
				p := m[1]
				if strings.Contains(p, "{") || strings.Contains(p, "...") {
					continue
				}
				n++
				if !exists(filepath.Join(dir, p)) && !exists(p) {
					t.Errorf("%s:%d names %s, which does not exist", path, i+1, p)
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("checked %d paths, want 100 or more: is the pattern broken?", n)
	}
}
