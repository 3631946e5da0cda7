package taskgen

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/gym"
)

// TestReproducesCommitted regenerates the task family with the default seed and compares it,
// file by file, with the committed dataset.
func TestReproducesCommitted(t *testing.T) {
	reproduces(t, Options{}, "../../datasets/bugfix", "agentrl gym generate")
}

// reproduces generates the family of opts and compares it, file by file, with the one committed
// under dir; regenerate says how to rewrite that folder.
func reproduces(t *testing.T, opts Options, dir, regenerate string) {
	t.Helper()
	got, err := Generate(opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gym.LoadTasks(dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*gym.Task{}
	for _, w := range want {
		byID[w.ID] = w
	}
	if len(got) != len(want) {
		t.Fatalf("generated %d tasks, %d committed: run `%s`", len(got), len(want), regenerate)
	}
	for _, g := range got {
		w := byID[g.ID]
		switch {
		case w == nil:
			t.Errorf("%s: generated but not committed", g.ID)
		case g.Buggy != w.Buggy || g.Fix != w.Fix || g.VisibleTests != w.VisibleTests || g.HiddenTests != w.HiddenTests:
			t.Errorf("%s: files differ from the committed ones", g.ID)
		case g.Split != w.Split || g.Kind != w.Kind || g.Difficulty != w.Difficulty || g.BugLine != w.BugLine || g.Bug != w.Bug:
			t.Errorf("%s: metadata differs from the committed one", g.ID)
		}
	}
}

// TestTemplatesAreSound checks the template sets themselves: enough templates, module names
// that cannot shadow the standard library or each other (across both families), and sizes
// within 5 to 30 lines.
func TestTemplatesAreSound(t *testing.T) {
	if len(templates) < 10 {
		t.Fatalf("%d templates, want at least 10", len(templates))
	}
	stdlib := stdlibModules(t)
	seen := map[string]bool{}
	for _, tpl := range append(append([]template{}, templates...), heldoutTemplates...) {
		if stdlib[tpl.name] || seen[tpl.name] {
			t.Errorf("template name %q is taken", tpl.name)
		}
		seen[tpl.name] = true
		if n := len(gym.SplitLines(tpl.source)); n < 5 || n > 30 {
			t.Errorf("%s: %d lines", tpl.name, n)
		}
	}
}

func stdlibModules(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command("/usr/bin/python3", "-c", "import sys; print(' '.join(sys.stdlib_module_names))").Output()
	if err != nil {
		t.Fatalf("/usr/bin/python3: %v (missing: run `make setup`)", err)
	}
	stdlib := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		stdlib[m] = true
	}
	return stdlib
}

// fakeTasks is a small family for Write: one task per split, its module text set by tag.
func fakeTasks(tag string) []*gym.Task {
	var tasks []*gym.Task
	for _, s := range gym.Splits {
		tasks = append(tasks, &gym.Task{ID: "t-" + string(s), Split: s, Module: "m", Entry: "f",
			Buggy: "def f(): return 1  # " + tag + "\n", Fix: "def f(): return 2\n",
			VisibleTests: "pass\n", HiddenTests: "pass\n"})
	}
	return tasks
}

// Write replaces only a task family, only the same one without being told, and never deletes
// what it did not write.
func TestWriteGuardsTheDataset(t *testing.T) {
	dir := t.TempDir()
	if changed, err := Write(dir, fakeTasks("a"), false); err != nil || !changed {
		t.Fatalf("first write: %v, %v", changed, err)
	}
	module := filepath.Join(dir, "train", "t-train", "m.py")
	if changed, err := Write(dir, fakeTasks("a"), false); err != nil || changed {
		t.Errorf("the same family again: changed %v, %v", changed, err)
	}
	if _, err := Write(dir, fakeTasks("b"), false); !errors.Is(err, ErrDifferentFamily) {
		t.Errorf("a different family without overwrite: %v", err)
	}
	if b, _ := os.ReadFile(module); !strings.Contains(string(b), "# a") {
		t.Error("a refused write changed the dataset")
	}
	stray := filepath.Join(dir, "dev", "notes")
	if err := os.MkdirAll(stray, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, fakeTasks("b"), true); err == nil || !strings.Contains(err.Error(), stray+" is not a task folder") {
		t.Errorf("a folder that is not a task: %v", err)
	}
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	if changed, err := Write(dir, fakeTasks("b"), true); err != nil || !changed {
		t.Fatalf("overwrite: %v, %v", changed, err)
	}
	if b, _ := os.ReadFile(module); !strings.Contains(string(b), "# b") {
		t.Error("overwrite did not replace the family")
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "dev test train" {
		t.Errorf("dir holds %v after the writes", names)
	}
}
