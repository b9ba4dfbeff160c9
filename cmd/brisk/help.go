package main

import (
	"flag"
	"fmt"
	"io"
)

// runHelp prints the overview, or the usage of one command.
func runHelp(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("help", "[command]", "Print help about brisk or a command.", stderr)
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		usage(stdout)
		return exitOK
	case 1:
		cmd, ok := lookup(fs.Arg(0))
		if !ok {
			fmt.Fprintf(stderr, "brisk: unknown command %q; run 'brisk help'\n", fs.Arg(0))
			return exitUsage
		}
		return cmd.run([]string{"-h"}, stdout, stderr)
	}
	fmt.Fprintln(stderr, "brisk help: too many arguments")
	return exitUsage
}

// usage prints the overview of brisk and its commands.
func usage(w io.Writer) {
	fmt.Fprint(w, "brisk is an HTTP server and client for Go (HTTP/1.1, HTTP/2, HTTP/3): fast, and strict about the protocol.\n\n")
	fmt.Fprint(w, "Usage:\n\n\tbrisk <command> [flags]\n\nCommands:\n\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'brisk <command> -h' for the flags of a command.\n")
}

// newFlagSet returns a flag set for a subcommand. Its Usage prints
// "Usage: brisk name synopsis", the description and the flags to the flag
// set's output (stderr). Parse it with parse.
func newFlagSet(name, synopsis, description string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("brisk "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: brisk %s %s\n\n%s\n", name, synopsis, description)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parse parses args into fs. When parsing ends the command it returns the
// exit status and done = true: for -h, after printing the usage to stdout
// (status 0); for a bad flag, after printing one line to the flag set's
// output, "brisk name: <error> (run 'brisk name -h' for usage)" (status 2).
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {} // the flag package would print it on stderr
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == flag.ErrHelp:
		fs.SetOutput(stdout)
		fs.Usage()
		fs.SetOutput(out)
		return exitOK, true
	case err != nil:
		fmt.Fprintf(out, "%s: %v (run '%s -h' for usage)\n", fs.Name(), err, fs.Name())
		return exitUsage, true
	}
	return exitOK, false
}
