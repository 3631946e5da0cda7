package taskgen

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/agenticrl/course/gym"
)

// TestReproducesCommitted regenerates the task family with the default seed and compares it,
// file by file, with the committed dataset.
func TestReproducesCommitted(t *testing.T) {
	got, err := Generate(Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := gym.LoadTasks("../../datasets/bugfix")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*gym.Task{}
	for _, w := range want {
		byID[w.ID] = w
	}
	if len(got) != len(want) {
		t.Fatalf("generated %d tasks, %d committed: run `agentrl gym generate`", len(got), len(want))
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

// TestTemplatesAreSound checks the template set itself: enough templates, module names that
// cannot shadow the standard library, and sizes within 5 to 30 lines.
func TestTemplatesAreSound(t *testing.T) {
	if len(templates) < 10 {
		t.Fatalf("%d templates, want at least 10", len(templates))
	}
	out, err := exec.Command("/usr/bin/python3", "-c", "import sys; print(' '.join(sys.stdlib_module_names))").Output()
	if err != nil {
		t.Fatalf("/usr/bin/python3: %v (missing: run `make setup`)", err)
	}
	stdlib := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		stdlib[m] = true
	}
	seen := map[string]bool{}
	for _, tpl := range templates {
		if stdlib[tpl.name] || seen[tpl.name] {
			t.Errorf("template name %q is taken", tpl.name)
		}
		seen[tpl.name] = true
		if n := len(gym.SplitLines(tpl.source)); n < 5 || n > 30 {
			t.Errorf("%s: %d lines", tpl.name, n)
		}
	}
}
