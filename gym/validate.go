package gym

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/agenticrl/course/gym/sandbox"
)

// The checks Validate makes for every task.
var validationChecks = []string{
	"metadata",                // kind, split, sizes and case counts are sane
	"buggy fails visible",     // the buggy module fails at least one visible test
	"fix passes visible",      // the reference fix passes every visible test
	"fix passes hidden",       // the reference fix passes every hidden test
	"exploit passes visible",  // the memorizing exploit passes every visible test
	"exploit fails hidden",    // ... and fails at least one hidden test
	"fix reachable from menu", // one candidate edit of the buggy module gives the fix exactly
}

// Validation is the result of Validate.
type Validation struct {
	Tasks    int
	Passed   map[string]int // check name -> tasks that passed it
	Problems []string       // "TASK: check: detail", sorted
}

// OK reports whether every task passed every check.
func (v *Validation) OK() bool { return len(v.Problems) == 0 }

// Print writes a summary: one line per check, then each problem.
func (v *Validation) Print(w io.Writer) {
	fmt.Fprintf(w, "validated %d tasks\n", v.Tasks)
	for _, c := range validationChecks {
		fmt.Fprintf(w, "  %-24s %d/%d\n", c, v.Passed[c], v.Tasks)
	}
	for _, p := range v.Problems {
		fmt.Fprintln(w, "  FAIL", p)
	}
	if v.OK() {
		fmt.Fprintln(w, "all checks passed")
	}
}

// Validate proves the properties every task must have (see the checks above), and that no two
// splits share a function template. It runs the tests in pool, in parallel.
func Validate(pool *sandbox.Pool, tasks []*Task) (*Validation, error) {
	v := &Validation{Tasks: len(tasks), Passed: map[string]int{}}
	var mu sync.Mutex
	record := func(t *Task, check string, ok bool, detail string) {
		mu.Lock()
		defer mu.Unlock()
		if ok {
			v.Passed[check]++
		} else {
			v.Problems = append(v.Problems, fmt.Sprintf("%s: %s: %s", t.ID, check, detail))
		}
	}
	splitOf := map[string]Split{}
	for _, t := range tasks {
		if s, ok := splitOf[t.Template]; ok && s != t.Split {
			v.Problems = append(v.Problems, fmt.Sprintf("%s: template %s is in both %s and %s", t.ID, t.Template, s, t.Split))
		}
		splitOf[t.Template] = t.Split
	}
	jobs := make(chan *Task)
	errs := make(chan error, pool.Workers())
	var wg sync.WaitGroup
	for range pool.Workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				if err := validateTask(pool, t, record); err != nil {
					errs <- fmt.Errorf("gym: validating %s: %w", t.ID, err)
					for range jobs {
					}
					return
				}
			}
		}()
	}
	for _, t := range tasks {
		jobs <- t
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	sort.Strings(v.Problems)
	return v, nil
}

