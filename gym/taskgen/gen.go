package taskgen

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenticrl/course/gym"
)

//go:embed evaluate.py
var evaluateScript string

// Options configures Generate. The zero value means the committed dataset's settings.
type Options struct {
	// Family picks the templates: "" or "bugfix" the 25 of datasets/bugfix, split into train,
	// dev and test; "heldout" the templates of datasets/bugfix-heldout, which share none with
	// bugfix and are split into dev and test only (see Families).
	Family     string
	Seed       uint64 // default 1
	PerKind    int    // tasks per (template, bug kind); default the family's (bugfix 2, heldout 10)
	RandomArgs int    // random inputs drawn per template besides its hand-picked ones; default 30
	Visible    int    // visible test cases per task; default 3
	Hidden     int    // hidden test cases per task (a superset of the visible ones); default 12
	DevTests   int    // bugfix: templates held out for dev, and again for test; default 4
	Python     string // interpreter used to compute expected results; default /usr/bin/python3
}

// family is a set of templates and how its tasks are made and split.
type family struct {
	templates []template
	perKind   int  // default tasks per (template, bug kind)
	heldOut   bool // no train split: half the templates (rounded up) to test, the rest to dev
}

var families = map[string]family{
	"bugfix":  {templates: templates, perKind: 2},
	"heldout": {templates: heldoutTemplates, perKind: 10, heldOut: true},
}

// Families lists the task families Generate knows, in a fixed order.
func Families() []string { return []string{"bugfix", "heldout"} }

func (o *Options) fill() (family, error) {
	if o.Family == "" {
		o.Family = "bugfix"
	}
	fam, ok := families[o.Family]
	if !ok {
		return family{}, fmt.Errorf("taskgen: unknown family %q (want one of %s)", o.Family, strings.Join(Families(), ", "))
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.PerKind <= 0 {
		o.PerKind = fam.perKind
	}
	if o.RandomArgs <= 0 {
		o.RandomArgs = 30
	}
	if o.Visible <= 0 {
		o.Visible = 3
	}
	if o.Hidden <= 0 {
		o.Hidden = 12
	}
	if o.DevTests <= 0 {
		o.DevTests = 4
	}
	if o.Python == "" {
		o.Python = "/usr/bin/python3"
	}
	return fam, nil
}

// Templates returns the names of the function templates of the bugfix family, in their fixed
// order.
func Templates() []string { return templateNames(templates) }

// HeldoutTemplates returns the names of the function templates of the heldout family, in their
// fixed order.
func HeldoutTemplates() []string { return templateNames(heldoutTemplates) }

func templateNames(tpls []template) []string {
	out := make([]string, len(tpls))
	for i, t := range tpls {
		out[i] = t.name
	}
	return out
}

// Generate builds the task family opts.Family.
func Generate(opts Options) ([]*gym.Task, error) {
	fam, err := opts.fill()
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(opts.Seed, 0x5eed))
	byTemplate := map[string][]*gym.Task{}
	var tasks []*gym.Task
	for _, tpl := range fam.templates {
		ts, err := generateTemplate(tpl, r, opts)
		if err != nil {
			return nil, fmt.Errorf("taskgen: template %s: %w", tpl.name, err)
		}
		byTemplate[tpl.name] = ts
		tasks = append(tasks, ts...)
	}
	for name, s := range assignSplits(fam, byTemplate, opts) {
		for _, t := range byTemplate[name] {
			t.Split = s
		}
	}
	return tasks, nil
}

// assignSplits gives whole templates to splits: for bugfix DevTests templates each to dev and
// test, the rest to train; for a held-out family half the templates (rounded up) to test, the
// rest to dev. Among a few hundred seeded shuffles it keeps the one under which the most
// (split, kind) pairs have a task, then the one with the most held-out tasks (the smaller of
// dev and test), so that every split shows as many kinds of bug as the templates allow.
func assignSplits(fam family, byTemplate map[string][]*gym.Task, opts Options) map[string]gym.Split {
	r := rand.New(rand.NewPCG(opts.Seed, 0x5b11))
	tpls := fam.templates
	nTest, nDev := opts.DevTests, opts.DevTests
	if fam.heldOut {
		nTest = (len(tpls) + 1) / 2
		nDev = len(tpls) - nTest
	}
	var best map[string]gym.Split
	bestScore := -1
	for range 500 {
		assign := map[string]gym.Split{}
		for i, k := range r.Perm(len(tpls)) {
			s := gym.Train
			switch {
			case i < nTest:
				s = gym.Test
			case i < nTest+nDev:
				s = gym.Dev
			}
			assign[tpls[k].name] = s
		}
		count := map[gym.Split]map[gym.Kind]int{}
		for _, s := range gym.Splits {
			count[s] = map[gym.Kind]int{}
		}
		for name, ts := range byTemplate {
			for _, t := range ts {
				count[assign[name]][t.Kind]++
				count[assign[name]][""]++
			}
		}
		cells := 0
		for _, s := range gym.Splits {
			for _, k := range gym.Kinds {
				if count[s][k] > 0 {
					cells++
				}
			}
		}
		if score := cells*10000 + min(count[gym.Dev][""], count[gym.Test][""]); score > bestScore {
			best, bestScore = assign, score
		}
	}
	return best
}

