// Command agentrl is the course's one command: set-up, the course server, the book checker and
// library build, the site export, the BugFix gym, the Qwen3 tools, training and benchmarks.
//
// Each subcommand lives in its own file of this package and registers itself in an init function,
// so that adding a command never touches this file.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
)

// command is one subcommand: `agentrl NAME args...`.
type command struct {
	name    string
	summary string // one line for the usage listing
	run     func(args []string) error
}

var commands = map[string]command{}

// stderr is where commands report progress and problems; tests capture it.
var stderr io.Writer = os.Stderr

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("agentrl: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error that is the user's call, not a failure: main prints it and exits 2.
var errUsage = errors.New("usage")

func usage() {
	fmt.Fprintln(os.Stderr, "usage: agentrl COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun 'agentrl COMMAND -h' for a command's flags.")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		os.Exit(2)
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "agentrl: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err := profiled(c, os.Args[2:]); err != nil {
		if errors.Is(err, errUsage) {
			fmt.Fprintf(os.Stderr, "agentrl %s: %v\n", c.name, err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "agentrl %s: %v\n", c.name, err)
		os.Exit(1)
	}
}

// profiled runs c; with AGENTRL_CPUPROFILE=FILE set it writes a CPU profile of the run there
// (read it with `go tool pprof`), since the course measures before it optimizes.
func profiled(c command, args []string) error {
	path := os.Getenv("AGENTRL_CPUPROFILE")
	if path == "" {
		return c.run(args)
	}
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("AGENTRL_CPUPROFILE: %w", err)
	}
	defer fh.Close()
	if err := pprof.StartCPUProfile(fh); err != nil {
		return fmt.Errorf("AGENTRL_CPUPROFILE: %w", err)
	}
	defer pprof.StopCPUProfile()
	return c.run(args)
}
