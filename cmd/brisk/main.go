// Command brisk is the brisk command-line tool.
//
//	brisk serve [-addr 127.0.0.1:8080] [-root DIR] [-echo] [-log] [-tls | -cert FILE -key FILE | -h2c]
//	brisk proxy -to URL[,URL...] [-listen 127.0.0.1:8080] [-balance least-pending|round-robin]
//	brisk version
//	brisk help [command]
//
// Every subcommand takes -h. Exit status: 0 on success, 1 when a command
// fails (for example the address is in use), 2 on a usage error.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and failed
	exitUsage = 2 // bad command line
)

// command is one subcommand. run receives the arguments after the
// subcommand name and returns the exit status.
type command struct {
	name    string
	summary string // one line for `brisk help`
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is the subcommand table, in the order `brisk help` lists it.
// A new subcommand lives in its own file and adds one line here.
func commands() []command {
	return []command{
		{"serve", "serve the default site, a directory or the echo handler (HTTP/1.1; HTTPS, HTTP/2 and HTTP/3 by flags)", runServe},
		{"proxy", "forward requests to upstream servers: a reverse proxy with serve's deployment flags", runProxy},
		{"load", "send requests to a URL and report latency percentiles, throughput and errors", runLoad},
		{"version", "print the brisk version", runVersion},
		{"help", "print help about brisk or a command", runHelp},
	}
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes the command line args (without the program name) and
// returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	cmd, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "brisk: unknown command %q; run 'brisk help'\n", args[0])
		return exitUsage
	}
	return cmd.run(args[1:], stdout, stderr)
}

// lookup finds a subcommand by name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}
