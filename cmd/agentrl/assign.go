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

const assignUsage = `usage: agentrl assign release [--out DIR] chNN ...
       agentrl assign grade [--json] [--seed N] [--timeout D] [--memory MB] SUBMISSION.ipynb
       agentrl assign grade --csv FILE [--seed N] [--timeout D] [--memory MB] FOLDER

release writes each chapter's student notebook: the marked functions stubbed, the outputs that
would show the answers cleared. grade compiles a submission's marked cells with the course and
runs the hidden cases in a jail; it prints a score per exercise with the first failing case.`

func assignMain(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
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
	out := fs.String("out", "assignments", "folder to write the student notebooks to")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: name at least one chapter, e.g. ch06\n%s", errUsage, assignUsage)
	}
	paths, err := selectNotebooks("", fs.Args())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
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
		if err := rel.Write(dst); err != nil {
			return err
		}
		var names []string
		for _, m := range marks {
			names = append(names, fmt.Sprintf("%s (%g points)", m.Exercise, m.Points))
		}
		fmt.Fprintf(stderr, "%s: exercises %s\n", dst, strings.Join(names, ", "))
	}
	return nil
}

func assignGrade(args []string) error {
	fs := flag.NewFlagSet("assign grade", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	csvPath := fs.String("csv", "", "grade every .ipynb in the FOLDER argument and write one row per submission to this CSV file")
	seed := fs.Uint64("seed", 1, "seed of the cases' random inputs (pick one the students do not know)")
	timeout := fs.Duration("timeout", assign.DefaultLimits.Timeout, "longest one exercise of a submission may run")
	memory := fs.Int("memory", assign.DefaultLimits.MemoryMB, "address space of a submission's run, in MiB")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 1 {
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
	opt := assign.Options{Root: root, Seed: *seed, Limits: assign.Limits{Timeout: *timeout, MemoryMB: *memory, Output: assign.DefaultLimits.Output}}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *csvPath == "" {
		rep, err := assign.Grade(ctx, fs.Arg(0), opt)
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
	subs, err := filepath.Glob(filepath.Join(fs.Arg(0), "*.ipynb"))
	if err != nil || len(subs) == 0 {
		return fmt.Errorf("no .ipynb submissions in %s", fs.Arg(0))
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
