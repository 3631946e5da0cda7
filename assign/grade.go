package assign

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agenticrl/course/assign/exercises"
	"github.com/agenticrl/course/kernel/library"
	"github.com/agenticrl/course/kernel/notebook"
)

// Options configure grading.
type Options struct {
	Root   string // the course checkout: its reference notebooks, library and probe
	Seed   uint64 // draws the cases' random inputs; choose one students do not know
	Limits Limits
	Work   string // where builds go, in a folder per grade removed afterwards (default Root/.cache/assign)
}

// Result is one exercise's grade.
type Result struct {
	Exercise string  `json:"exercise"`
	Title    string  `json:"title"`
	Points   float64 `json:"points"`
	Score    float64 `json:"score"`
	Passed   int     `json:"passed"`
	Cases    int     `json:"cases"`
	// Status is "graded", or why nothing or not everything was graded: "not compiled", "timed
	// out", "crashed", "too much output".
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"` // the first failing case, or the reason
}

// Report is a submission's grade.
type Report struct {
	Submission string   `json:"submission"`
	Chapter    string   `json:"chapter"`
	Seed       uint64   `json:"seed"`
	Score      float64  `json:"score"`
	Points     float64  `json:"points"`
	Exercises  []Result `json:"exercises"`
	Isolation  string   `json:"isolation"`
}

// Grade grades one submission. Its error is the grader's failure (no such chapter, a broken
// checkout) or ctx's end; whatever the submission does is reported in the Report.
func Grade(ctx context.Context, path string, opt Options) (*Report, error) {
	if opt.Limits == (Limits{}) {
		opt.Limits = DefaultLimits
	}
	if opt.Limits.Procs == 0 {
		opt.Limits.Procs = DefaultLimits.Procs
	}
	if opt.Work == "" {
		opt.Work = filepath.Join(opt.Root, ".cache", "assign")
	}
	// The build overlay names files by absolute path, and every grade builds in a folder of its
	// own that goes when it is done (a probe is tens of megabytes; a class is many submissions).
	var err error
	if opt.Root, err = filepath.Abs(opt.Root); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.Work, 0o755); err != nil {
		return nil, err
	}
	if opt.Work, err = os.MkdirTemp(opt.Work, "grade-"); err != nil {
		return nil, err
	}
	defer os.RemoveAll(opt.Work)
	sub, err := notebook.Read(path)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", path, err)
	}
	chapter := ChapterOf(sub)
	all, err := notebook.Find(filepath.Join(opt.Root, "notebooks"))
	if err != nil {
		return nil, err
	}
	refs, err := notebook.Select(all, []string{chapter})
	if chapter == "" || err != nil || len(refs) != 1 {
		return nil, fmt.Errorf("submission %s: cannot tell its chapter (name the file chNN_... or hand in a released notebook)", path)
	}
	ref, err := notebook.Read(refs[0])
	if err != nil {
		return nil, err
	}
	marks, err := Markers(ref)
	if err != nil {
		return nil, err
	}
	if len(marks) == 0 {
		return nil, fmt.Errorf("%s has no exercises", filepath.Base(refs[0]))
	}
	rep := &Report{Submission: path, Chapter: strings.TrimSuffix(filepath.Base(refs[0]), ".ipynb"), Seed: opt.Seed}
	results := make([]Result, len(marks))
	cells := make([]string, len(marks)) // the source each marked cell is built from
	for i, m := range marks {
		results[i] = Result{Exercise: m.Exercise, Title: m.Title, Points: m.Points}
		rep.Points += m.Points
		src, why := studentCell(sub, m)
		if why != "" {
			results[i].Status, results[i].Detail = "not compiled", why
			src, _ = Stub(ref.Cells[m.Cell-1].Source, m.Marker)
		}
		cells[i] = src
	}
	probe, err := buildProbe(ctx, opt, ref, marks, cells, results)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("grading %s: %w", path, context.Cause(ctx))
	}
	if err != nil {
		return nil, err
	}
	if rep.Isolation, err = runExercises(ctx, probe, marks, results, opt); err != nil {
		return nil, fmt.Errorf("grading %s: %w", path, err)
	}
	for _, r := range results {
		rep.Score += r.Score
	}
	rep.Exercises = results
	return rep, nil
}

// runExercises runs each compiled exercise's cases in the jail and judges them into results; it
// returns the jail's isolation. When ctx ends it returns ctx's cause instead: the run it killed
// was stopped for the grader's reason, not the submission's, and judged it would score as crashed.
func runExercises(ctx context.Context, probe string, marks []Marked, results []Result, opt Options) (string, error) {
	isolation := ""
	for i, m := range marks {
		if results[i].Status != "" {
			continue
		}
		key := make([]byte, 32)
		rand.Read(key)
		res, err := Jail(ctx, probe, []string{m.Exercise, strconv.FormatUint(opt.Seed, 10)}, []byte(hex.EncodeToString(key)+"\n"), opt.Limits)
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		if err != nil {
			return "", err
		}
		isolation = res.Isolation
		judge(&results[i], res, key, opt)
	}
	return isolation, nil
}

