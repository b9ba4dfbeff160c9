package main

import (
	"bytes"
	"strings"
	"testing"
)

// runArgs runs the command line and returns its exit status and outputs.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // substring; "" means stdout must be empty
		stderr     string // substring; "" means stderr must be empty
		stderrLine bool   // stderr must be exactly one line
	}{
		{"no_args", nil, 2, "", "Usage:", false},
		{"help", []string{"help"}, 0, "serve", "", false},
		{"dash_h", []string{"-h"}, 0, "Commands:", "", false},
		{"help_serve", []string{"help", "serve"}, 0, "Usage: brisk serve", "", false},
		{"help_unknown", []string{"help", "bogus"}, 2, "", `brisk: unknown command "bogus"`, true},
		{"unknown", []string{"bogus"}, 2, "", `brisk: unknown command "bogus"; run 'brisk help'`, true},
		{"version", []string{"version"}, 0, "brisk ", "", false},
		{"version_arg", []string{"version", "x"}, 2, "", "brisk version: takes no arguments", true},
		{"version_h", []string{"version", "-h"}, 0, "Usage: brisk version", "", false},
		{"help_h", []string{"help", "-h"}, 0, "Usage: brisk help", "", false},
		{"serve_h", []string{"serve", "-h"}, 0, "-addr", "", false},
		{"serve_bad_flag", []string{"serve", "-bogus"}, 2, "", "brisk serve: flag provided but not defined: -bogus (run 'brisk serve -h' for usage)", true},
		{"serve_extra_arg", []string{"serve", "now"}, 2, "", `brisk serve: unexpected argument "now"`, true},
		{"serve_missing_root", []string{"serve", "-addr", "127.0.0.1:0", "-root", "/nonexistent/brisk"}, 1, "", "brisk: open root: ", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			check := func(what, got, want string) {
				if want == "" && got != "" {
					t.Errorf("%s = %q, want empty", what, got)
				}
				if !strings.Contains(got, want) {
					t.Errorf("%s = %q, want it to contain %q", what, got, want)
				}
			}
			check("stdout", stdout, tt.stdout)
			check("stderr", stderr, tt.stderr)
			if tt.stderrLine && strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q is not one line", stderr)
			}
		})
	}
}

// TestEveryCommandHasHelp: `-h` works on every subcommand of the table.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands() {
		code, stdout, stderr := runArgs(c.name, "-h")
		if code != 0 || !strings.HasPrefix(stdout, "Usage: brisk "+c.name) || stderr != "" {
			t.Errorf("brisk %s -h: exit %d, stdout %.40q, stderr %q", c.name, code, stdout, stderr)
		}
	}
}
