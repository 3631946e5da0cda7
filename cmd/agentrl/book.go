package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/kernel/chart"
	"github.com/agenticrl/course/kernel/check"
	"github.com/agenticrl/course/kernel/execute"
	"github.com/agenticrl/course/kernel/library"
	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/spec"
)

func init() {
	register(command{name: "book", summary: "check the chapters, build the library, warm the build cache", run: bookMain})
}

var bookCommands = map[string]command{
	"check":         {name: "check", summary: "execute chapters and compare every cell's output with the recorded one", run: bookCheck},
	"build-library": {name: "build-library", summary: "collect //@save cells into agentrl/ (--check: fail if out of sync)", run: bookBuildLibrary},
	"warm":          {name: "warm", summary: "compile what notebooks import, so the first cell starts fast", run: bookWarm},
	"kernel":        {name: "kernel", summary: "register the course's Jupyter kernel for this checkout", run: bookKernel},
	"chart-library": {name: "chart-library", summary: "write the echarts file the notebooks' charts load (notebooks/lib/echarts.js)", run: bookChartLibrary},
}

func bookMain(args []string) error {
	if isHelp(args) || len(args) == 0 || bookCommands[args[0]].run == nil {
		var b strings.Builder
		b.WriteString("usage: agentrl book SUBCOMMAND [flags]\n")
		for _, n := range []string{"check", "build-library", "site", "zh", "sources", "kernel", "chart-library", "warm"} {
			if c, ok := bookCommands[n]; ok {
				fmt.Fprintf(&b, "  %-14s %s\n", n, c.summary)
			}
		}
		if isHelp(args) {
			fmt.Fprint(stderr, b.String())
			return flag.ErrHelp
		}
		what := unknownWhat(args)
		if what == "" {
			what = "a subcommand is required: "
		}
		return fmt.Errorf("%w: %s\n%s", errUsage, strings.TrimSuffix(what, ": "), b.String())
	}
	return bookCommands[args[0]].run(args[1:])
}

// defaultTasks is the BugFix task family of the checkout the command runs in, so that the
// commands find it from any folder inside the checkout (and from anywhere with $AGENTRL_ROOT);
// outside a checkout it is datasets/bugfix of the working directory.
func defaultTasks() string {
	root, err := checkout.Root()
	if err != nil {
		return filepath.Join("datasets", "bugfix")
	}
	return filepath.Join(root, "datasets", "bugfix")
}

// loadTasks loads the task family of a -tasks flag; when there is none, the error says how to
// point the command at one.
func loadTasks(dir string) ([]*gym.Task, error) {
	tasks, err := gym.LoadTasks(dir)
	if errors.Is(err, gym.ErrNoTasks) {
		return nil, fmt.Errorf("%w: pass -tasks DIR, or run inside the course's checkout (or set AGENTRL_ROOT) for its datasets/bugfix", err)
	}
	return tasks, err
}