type candidate struct {
	edit  gym.MenuEdit
	buggy string
	fix   gym.MenuEdit // the menu edit of the buggy module that restores the template
}

type evalJob struct {
	Source  string   `json:"source"`
	Entry   string   `json:"entry"`
	Args    []string `json:"args"`
	Mutants []string `json:"mutants"`
}

type evalResult struct {
	Wants   []*string `json:"wants"` // repr of the correct result; nil where the template raised
	Mutants []struct {
		Bad  bool   `json:"bad"` // does not compile, or ran past the time limit
		Pass []bool `json:"pass"`
	} `json:"mutants"`
}

func generateTemplate(tpl template, r *rand.Rand, opts Options) ([]*gym.Task, error) {
	lines := gym.SplitLines(tpl.source)
	if n := len(lines); n < 5 || n > 30 {
		return nil, fmt.Errorf("%d lines, want 5 to 30", n)
	}
	// Inputs: hand-picked first, then random ones, without repeats.
	seen := map[string]bool{}
	var args []string
	for _, a := range tpl.edge {
		if !seen[a] {
			seen[a] = true
			args = append(args, a)
		}
	}
	for range opts.RandomArgs {
		if a := tpl.random(r); !seen[a] {
			seen[a] = true
			args = append(args, a)
		}
	}
	// Candidate bugs: every menu edit but guard insertions, kept when one menu edit undoes it.
	var cands []candidate
	for _, lineEdits := range gym.Menu(tpl.source) {
		for _, e := range lineEdits {
			if e.Insert != "" {
				continue
			}
			buggy := gym.JoinLines(e.Apply(lines))
			if fix, ok := undo(buggy, tpl.source); ok {
				cands = append(cands, candidate{edit: e, buggy: buggy, fix: fix})
			}
		}
	}
	job := evalJob{Source: tpl.source, Entry: tpl.entry, Args: args}
	for _, c := range cands {
		job.Mutants = append(job.Mutants, c.buggy)
	}
	res, err := evaluate(opts.Python, job)
	if err != nil {
		return nil, err
	}
	var valid []int // inputs on which the template itself returns
	for i, w := range res.Wants {
		if w != nil {
			valid = append(valid, i)
		}
	}
	byKind := map[gym.Kind][]int{}
	for ci, m := range res.Mutants {
		if m.Bad {
			continue
		}
		failing := 0
		for _, i := range valid {
			if !m.Pass[i] {
				failing++
			}
		}
		if failing >= 2 {
			byKind[cands[ci].edit.Kind] = append(byKind[cands[ci].edit.Kind], ci)
		}
	}
	var tasks []*gym.Task
	for _, kind := range gym.Kinds {
		idx := byKind[kind]
		r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for k := 0; k < len(idx) && k < opts.PerKind; k++ {
			c := cands[idx[k]]
			pass := res.Mutants[idx[k]].Pass
			var fail, ok []int
			for _, i := range valid {
				if pass[i] {
					ok = append(ok, i)
				} else {
					fail = append(fail, i)
				}
			}
			r.Shuffle(len(fail), func(i, j int) { fail[i], fail[j] = fail[j], fail[i] })
			r.Shuffle(len(ok), func(i, j int) { ok[i], ok[j] = ok[j], ok[i] })
			// Visible: one failing case, the rest passing. Hidden: the visible cases, then
			// more failing ones (at least one), then passing ones.
			visible := []int{fail[0]}
			take := min(opts.Visible-1, len(ok))
			visible = append(visible, ok[:take]...)
			ok = ok[take:]
			r.Shuffle(len(visible), func(i, j int) { visible[i], visible[j] = visible[j], visible[i] })
			hidden := append([]int(nil), visible...)
			nf := min(3, len(fail)-1)
			hidden = append(hidden, fail[1:1+nf]...)
			hidden = append(hidden, ok[:min(len(ok), opts.Hidden-len(hidden))]...)
			for _, i := range fail[1+nf:] {
				if len(hidden) >= opts.Hidden {
					break
				}
				hidden = append(hidden, i)
			}
			// Difficulty: how rarely the bug shows, over every input tried (not only the
			// ones picked for the tests).
			f := float64(len(fail)) / float64(len(valid))
			difficulty := 3
			if f >= 0.5 {
				difficulty = 1
			} else if f >= 0.2 {
				difficulty = 2
			}
			cases := func(ix []int) []gym.Case {
				out := make([]gym.Case, len(ix))
				for j, i := range ix {
					out[j] = gym.Case{Args: args[i], Want: *res.Wants[i]}
				}
				return out
			}
			t := &gym.Task{
				ID: fmt.Sprintf("%s-%s-%d", tpl.name, kind, k+1), Template: tpl.name,
				Kind: kind, Difficulty: difficulty, Module: tpl.name, Entry: tpl.entry,
				BugLine: c.fix.Line, Bug: c.edit.Op,
				VisibleCases: cases(visible), HiddenCases: cases(hidden),
				Buggy: c.buggy, Fix: tpl.source,
			}
			t.VisibleTests = gym.TestFile("Visible tests for "+t.ModuleFile()+".", t.Module, t.Entry, t.VisibleCases)
			t.HiddenTests = gym.TestFile("Hidden tests for "+t.ModuleFile()+": never shown to the agent.", t.Module, t.Entry, t.HiddenCases)
			tasks = append(tasks, t)
		}
	}
	return tasks, nil
}

