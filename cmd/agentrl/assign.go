package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/agenticrl/course/assign"
	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/kernel/notebook"
)

func init() {
	register(command{name: "assign", summary: "classroom assignments: release student notebooks, grade submissions", run: assignMain})
}

const assignUsage = `usage: agentrl assign release [--out DIR] [--force] chNN ...
       agentrl assign grade [--json] [--seed N] [--timeout D] [--memory MB] SUBMISSION.ipynb
       agentrl assign grade --csv FILE [--seed N] [--timeout D] [--memory MB] FOLDER

release writes each chapter's student notebook: the marked functions stubbed, the outputs that
would show the answers cleared. grade compiles a submission's marked cells with the course and
runs the hidden cases in a jail; it prints a score per exercise with the first failing case.`

func assignMain(args []string) error {
	if isHelp(args) {
		fmt.Fprintln(stderr, assignUsage)
		return flag.ErrHelp
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: a subcommand is required\n%s", errUsage, assignUsage)
	}
	switch args[0] {
	case "release":
		return assignRelease(args[1:])
	case "grade":
		return assignGrade(args[1:])
	}
	return fmt.Errorf("%w: unknown subcommand %q\n%s", errUsage, args[0], assignUsage)
}

func assignRelease(args []string) error {
	fs := flag.NewFlagSet("assign release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "assignments", "folder to write the student notebooks to (never the course's own notebooks/)")
	force := fs.Bool("force", false, "replace student notebooks that already exist in --out")
	chapters, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(chapters) == 0 {
		return fmt.Errorf("%w: name at least one chapter, e.g. ch06\n%s", errUsage, assignUsage)
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	if inside(*out, filepath.Join(root, "notebooks")) {
		return fmt.Errorf("%w: --out %s is the course's own notebooks folder, whose chapters the student versions would replace: choose another --out", errUsage, *out)
	}
	paths, err := selectNotebooks("", chapters)
	if err != nil {
		return err
	}
	// Every notebook is released, and every destination checked, before anything is written: a
	// chapter without exercises or a file in the way leaves --out as it was.
	type student struct {
		nb    *notebook.Notebook
		dst   string
		marks []assign.Marked
	}
	var all []student
	var inTheWay []string
	for _, p := range paths {
		nb, err := notebook.Read(p)
		if err != nil {
			return err
		}
		rel, err := assign.Release(nb)
		if err != nil {
			return err
		}
		marks, _ := assign.Markers(nb)
		dst := filepath.Join(*out, filepath.Base(p))
		if _, err := os.Lstat(dst); err == nil && !*force {
			inTheWay = append(inTheWay, dst)
		}
		all = append(all, student{rel, dst, marks})
	}
	if len(inTheWay) > 0 {
		return fmt.Errorf("%s already exists: pass --force to replace it, or choose another --out", strings.Join(inTheWay, ", "))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for _, s := range all {
		if err := s.nb.Write(s.dst); err != nil {
			return err
		}
		var names []string
		for _, m := range s.marks {
			names = append(names, fmt.Sprintf("%s (%g points)", m.Exercise, m.Points))
		}
		fmt.Fprintf(stderr, "%s: exercises %s\n", s.dst, strings.Join(names, ", "))
	}
	return nil
}

// inside reports whether path is dir or lies within it, following symbolic links, so that no
// spelling of the course's notebooks folder gets past the check.
func inside(path, dir string) bool {
	real := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		// The longest existing prefix, resolved; the rest as written.
		for cur, rest := abs, ""; ; {
			if r, err := filepath.EvalSymlinks(cur); err == nil {
				return filepath.Join(r, rest)
			}
			parent := filepath.Dir(cur)
			if parent == cur {
				return abs
			}
			cur, rest = parent, filepath.Join(filepath.Base(cur), rest)
		}
	}
	rel, err := filepath.Rel(real(dir), real(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// parseInterleaved parses args with the flags anywhere among the positional arguments (as in
// `assign release ch06 ch07 --out D`; Go's flag package stops at the first positional one) and
// returns the positional arguments. After "--" every argument is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageErr(err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

func assignGrade(args []string) error {
	fs := flag.NewFlagSet("assign grade", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	csvPath := fs.String("csv", "", "grade every .ipynb in the FOLDER argument and write one row per submission to this CSV file")
	seed := fs.Uint64("seed", 1, "seed of the cases' random inputs (pick one the students do not know)")
	timeout := fs.Duration("timeout", assign.DefaultLimits.Timeout, "longest one exercise of a submission may run")
	memory := fs.Int("memory", assign.DefaultLimits.MemoryMB, "address space of a submission's run, in MiB")
	fs.SetOutput(stderr)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: grade takes one submission (or, with --csv, one folder)\n%s", errUsage, assignUsage)
	}
	if err := checkBounds(bound{flag: "--memory", value: float64(*memory), lo: 256, hi: 1 << 20},
		bound{flag: "--timeout", value: timeout.Seconds(), lo: 1, hi: 3600}); err != nil {
		return err
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	opt := assign.Options{Root: root, Seed: *seed, Limits: assign.Limits{Timeout: *timeout, MemoryMB: *memory, Output: assign.DefaultLimits.Output, Procs: assign.DefaultLimits.Procs}}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *csvPath == "" {
		rep, err := assign.Grade(ctx, rest[0], opt)
		if ctx.Err() != nil {
			// An interrupted run scores what it cut short as crashed: no report at all, then.
			return fmt.Errorf("interrupted while grading %s; no report written", rest[0])
		}
		if err != nil {
			return err
		}
		if *asJSON {
			b, _ := json.MarshalIndent(rep, "", "  ")
			fmt.Println(string(b))
			return nil
		}
		printReport(rep)
		return nil
	}
	subs, err := filepath.Glob(filepath.Join(rest[0], "*.ipynb"))
	if err != nil || len(subs) == 0 {
		return fmt.Errorf("no .ipynb submissions in %s", rest[0])
	}
	sort.Strings(subs)
	var reps []*assign.Report
	var failed []string
	for i, s := range subs {
		fmt.Fprintf(stderr, "[%d/%d] %s\n", i+1, len(subs), s)
		rep, err := assign.Grade(ctx, s, opt)
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted at %s; no CSV written", s)
		}
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", s, err))
			rep = &assign.Report{Submission: s}
		}
		reps = append(reps, rep)
	}
	if err := writeCSV(*csvPath, reps, failed); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d submission(s) graded into %s\n", len(reps)-len(failed), *csvPath)
	if len(failed) > 0 {
		return fmt.Errorf("%d submission(s) could not be graded (their rows say so):\n  %s", len(failed), strings.Join(failed, "\n  "))
	}
	return nil
}

func printReport(rep *assign.Report) {
	fmt.Printf("%s: %s, seed %d\n", rep.Submission, rep.Chapter, rep.Seed)
	for _, r := range rep.Exercises {
		fmt.Printf("  %-18s %5.2f / %-4g %2d of %2d cases  %s\n", r.Exercise, r.Score, r.Points, r.Passed, r.Cases, r.Status)
		if r.Detail != "" {
			fmt.Printf("  %-18s %s\n", "", r.Detail)
		}
	}
	fmt.Printf("  %-18s %5.2f / %g\n", "total", rep.Score, rep.Points)
	if rep.Isolation != "" {
		fmt.Printf("isolation: %s\n", rep.Isolation)
	}
}

// writeCSV writes one row per submission: its file, chapter, each exercise's score (empty where
// the chapter has no such exercise), the total, the points, and what went wrong, if anything.
func writeCSV(path string, reps []*assign.Report, failed []string) error {
	var cols []string
	seen := map[string]bool{}
	for _, r := range reps {
		for _, e := range r.Exercises {
			if !seen[e.Exercise] {
				seen[e.Exercise] = true
				cols = append(cols, e.Exercise)
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(append(append([]string{"submission", "chapter"}, cols...), "total", "points", "problems"))
	errs := map[string]string{}
	for _, fl := range failed {
		file, msg, _ := strings.Cut(fl, ": ")
		errs[file] = msg
	}
	for _, r := range reps {
		row := []string{r.Submission, r.Chapter}
		score := map[string]string{}
		var notes []string
		for _, e := range r.Exercises {
			score[e.Exercise] = strconv.FormatFloat(e.Score, 'f', 2, 64)
			if e.Status != "graded" {
				notes = append(notes, e.Exercise+": "+e.Status)
			}
		}
		for _, c := range cols {
			row = append(row, score[c])
		}
		if msg, ok := errs[r.Submission]; ok {
			notes = append(notes, msg)
		}
		row = append(row, strconv.FormatFloat(r.Score, 'f', 2, 64), strconv.FormatFloat(r.Points, 'f', 2, 64), strings.Join(notes, "; "))
		w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