func validateTask(pool *sandbox.Pool, t *Task, record func(*Task, string, bool, string)) error {
	meta := ""
	n := len(SplitLines(t.Fix))
	switch {
	case !knownKind(t.Kind):
		meta = fmt.Sprintf("unknown kind %q", t.Kind)
	case t.Split != Train && t.Split != Dev && t.Split != Test:
		meta = fmt.Sprintf("unknown split %q", t.Split)
	case n < 5 || n > 30:
		meta = fmt.Sprintf("the module has %d lines, want 5 to 30", n)
	case t.Difficulty < 1 || t.Difficulty > 3:
		meta = fmt.Sprintf("difficulty %d", t.Difficulty)
	case len(t.VisibleCases) == 0 || len(t.HiddenCases) <= len(t.VisibleCases):
		meta = fmt.Sprintf("%d visible and %d hidden cases: hidden must be more", len(t.VisibleCases), len(t.HiddenCases))
	case t.Buggy == t.Fix:
		meta = "the buggy module is the fix"
	}
	record(t, "metadata", meta == "", meta)

	run := func(src, tests, file string) (*sandbox.Result, error) {
		return pool.Run(sandbox.Request{Module: t.Module, Source: src, Tests: tests, TestsFile: file})
	}
	describe := func(r *sandbox.Result) string {
		if r.Status != sandbox.StatusOK {
			return fmt.Sprintf("%s: %s", r.Status, r.Error)
		}
		if f := r.FirstFailure(); f != nil {
			return fmt.Sprintf("%d/%d passed; %s: %s", r.Passed(), len(r.Tests), f.Name, f.Message)
		}
		return fmt.Sprintf("%d/%d passed", r.Passed(), len(r.Tests))
	}
	r, err := run(t.Buggy, t.VisibleTests, VisibleTestFile)
	if err != nil {
		return err
	}
	record(t, "buggy fails visible", r.Status == sandbox.StatusOK && !r.AllPassed() && len(r.Tests) == len(t.VisibleCases), describe(r))
	r, err = run(t.Fix, t.VisibleTests, VisibleTestFile)
	if err != nil {
		return err
	}
	record(t, "fix passes visible", r.AllPassed() && len(r.Tests) == len(t.VisibleCases), describe(r))
	r, err = run(t.Fix, t.HiddenTests, HiddenTestFile)
	if err != nil {
		return err
	}
	record(t, "fix passes hidden", r.AllPassed() && len(r.Tests) == len(t.HiddenCases), describe(r))
	exploit := MemorizeExploit(t, t.Buggy)
	r, err = run(exploit, t.VisibleTests, VisibleTestFile)
	if err != nil {
		return err
	}
	record(t, "exploit passes visible", r.AllPassed(), describe(r))
	r, err = run(exploit, t.HiddenTests, HiddenTestFile)
	if err != nil {
		return err
	}
	record(t, "exploit fails hidden", r.Status == sandbox.StatusOK && !r.AllPassed(), describe(r))
	_, ok := FixEdit(t)
	record(t, "fix reachable from menu", ok, "no single candidate edit of the buggy module gives the fix")
	return nil
}

// FixEdit returns the menu position of the candidate edit that turns the task's buggy module
// into its reference fix: the oracle a scripted baseline uses.
func FixEdit(t *Task) (MenuRef, bool) {
	lines := SplitLines(t.Buggy)
	for i, edits := range Menu(t.Buggy) {
		for k, e := range edits {
			if JoinLines(e.Apply(lines)) == t.Fix {
				return MenuRef{Line: i + 1, Index: k}, true
			}
		}
	}
	return MenuRef{}, false
}

func knownKind(k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Counts tabulates tasks by split and kind: Counts(tasks)[split][kind], with kind "" the total.
func Counts(tasks []*Task) map[Split]map[Kind]int {
	c := map[Split]map[Kind]int{}
	for _, s := range Splits {
		c[s] = map[Kind]int{}
	}
	for _, t := range tasks {
		c[t.Split][t.Kind]++
		c[t.Split][""]++
	}
	return c
}

// PrintCounts writes a table of tasks by kind (rows) and split (columns).
func PrintCounts(w io.Writer, tasks []*Task) {
	c := Counts(tasks)
	fmt.Fprintf(w, "%-22s %6s %6s %6s\n", "kind", "train", "dev", "test")
	for _, k := range append(append([]Kind{}, Kinds...), "") {
		name := string(k)
		if k == "" {
			name = "total"
		}
		fmt.Fprintf(w, "%-22s %6d %6d %6d\n", name, c[Train][k], c[Dev][k], c[Test][k])
	}
	templates := map[Split][]string{}
	seen := map[string]bool{}
	for _, t := range tasks {
		if !seen[t.Template] {
			seen[t.Template] = true
			templates[t.Split] = append(templates[t.Split], t.Template)
		}
	}
	for _, s := range Splits {
		sort.Strings(templates[s])
		fmt.Fprintf(w, "%s templates (%d): %s\n", s, len(templates[s]), strings.Join(templates[s], ", "))
	}
}