// studentCell finds the submission's version of a marked cell: the cell with the same id, else
// the //@save cell that declares the exercise's functions. It returns why it cannot be used.
func studentCell(sub *notebook.Notebook, m Marked) (string, string) {
	var src string
	found := false
	for _, c := range sub.Cells {
		if c.Type == "code" && c.ID == m.ID {
			src, found = c.Source, true
			break
		}
	}
	if !found {
		for _, c := range sub.Cells {
			if _, funcs, err := parseCell(c.Source); c.Type == "code" && err == nil && funcs[m.Functions[0]] != nil {
				src, found = c.Source, true
				break
			}
		}
	}
	if !found {
		return "", fmt.Sprintf("no cell declares %s", m.Functions[0])
	}
	if !isSaved(src) {
		src = library.Marker + "\n" + src
	}
	_, funcs, err := parseCell(src)
	if err != nil {
		return "", err.Error()
	}
	if why := forbidden(src); why != "" {
		return "", why
	}
	for _, f := range m.Functions {
		if funcs[f] == nil {
			return "", fmt.Sprintf("the cell has no function %s", f)
		}
	}
	return src, ""
}

// forbidden names what a cell may not use: unsafe and cgo (which reach past the type system to
// the probe's memory), and the compiler directives that link to other packages' symbols or
// embed files at build time.
func forbidden(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", cellPrefix+src, parser.ParseComments|parser.ImportsOnly)
	if err == nil {
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "unsafe" || p == "C" {
				return fmt.Sprintf("imports %q, which a graded cell may not", p)
			}
		}
	}
	for _, line := range strings.Split(src, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "//go:linkname") || strings.HasPrefix(l, "//go:embed") {
			return fmt.Sprintf("uses %s, which a graded cell may not", strings.Fields(l)[0])
		}
	}
	return ""
}

// compileError is a compiler error line; the overlay makes it name the generated file by its path
// in the work folder.
var compileError = regexp.MustCompile(`(?m)^(\S+\.go):(\d+):\d+: (.*)$`)

// buildProbe builds the probe against the chapter with the given marked cells. A cell whose code
// does not compile is replaced by its stub, and its result says why; the rest are built again.
func buildProbe(ctx context.Context, opt Options, ref *notebook.Notebook, marks []Marked, cells []string, results []Result) (string, error) {
	if err := os.MkdirAll(opt.Work, 0o755); err != nil {
		return "", err
	}
	for attempt := 0; ; attempt++ {
		nb := &notebook.Notebook{Metadata: ref.Metadata, NBFormat: ref.NBFormat, NBFormatMinor: ref.NBFormatMinor}
		for _, c := range ref.Cells {
			cc := *c
			nb.Cells = append(nb.Cells, &cc)
		}
		for i, m := range marks {
			nb.Cells[m.Cell-1].Source = cells[i]
		}
		tmp := filepath.Join(opt.Work, filepath.Base(ref.Path))
		if err := nb.Write(tmp); err != nil {
			return "", err
		}
		files, err := library.Build([]string{tmp}, filepath.Join(opt.Root, "agentrl"))
		if err != nil || len(files) != 1 {
			return "", fmt.Errorf("building the chapter's library file: %v", err)
		}
		gen := files[0]
		sum := sha256.Sum256(gen.Content)
		key := hex.EncodeToString(sum[:8])
		genPath := filepath.Join(opt.Work, key+"-"+gen.Name)
		// Go's build cache makes a second build of the same sources a link, so nothing else is kept.
		probe := filepath.Join(opt.Work, "probe-"+key)
		if err := os.WriteFile(genPath, gen.Content, 0o644); err != nil {
			return "", err
		}
		overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(opt.Root, "agentrl", gen.Name): genPath}})
		ovPath := filepath.Join(opt.Work, key+"-overlay.json")
		if err := os.WriteFile(ovPath, overlay, 0o644); err != nil {
			return "", err
		}
		bctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
		cmd := exec.CommandContext(bctx, "go", "build", "-overlay", ovPath, "-o", probe+".tmp", "./assign/probe")
		cmd.Dir = opt.Root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil {
			return probe, os.Rename(probe+".tmp", probe)
		}
		if attempt > 0 {
			return "", fmt.Errorf("the probe does not build even with the failing cells stubbed:\n%s", out)
		}
		blamed := blame(gen, out, marks, cells)
		if len(blamed) == 0 { // not placed in a marked function: stub every cell of the student
			for i := range marks {
				if results[i].Status == "" {
					blamed[i] = firstLine(out)
				}
			}
		}
		for i, why := range blamed {
			results[i].Status, results[i].Detail = "not compiled", why
			cells[i], _ = Stub(ref.Cells[marks[i].Cell-1].Source, marks[i].Marker)
		}
	}
}

