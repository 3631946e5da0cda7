package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenticrl/course/assign"
	"github.com/agenticrl/course/kernel/notebook"
	"github.com/chromedp/chromedp"
)

func TestAssignBadInput(t *testing.T) {
	t.Setenv("AGENTRL_ROOT", "../..")
	checkBadInputs(t, assignMain, []badInput{
		{"no subcommand", nil, true, "a subcommand is required"},
		{"unknown subcommand", []string{"publish"}, true, `unknown subcommand "publish"`},
		{"release of nothing", []string{"release", "--out", t.TempDir()}, true, "name at least one chapter"},
		{"release of no such chapter", []string{"release", "--out", t.TempDir(), "ch99"}, true, `no notebook matches "ch99"`},
		{"release of a chapter without exercises", []string{"release", "--out", t.TempDir(), "ch00"}, false, "has no solution markers"},
		{"grade of nothing", []string{"grade"}, true, "grade takes one submission"},
		{"grade of a missing file", []string{"grade", "/no/such.ipynb"}, false, "/no/such.ipynb"},
		{"grade with too little memory", []string{"grade", "--memory", "10", "x.ipynb"}, true, "--memory 10 is out of range"},
		{"batch of an empty folder", []string{"grade", "--csv", filepath.Join(t.TempDir(), "s.csv"), t.TempDir()}, false, "no .ipynb submissions"},
	})
}

// TestAssignBatch releases Chapter 10 and grades a folder of three submissions into a CSV: the
// reference (full marks), the bare release (zero) and a file that is not a notebook (a row that
// says so, and an error after the CSV is written).
func TestAssignBatch(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Setenv("AGENTRL_ROOT", root)
	dir := t.TempDir()
	if err := assignMain([]string{"release", "--out", dir, "ch10"}); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(root, "notebooks", "ch10_kl_entropy.ipynb"), filepath.Join(dir, "ch10_alice.ipynb"))
	os.WriteFile(filepath.Join(dir, "ch10_bob.ipynb"), []byte("not json"), 0o644)
	out := filepath.Join(t.TempDir(), "scores.csv")
	err := assignMain([]string{"grade", "--csv", out, "--seed", "3", dir})
	if err == nil || !strings.Contains(err.Error(), "1 submission(s) could not be graded") {
		t.Fatalf("batch with a broken file: %v", err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range rows[1:] {
		got[filepath.Base(r[0])] = r
	}
	if h := strings.Join(rows[0], ","); h != "submission,chapter,kl-estimators,total,points,problems" {
		t.Errorf("header %s", h)
	}
	if r := got["ch10_alice.ipynb"]; r == nil || r[2] != "1.00" || r[3] != "1.00" {
		t.Errorf("reference row %v", r)
	}
	if r := got["ch10_kl_entropy.ipynb"]; r == nil || r[2] != "0.00" || r[4] != "1.00" {
		t.Errorf("bare release row %v", r)
	}
	if r := got["ch10_bob.ipynb"]; r == nil || !strings.Contains(r[5], "not a valid notebook") {
		t.Errorf("broken submission row %v", r)
	}
}

// TestJupyterOpensRelease serves a released Chapter 6 the way `make course` serves the book and
// checks that it opens, with the stub where the solution was and no recorded answer.
func TestJupyterOpensRelease(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Setenv("AGENTRL_ROOT", root)
	dir := t.TempDir()
	if err := assignMain([]string{"release", "--out", dir, "ch06"}); err != nil {
		t.Fatal(err)
	}
	j := serveJupyter(t, root, dir)
	defer j.Stop()
	ctx, requests := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(j.URL("notebooks/ch06_policy_gradients.ipynb"))); err != nil {
		t.Fatal(err)
	}
	code, err := chromedp.Run(ctx, chromedp.Poll[string](`(window.Jupyter && Jupyter.notebook && Jupyter.notebook.get_cells().length > 10) ?
  Jupyter.notebook.get_cells().map(function (c) { return c.get_text(); }).join("\n") : null`, chromedp.WithPollingTimeout(time.Minute)))
	if err != nil {
		t.Fatalf("the released notebook did not open: %v; Jupyter's log ends:\n%s", err, logTail(j.log))
	}
	if !strings.Contains(code, `panic("exercise reinforce: SoftmaxScore is not written yet")`) || strings.Contains(code, "g[action]++") {
		t.Error("the notebook Jupyter shows is not the released one")
	}
	screenshot(t, ctx, "jupyter-release.png")
	checkLocal(t, requests())
}