func bookCheck(args []string) error {
	fs := flag.NewFlagSet("book check", flag.ContinueOnError)
	update := fs.Bool("update", false, "rewrite the recorded outputs with the new ones (for authors)")
	timeout := fs.Duration("timeout", 10*time.Minute, "longest any single cell may run")
	slowest := fs.Int("slowest", 3, "for each notebook, name its N slowest code cells and their seconds (0: none)")
	dir := fs.String("notebooks", "", "folder of the notebooks (default: notebooks/ of the checkout)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: agentrl book check [--update] [--timeout D] [--slowest N] [chNN ...]\n\n"+
			"Executes the chapters in order through the course's Jupyter kernel and compares each code\n"+
			"cell's output with the output recorded in the notebook. Inside \"[wall: ...]\" (wall-clock\n"+
			"measurements) nothing is compared; everything else must match exactly.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if err := checkBounds(bound{flag: "--slowest", value: float64(*slowest), lo: 0, hi: 10_000},
		bound{flag: "--timeout", value: timeout.Seconds(), lo: 0, hi: 24 * 3600, loOpen: true}); err != nil {
		return err
	}
	paths, err := selectNotebooks(*dir, fs.Args())
	if err != nil {
		return err
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := checkCellIDs(paths); err != nil {
		return err
	}
	failed := 0
	for _, path := range paths {
		start := time.Now()
		fmt.Fprintf(stderr, "%s: running...\n", path)
		executed, err := execute.Run(ctx, path, execute.Options{CellTimeout: *timeout, Root: root})
		took := time.Since(start).Round(100 * time.Millisecond)
		if executed != nil {
			printSlowest(stderr, executed, *slowest)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while running %s: its processes are stopped and the notebook is unchanged", path)
		}
		if err != nil {
			fmt.Fprintf(stderr, "FAIL %s (%v)\n  %v\n", path, took, err)
			failed++
			continue
		}
		recorded, err := notebook.Read(path)
		if err != nil {
			return err
		}
		if *update {
			if err := recordOutputs(path, recorded, executed, took); err != nil {
				return err
			}
			continue
		}
		if !compareOutputs(path, recorded, executed, took) {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d notebook(s) failed the check", failed, len(paths))
	}
	fmt.Fprintf(stderr, "book check: %d notebook(s) ok\n", len(paths))
	return nil
}

// printSlowest names the n slowest code cells of an executed notebook, before its verdict: the
// four-minute budget of a chapter's check is spent in a few cells, and these are the ones to trim.
func printSlowest(w io.Writer, executed *notebook.Notebook, n int) {
	times := execute.CellTimes(executed)
	if n == 0 || len(times) == 0 {
		return
	}
	var parts []string
	for _, c := range times[:min(n, len(times))] {
		parts = append(parts, fmt.Sprintf("cell %d (%s) %.1fs", c.Cell, c.ID, c.Seconds))
	}
	fmt.Fprintf(w, "     slowest: %s\n", strings.Join(parts, ", "))
}

// checkCellIDs refuses notebooks with a cell without an id, before minutes are spent running
// them: such a cell breaks the notebook's trust in Jupyter.
func checkCellIDs(paths []string) error {
	for _, path := range paths {
		nb, err := notebook.Read(path)
		if err != nil {
			return err
		}
		if err := nb.CheckIDs(); err != nil {
			return fmt.Errorf("%s: %w (give each cell a unique id)", path, err)
		}
	}
	return nil
}

// recordOutputs writes the executed outputs into the notebook at path where they changed
// (book check --update), and the kernel's language_info.
func recordOutputs(path string, recorded, executed *notebook.Notebook, took time.Duration) error {
	n := check.Update(recorded, executed)
	meta, err := check.UpdateLanguageInfo(recorded, executed)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if n > 0 || meta {
		if err := recorded.Write(path); err != nil {
			return err
		}
	}
	info := ""
	if meta {
		info = ", language_info recorded as the kernel reports it"
	}
	fmt.Fprintf(stderr, "ok   %s: %d cell(s) re-recorded%s (%v)\n", path, n, info, took)
	return nil
}

// compareOutputs reports whether the executed notebook's outputs and language_info match the
// recorded ones, printing each difference when they do not.
func compareOutputs(path string, recorded, executed *notebook.Notebook, took time.Duration) bool {
	ms := check.Compare(recorded, executed)
	got, want, sameInfo := check.LanguageInfo(recorded, executed)
	if len(ms) == 0 && sameInfo {
		fmt.Fprintf(stderr, "ok   %s: %d code cells match (%v)\n", path, len(recorded.CodeCells()), took)
		return true
	}
	fmt.Fprintf(stderr, "FAIL %s: %d cell(s) differ from the recorded output (%v)\n", path, len(ms), took)
	for _, m := range ms {
		fmt.Fprint(stderr, m.String())
	}
	if !sameInfo {
		fmt.Fprintf(stderr, "%s: metadata.language_info is %s, the kernel reports %s; Jupyter rewrites it when it opens the notebook and then shows it as changed (--update records the kernel's)\n",
			path, orNone(got), want)
	}
	return false
}

func selectNotebooks(dir string, prefixes []string) ([]string, error) {
	if dir == "" {
		root, err := checkout.Root()
		if err != nil {
			return nil, err
		}
		dir = filepath.Join(root, "notebooks")
	}
	all, err := notebook.Find(dir)
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no notebooks (chNN_*.ipynb, appX_*.ipynb) in %s", dir)
	}
	paths, err := notebook.Select(all, prefixes)
	if err != nil { // a chapter name that names no chapter: the call is wrong (exit 2)
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return paths, nil
}

func bookBuildLibrary(args []string) error {
	fs := flag.NewFlagSet("book build-library", flag.ContinueOnError)
	checkOnly := fs.Bool("check", false, "change nothing; fail if agentrl/ is out of sync with the notebooks")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: build-library takes no arguments (it always builds from every notebook)", errUsage)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	paths, err := notebook.Find(filepath.Join(root, "notebooks"))
	if err != nil {
		return err
	}
	libDir := filepath.Join(root, "agentrl")
	files, err := library.Build(paths, libDir)
	if err != nil {
		return err
	}
	if *checkOnly {
		problems, err := library.Diff(files, libDir)
		if err != nil {
			return err
		}
		for _, p := range problems {
			fmt.Fprintln(stderr, p)
		}
		if len(problems) > 0 {
			return fmt.Errorf("agentrl/ is out of sync with the notebooks: run `agentrl book build-library`")
		}
		fmt.Fprintf(stderr, "build-library: agentrl/ is in sync (%d generated file(s))\n", len(files))
		return nil
	}
	changed, err := library.Write(files, libDir)
	for _, c := range changed {
		fmt.Fprintln(stderr, "wrote", c)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "build-library: %d generated file(s), %d changed\n", len(files), len(changed))
	return nil
}

// warmImports are what the chapters import: compiling them once here, with the kernel's toolchain
// and flags, fills the build cache the kernel then hits.
var warmImports = []string{
	"github.com/agenticrl/course/agentrl",
	"github.com/janpfeifer/gonb/gonbui",
	"github.com/gomlx/gomlx/core/graph",
	"github.com/gomlx/gomlx/ml/model",
	"github.com/gomlx/compute/gobackend",
	"github.com/go-echarts/go-echarts/v2/charts",
	"github.com/go-echarts/go-echarts/v2/opts",
}

func bookWarm(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: warm takes no arguments", errUsage)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "gonb_warm")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The same module set-up as kernel/go.sh gives each notebook.
	gomod := "module gonb_warm\n\ngo 1.27.3\n\nrequire github.com/agenticrl/course v0.0.0\n\nreplace github.com/agenticrl/course => " + root + "\n"
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n")
	for _, p := range warmImports {
		fmt.Fprintf(&main, "\t_ %q\n", p)
	}
	main.WriteString(")\n\nfunc main() {}\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	for name, content := range map[string]string{"go.mod": gomod, "main.go": main.String(), "go.sum": string(sum)} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	start := time.Now()
	for _, argv := range [][]string{{"go", "get"}, {"go", "build", "-o", filepath.Join(tmp, "warm"), "."}} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOPROXY=off") // everything is pinned: nothing to fetch
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	fmt.Fprintf(stderr, "warm: build cache ready (%v)\n", time.Since(start).Round(time.Second))
	return nil
}

func bookKernel(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: kernel takes no arguments", errUsage)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	path, err := spec.Install(root, spec.UserDataDir())
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "kernel: %s (checkout %s)\n", path, root)
	return nil
}

// bookChartLibrary writes the one copy of echarts that the charts of the notebooks load, next
// to them, so that they draw in Jupyter and in HTML exported beside the notebooks.
func bookChartLibrary(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: chart-library takes no arguments", errUsage)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	path, err := chart.WriteLibrary(filepath.Join(root, "notebooks"), chart.CheckoutECharts(root))
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "chart library: %s\n", path)
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}
