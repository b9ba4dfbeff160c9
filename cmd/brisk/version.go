package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// runVersion prints "brisk VERSION GOVERSION GOOS/GOARCH", with the module
// version and, when the binary was built with VCS stamping, the revision.
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", "Print the brisk version, the Go version and the platform.", stderr)
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "brisk version: takes no arguments")
		return exitUsage
	}
	fmt.Fprintf(stdout, "brisk %s %s %s/%s\n", version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

// version returns the main module's version from the build information,
// "(devel)" for a build from a work tree, with "+REVISION[-dirty]" when the
// build recorded one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += "+" + rev + dirty
	}
	return v
}