// release never writes into the course's own notebooks, never replaces a file without --force,
// takes its flags after the chapters as the README writes it, and a release that fails leaves no
// folder behind.
func TestAssignReleaseRefusesToOverwrite(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Setenv("AGENTRL_ROOT", root)
	old := stderr
	stderr = io.Discard
	defer func() { stderr = old }()
	chapter := filepath.Join(root, "notebooks", "ch06_policy_gradients.ipynb")
	before, err := os.ReadFile(chapter)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(root, "notebooks"), filepath.Join(root, "notebooks", "..", "notebooks", "zh"), "../../notebooks"} {
		err := assignMain([]string{"release", "--force", "--out", out, "ch06"})
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "course's own notebooks") {
			t.Errorf("release --out %s: %v, want a refusal", out, err)
		}
	}
	if after, _ := os.ReadFile(chapter); !bytes.Equal(before, after) {
		t.Fatal("release changed the course's own chapter")
	}
	dir := filepath.Join(t.TempDir(), "handout")
	if err := assignMain([]string{"release", "ch06", "ch07", "--out", dir}); err != nil {
		t.Fatalf("the README's release command: %v", err)
	}
	mine := filepath.Join(dir, "ch07_advantages.ipynb")
	os.WriteFile(mine, []byte("a student's work"), 0o644)
	if err := assignMain([]string{"release", "--out", dir, "ch06", "ch07"}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("release over existing files: %v, want a refusal naming --force", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "a student's work" {
		t.Errorf("a refused release replaced %s", mine)
	}
	if err := assignMain([]string{"release", "--out", dir, "--force", "ch07"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(mine); string(b) == "a student's work" {
		t.Errorf("--force did not replace %s", mine)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	if err := assignMain([]string{"release", "--out", fresh, "ch00"}); err == nil {
		t.Fatal("released a chapter without exercises")
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed release left %s behind", fresh)
	}
}

// jailed lists the jailed runs (the probe, as the jail starts it) whose parent is pid.
func jailed(pid int) []int {
	var found []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		cmdline, err2 := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || err2 != nil || !bytes.HasPrefix(cmdline, []byte("/probe\x00")) {
			continue
		}
		if i := bytes.LastIndexByte(stat, ')'); i > 0 {
			// After the command's name: the state, then the parent's pid.
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 && f[1] == strconv.Itoa(pid) {
				found = append(found, must(strconv.Atoi(e.Name())))
			}
		}
	}
	return found
}

// An interrupted `assign grade --json` exits non-zero and prints no report: the run it cut short
// would otherwise score as crashed.
func TestAssignGradeStopsOnInterrupt(t *testing.T) {
	root, _ := filepath.Abs("../..")
	nb, err := notebook.Read(filepath.Join(root, "notebooks", "ch10_kl_entropy.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	marks, err := assign.Markers(nb)
	if err != nil || len(marks) == 0 {
		t.Fatal(marks, err)
	}
	// The solution, correct but for a pause that keeps the jailed run going until the interrupt.
	cell := nb.Cells[marks[0].Cell-1]
	fn := "func " + marks[0].Functions[0] + "("
	i := strings.Index(cell.Source, fn)
	j := i + strings.Index(cell.Source[i:], "{\n") + 2
	cell.Source = cell.Source[:j] + "\ttime.Sleep(time.Hour)\n" + cell.Source[j:]
	if !strings.Contains(cell.Source, `"time"`) {
		cell.Source = strings.Replace(cell.Source, "import (", "import (\n\t\"time\"", 1)
	}
	sub := filepath.Join(t.TempDir(), "ch10_alice.ipynb")
	if err := nb.Write(sub); err != nil {
		t.Fatal(err)
	}
	cmd, out, tag := helper(t, []string{"AGENTRL_ROOT=" + root}, "assign", "grade", sub, "--json")
	deadline := time.Now().Add(2 * time.Minute)
	for len(jailed(cmd.Process.Pid)) == 0 {
		if time.Now().After(deadline) || strings.Contains(out.String(), "exercises") {
			t.Fatalf("no jailed run started; the command said:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	interruptWithin(t, cmd, tag, syscall.SIGINT, 5*time.Second)
	if cmd.ProcessState.ExitCode() == 0 || strings.Contains(out.String(), `"exercises"`) || !strings.Contains(out.String(), "no report") {
		t.Errorf("interrupted grade: exit %d, said:\n%s", cmd.ProcessState.ExitCode(), out)
	}
}
