// Command agentrl is the course's one command: set-up, the course server, the book checker and
// library build, the site export, the BugFix gym, the Qwen3 tools, training and benchmarks.
//
// Each subcommand lives in its own file of this package and registers itself in an init function,
// so that adding a command never touches this file.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
	"strings"

	"github.com/agenticrl/course/backend"
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

// isHelp reports whether args ask a command group for its help: the group prints its usage and
// returns flag.ErrHelp, so that main exits 0, as -h does for every command's flags.
func isHelp(args []string) bool {
	return len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help")
}

// unknownWhat is "unknown subcommand "X": " when the user gave a subcommand X that does not
// exist, so the usage error names it; "" when none was given (help is answered before).
func unknownWhat(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return fmt.Sprintf("unknown subcommand %q: ", args[0])
}

// report is the line main prints for a command's error: the command's name, then the error,
// unless the error already starts with that name (packages prefix their own errors).
func report(name string, err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, name+": ") {
		return "agentrl " + msg
	}
	return "agentrl " + name + ": " + msg
}

// usageErr is the error for a failed flag parse: flag.ErrHelp itself when help was asked for (the
// flag set has printed it, and main exits 0), else a usage error with the flag package's message.
func usageErr(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return flag.ErrHelp
	}
	return fmt.Errorf("%w: %v", errUsage, err)
}

func usage() {
	fmt.Fprintln(stderr, "usage: agentrl COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(stderr, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(stderr, "\nRun 'agentrl COMMAND -h' for a command's flags.")
}

func main() {
	// The same numbers as the notebooks on any machine: GoMLX and the Go runtime without AVX-512.
	if err := backend.EnsureNoAVX512(); err != nil {
		fmt.Fprintf(os.Stderr, "agentrl: warning: could not restart with %s=false and GODEBUG=%s (%v); results may differ from the notebooks'\n", backend.NoAVX512Env, backend.NoAVX512Godebug, err)
	}
	os.Exit(runMain(os.Args[1:]))
}

// runMain runs the command args name and returns the exit status: 0 for success and for help,
// 2 for a wrong call, 1 for a failure.
func runMain(args []string) int {
	if isHelp(args) {
		usage()
		return 0
	}
	if len(args) == 0 {
		usage()
		return 2
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "agentrl: unknown command %q\n\n", args[0])
		usage()
		return 2
	}
	err := profiled(c, args[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp): // -h: the flag set or the group has printed the help
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, report(c.name, err))
		return 2
	}
	fmt.Fprintln(stderr, report(c.name, err))
	return 1
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
