package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestAssignBadInput(t *testing.T) {
	t.Setenv("AGENTRL_ROOT", "../..")
	checkBadInputs(t, assignMain, []badInput{
		{"no subcommand", nil, true, "a subcommand is required"},
		{"unknown subcommand", []string{"publish"}, true, `unknown subcommand "publish"`},
		{"release of nothing", []string{"release", "--out", t.TempDir()}, true, "name at least one chapter"},
		{"release of no such chapter", []string{"release", "--out", t.TempDir(), "ch99"}, false, `no notebook matches "ch99"`},
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
