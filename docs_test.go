package brisk_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// repoFiles returns the repository's files whose names end in one of
// exts, relative to the repository root (this package's directory),
// skipping hidden directories, testdata and node_modules.
func repoFiles(t *testing.T, exts ...string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		for _, ext := range exts {
			if strings.HasSuffix(path, ext) {
				files = append(files, filepath.ToSlash(path))
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// isInternal reports whether an import path or a directory has an
// element "internal", which only code under its parent may import.
func isInternal(path string) bool {
	for _, elem := range strings.Split(path, "/") {
		if elem == "internal" {
			return true
		}
	}
	return false
}

// TestExamplesUsePublicAPI: an Example is code for users to copy, so a
// test file declaring one imports no internal package. Examples of
// internal packages themselves are exempt: no user can import those.
func TestExamplesUsePublicAPI(t *testing.T) {
	n := 0
	fset := token.NewFileSet()
	for _, path := range repoFiles(t, "_test.go") {
		if isInternal(filepath.ToSlash(filepath.Dir(path))) {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		example := false
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Example") {
				example = true
				break
			}
		}
		if !example {
			continue
		}
		n++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if isInternal(p) {
				t.Errorf("%s: an Example file imports %s, which users cannot import: use public API (brisktest.NewTLSCerts for certificates)",
					fset.Position(imp.Pos()), p)
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d Example files, want 20 or more: is the walk broken?", n)
	}
}

// goFileName matches a mention of a Go file: a name ending in ".go",
// possibly with a directory path ("wire/body.go").
var goFileName = regexp.MustCompile(`\b[A-Za-z0-9][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_.-]+)*\.go\b`)

// otherProjects are Go file names mentioned in docs that name files of
// other projects, not of this repository, each with the reason.
var otherProjects = map[string]string{
	"net/http/pattern.go": "Go's net/http, whose pattern precedence router/conflict.go follows",
}

// TestDocFileNamesExist: every Go file a doc comment or Markdown file
// names exists, relative to the naming file's directory or to the
// repository root, so docs do not point at files that were renamed or
// merged away. Names of other projects' files are in otherProjects.
func TestDocFileNamesExist(t *testing.T) {
	fset := token.NewFileSet()
	used := map[string]bool{}
	for _, path := range repoFiles(t, ".go", ".md") {
		var texts []string
		if strings.HasSuffix(path, ".go") {
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, cg := range f.Comments {
				texts = append(texts, cg.Text())
			}
		} else {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
		dir := filepath.Dir(path)
		for _, text := range texts {
			for _, name := range goFileName.FindAllString(text, -1) {
				if _, ok := otherProjects[name]; ok {
					used[name] = true
					continue
				}
				if !exists(filepath.Join(dir, name)) && !exists(name) {
					t.Errorf("%s names %s, which does not exist (add names of other projects' files to otherProjects)", path, name)
				}
			}
		}
	}
	for name := range otherProjects {
		if !used[name] {
			t.Errorf("otherProjects lists %s, which no doc names any more", name)
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// figure matches a measured figure in README prose: a ratio ("0.98×",
// "1.2x") or a number with a unit of measurement ("8.43 KB", "6.7 µs",
// "216266 req/s"). Sizes in KiB and MiB are inputs, not figures.
var figure = regexp.MustCompile(`(\d[\d,]*(?:\.\d+)?)(?:×|x\b| KB\b| µs\b| ns\b| req/s\b)`)

// tableFigure matches a table cell holding a figure.
var tableFigure = regexp.MustCompile(`^(\d[\d,]*(?:\.\d+)?)×?$`)

// resultsRef matches a reference to a results file.
var resultsRef = regexp.MustCompile(`bench/results/[A-Za-z0-9_.-]*[A-Za-z0-9_]`)

// benchScript matches the name of a bench/ script or program.
var benchScript = regexp.MustCompile(`bench/[A-Za-z0-9_]+\.sh|go run \./idle`)

// TestREADMEFigures: every measured figure in README.md is copied from a
// bench/results file named in its paragraph (or, for a table, in the
// paragraph before it), beside the bench/ script that writes it, so no
// figure outlives the results that support it. A figure is a ratio or
// a number with a unit of measurement in prose, or a number in a table
// whose header names req/s, ns/op, KB or fasthttp; code blocks are
// skipped.
func TestREADMEFigures(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]string{}
	readResults := func(ref string) string {
		if text, ok := results[ref]; ok {
			return text
		}
		b, err := os.ReadFile(ref)
		if err != nil {
			t.Errorf("README.md names %s: %v", ref, err)
		}
		results[ref] = strings.ReplaceAll(string(b), ",", "")
		return results[ref]
	}
	var blocks [][]string
	var cur []string
	code := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			code = !code
			continue
		}
		if code {
			continue
		}
		if strings.TrimSpace(line) == "" {
			if cur != nil {
				blocks = append(blocks, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	if cur != nil {
		blocks = append(blocks, cur)
	}
	checked := 0
	for i, block := range blocks {
		text := strings.Join(block, "\n")
		var figs []string
		if strings.HasPrefix(block[0], "|") {
			if h := block[0]; strings.Contains(h, "req/s") || strings.Contains(h, "ns/op") ||
				strings.Contains(h, "KB") || strings.Contains(h, "fasthttp") {
				for _, row := range block[2:] {
					for _, cell := range strings.Split(row, "|") {
						if m := tableFigure.FindStringSubmatch(strings.TrimSpace(cell)); m != nil {
							figs = append(figs, m[1])
						}
					}
				}
			}
		} else {
			for _, m := range figure.FindAllStringSubmatch(text, -1) {
				figs = append(figs, m[1])
			}
		}
		if len(figs) == 0 {
			continue
		}
		scope := text
		if strings.HasPrefix(block[0], "|") && i > 0 {
			scope += "\n" + strings.Join(blocks[i-1], "\n")
		}
		refs := resultsRef.FindAllString(scope, -1)
		if len(refs) == 0 {
			t.Errorf("README.md: figures %v in %q... name no bench/results file", figs, block[0])
			continue
		}
		if !benchScript.MatchString(scope) {
			t.Errorf("README.md: figures %v in %q... name no bench/ script", figs, block[0])
		}
		for _, f := range figs {
			n := strings.ReplaceAll(f, ",", "")
			re := regexp.MustCompile(`(^|[^\d.])` + regexp.QuoteMeta(n) + `(\D|$)`)
			found := false
			for _, ref := range refs {
				if re.MatchString(readResults(ref)) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("README.md: figure %s (in %q...) is in none of %v", f, block[0], refs)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("checked %d figures, want 50 or more: is the scan broken?", checked)
	}
	t.Logf("%d figures checked", checked)
}

// docPath matches a backquoted repository path in Markdown: elements of
// letters, digits, '_', '.', '-' separated by '/', possibly ending in '/'.
var docPath = regexp.MustCompile("`([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*/?)`")

// layoutPath matches the first column of a line of the README's Layout
// block: a path ending in '/', or go.work.
var layoutPath = regexp.MustCompile(`^([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*/)\s`)

// TestDocPathsExist: every directory or file path ARCHITECTURE.md names
// in backquotes whose first element is a directory of the repository
// (internal/..., tests/..., cmd/brisk/...), and every directory in the
// README's Layout block, exists, so the docs follow the tree when
// packages move. Other projects' paths (golang.org/x/net, gobwas/ws)
// start with no directory of this repository and are not checked.
func TestDocPathsExist(t *testing.T) {
	exists := func(p string) bool {
		_, err := os.Stat(filepath.FromSlash(strings.TrimSuffix(p, "/")))
		return err == nil
	}
	isRepoDir := func(p string) bool {
		first, _, _ := strings.Cut(p, "/")
		st, err := os.Stat(first)
		return err == nil && st.IsDir() && !strings.HasPrefix(first, ".")
	}
	arch, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range docPath.FindAllStringSubmatch(string(arch), -1) {
		p := m[1]
		if !strings.Contains(p, "/") || !isRepoDir(p) {
			continue
		}
		n++
		if !exists(p) {
			t.Errorf("ARCHITECTURE.md names %s, which does not exist", p)
		}
	}
	if n < 20 {
		t.Errorf("ARCHITECTURE.md: checked %d paths, want 20 or more: is the pattern broken?", n)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, _ := strings.Cut(string(readme), "\n## Layout\n")
	layout, _, _ = strings.Cut(layout, "\n## ")
	n = 0
	for _, line := range strings.Split(layout, "\n") {
		if m := layoutPath.FindStringSubmatch(line); m != nil {
			n++
			if !exists(m[1]) {
				t.Errorf("README.md's Layout names %s, which does not exist", m[1])
			}
		}
	}
	if n < 15 {
		t.Errorf("README.md's Layout: checked %d directories, want 15 or more: is the pattern broken?", n)
	}
}