// undo finds the menu edit of buggy that gives back want exactly.
func undo(buggy, want string) (gym.MenuEdit, bool) {
	bl := gym.SplitLines(buggy)
	for _, lineEdits := range gym.Menu(buggy) {
		for _, e := range lineEdits {
			if gym.JoinLines(e.Apply(bl)) == want {
				return e, true
			}
		}
	}
	return gym.MenuEdit{}, false
}

func evaluate(python string, job evalJob) (*evalResult, error) {
	in, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(python, "-I", "-S", "-c", evaluateScript)
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("evaluating with %s: %w: %s", python, err, stderr.String())
	}
	res := &evalResult{}
	if err := json.Unmarshal(out, res); err != nil {
		return nil, fmt.Errorf("evaluating: %w", err)
	}
	if len(res.Wants) != len(job.Args) || len(res.Mutants) != len(job.Mutants) {
		return nil, fmt.Errorf("evaluating: %d results for %d inputs", len(res.Wants), len(job.Args))
	}
	return res, nil
}

// ErrDifferentFamily is Write's refusal to replace a task family by a different one.
var ErrDifferentFamily = errors.New("holds a different task family")

// Write puts the tasks under dir as SPLIT/ID folders and reports whether anything changed. It
// writes them beside the split folders and swaps each split in only when every task is written,
// so a failure leaves dir as it was. It deletes nothing it did not create: a split folder that
// holds anything but task folders is refused. The same family already in dir is left untouched;
// a different one is replaced only with overwrite (the committed dataset is one).
func Write(dir string, tasks []*gym.Task, overwrite bool) (bool, error) {
	existing := 0
	for _, s := range gym.Splits {
		entries, err := os.ReadDir(filepath.Join(dir, string(s)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, err
		}
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(dir, string(s), e.Name(), gym.TaskFile)); err != nil {
				return false, fmt.Errorf("%s is not a task folder (it has no %s): move it out of %s first",
					filepath.Join(dir, string(s), e.Name()), gym.TaskFile, dir)
			}
			existing++
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	stage, err := os.MkdirTemp(dir, ".generate-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(stage)
	for _, t := range tasks {
		if err := gym.WriteTask(stage, t); err != nil {
			return false, err
		}
	}
	same := true
	for _, s := range gym.Splits {
		a, err := treeFiles(filepath.Join(stage, string(s)))
		if err != nil {
			return false, err
		}
		b, err := treeFiles(filepath.Join(dir, string(s)))
		if err != nil {
			return false, err
		}
		same = same && maps.Equal(a, b)
	}
	switch {
	case same:
		return false, nil
	case existing > 0 && !overwrite:
		return false, fmt.Errorf("%s %w (%d tasks): nothing written", dir, ErrDifferentFamily, existing)
	}
	for _, s := range gym.Splits {
		split, fresh := filepath.Join(dir, string(s)), filepath.Join(stage, string(s))
		if _, err := os.Stat(split); err == nil {
			if err := os.Rename(split, filepath.Join(stage, string(s)+".old")); err != nil {
				return false, err
			}
		}
		if _, err := os.Stat(fresh); err == nil {
			if err := os.Rename(fresh, split); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// treeFiles maps the path of every file under dir to its content (none if dir is missing).
func treeFiles(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == dir {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(b)
		return err
	})
	return files, err
}