// blame maps the compiler's errors in the generated file to the marked cells that declare the
// enclosing functions, with each cell's first error.
func blame(gen library.File, out []byte, marks []Marked, cells []string) map[int]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, gen.Name, gen.Content, 0)
	owner := map[string]int{} // function -> marked cell
	for i := range marks {
		if _, funcs, err := parseCell(cells[i]); err == nil {
			for name := range funcs {
				owner[name] = i
			}
		}
	}
	blamed := map[int]string{}
	if err != nil {
		return blamed
	}
	for _, m := range compileError.FindAllStringSubmatch(string(out), -1) {
		if base := filepath.Base(m[1]); base != gen.Name && !strings.HasSuffix(base, "-"+gen.Name) {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fset.Position(fd.Pos()).Line > line || fset.Position(fd.End()).Line < line {
				continue
			}
			if i, ok := owner[fd.Name.Name]; ok {
				if _, seen := blamed[i]; !seen {
					blamed[i] = fmt.Sprintf("does not compile: %s: %s", fd.Name.Name, m[3])
				}
			}
		}
	}
	return blamed
}

func firstLine(out []byte) string {
	if m := compileError.FindStringSubmatch(string(out)); m != nil {
		return "does not compile: " + m[3]
	}
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return "does not compile: " + l
		}
	}
	return "does not compile"
}

// judge scores one exercise from what its probe printed: the first line for each case that bears
// the run's key counts; anything else is the submission's own printing.
func judge(r *Result, res *JailResult, key []byte, opt Options) {
	e, ok := exercises.Find(r.Exercise)
	if !ok {
		r.Status, r.Detail = "crashed", "the grader has no cases for this exercise"
		return
	}
	cases := e.Cases(opt.Seed)
	r.Cases = len(cases)
	answers := map[int]json.RawMessage{}
	panics := map[int]string{}
	for _, line := range bytes.Split(res.Stdout, []byte("\n")) {
		var l exercises.Line
		if json.Unmarshal(line, &l) != nil || !hmac.Equal([]byte(l.MAC), []byte(exercises.Sign(key, l))) {
			continue
		}
		if _, seen := answers[l.Case]; seen {
			continue
		}
		if _, seen := panics[l.Case]; seen {
			continue
		}
		if l.Panic != "" {
			panics[l.Case] = l.Panic
		} else {
			answers[l.Case] = l.Out
		}
	}
	for i, c := range cases {
		var fail string
		if p, ok := panics[i]; ok {
			fail = "panicked: " + p
		} else if out, ok := answers[i]; !ok {
			fail = "no answer"
		} else if err := c.Check(out); err != nil {
			fail = err.Error()
		} else {
			r.Passed++
			continue
		}
		if r.Detail == "" {
			r.Detail = fmt.Sprintf("case %d of %d, %q: %s", i+1, len(cases), c.Name, fail)
		}
	}
	r.Status = "graded"
	switch {
	case res.TooMuch:
		r.Status, r.Passed = "too much output", 0
		r.Detail = fmt.Sprintf("printed more than %d bytes; nothing counts", opt.Limits.Output)
	case res.TimedOut:
		r.Status = "timed out"
		r.Detail = fmt.Sprintf("ran past %v; %d of %d cases answered before", opt.Limits.Timeout, len(answers)+len(panics), len(cases))
	case res.Exit != nil && len(answers)+len(panics) < len(cases):
		r.Status = "crashed"
		r.Detail = fmt.Sprintf("the run ended (%v) after %d of %d cases: %s", res.Exit, len(answers)+len(panics), len(cases), crashCause(res.Stderr))
	}
	// EAGAIN from fork or clone: the run reached the jail's process limit, which the report
	// names, since "resource temporarily unavailable" alone does not say which resource.
	if r.Status != "graded" || r.Passed < len(cases) {
		if strings.Contains(r.Detail+res.Stderr, "resource temporarily unavailable") || strings.Contains(res.Stderr, "failed to create new OS thread") {
			r.Detail += fmt.Sprintf(" (the jail allows %d processes and threads)", opt.Limits.Procs)
		}
	}
	r.Score = math.Round(r.Points*float64(r.Passed)/float64(len(cases))*100) / 100
}

// crashCause is the line of a crashed run's standard error that says why: Go's "fatal error:" or
// "panic:" line, else its last line.
func crashCause(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for _, prefix := range []string{"fatal error:", "panic:", "runtime:"} {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
	}
	return lines[len(lines)-1]
}
