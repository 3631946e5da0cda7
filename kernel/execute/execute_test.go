package execute

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/kernel/notebook"
)

// root is the checkout: these tests run notebooks through its real kernel.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r, ".cache", "bin", "gonb")); err != nil {
		t.Fatalf("GoNB is missing (%v): run `make setup`", err)
	}
	if err := exec.Command(Python, "-c", "import nbclient, nbformat").Run(); err != nil {
		t.Fatalf("Jupyter's nbclient is missing (%v): run `make setup`", err)
	}
	return r
}

func write(t *testing.T, cells ...string) string {
	t.Helper()
	nb := &notebook.Notebook{NBFormat: 4, NBFormatMinor: 5}
	for _, src := range cells {
		nb.Cells = append(nb.Cells, &notebook.Cell{Type: "code", Source: src})
	}
	path := filepath.Join(t.TempDir(), "ch99_tampered.ipynb")
	if err := nb.Write(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// tag marks every process a test starts (the variable is inherited by the kernel and all it
// starts), so the test can prove none is left behind.
func tag(t *testing.T) []byte {
	v := "AGENTRL_TEST_TAG=" + strings.ReplaceAll(t.Name(), "/", "_") + newMarker()
	k, val, _ := strings.Cut(v, "=")
	t.Setenv(k, val)
	return []byte(v + "\x00")
}

func assertNoLeftovers(t *testing.T, needle []byte) {
	t.Helper()
	if pids := markedProcesses(needle); len(pids) > 0 {
		t.Errorf("processes left behind: %v", pids)
	}
}

func TestRunPrintsAndReturnsOutputs(t *testing.T) {
	r := root(t)
	needle := tag(t)
	// The second cell imports the course's library with no set-up cell: the kernel resolves it
	// to this checkout.
	path := write(t, `import "fmt"`+"\n%%\nfmt.Println(\"hello\")",
		"import \"github.com/agenticrl/course/agentrl\"\n%%\nfmt.Println(\"second\", agentrl.Wall(0))")
	nb, err := Run(context.Background(), path, Options{Root: r, CellTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if got := nb.Cells[0].Outputs[0].Text + nb.Cells[1].Outputs[0].Text; got != "hello\nsecond [wall: 0s]\n" {
		t.Errorf("outputs = %q", got)
	}
	// The runner timed both cells: each ran for a positive time, within its limit.
	times := CellTimes(nb)
	if len(times) != 2 {
		t.Fatalf("CellTimes = %+v, want both cells", times)
	}
	for _, c := range times {
		if c.Seconds <= 0 || c.Seconds > 120 {
			t.Errorf("cell %d ran %.3f s, want a time within (0, 120]", c.Cell, c.Seconds)
		}
	}
	// The kernel's own language_info is recorded, as Jupyter records it when it opens a notebook.
	var info struct{ Name, Version string }
	if err := json.Unmarshal(nb.Meta("language_info"), &info); err != nil || info.Name != "go" || !strings.HasPrefix(info.Version, "go1.") {
		t.Errorf("language_info = %s (%v), want the kernel's, named go with its Go version", nb.Meta("language_info"), err)
	}
	assertNoLeftovers(t, needle)
}

// TestRunsHaveTheirOwnTempDir checks that two runs of the same notebook at once see different
// temporary folders, each removed afterwards: chapters pass files between cells through
// os.TempDir, and a concurrent run must not overwrite them.
func TestRunsHaveTheirOwnTempDir(t *testing.T) {
	r := root(t)
	path := write(t, "import (\"fmt\"; \"os\")\n%%\nfmt.Println(os.TempDir())")
	var dirs [2]string
	errs := make(chan error, 2)
	for i := range dirs {
		go func() {
			nb, err := Run(context.Background(), path, Options{Root: r, CellTimeout: 2 * time.Minute})
			if err == nil {
				dirs[i] = strings.TrimSpace(nb.Cells[0].Outputs[0].Text)
			}
			errs <- err
		}()
	}
	for range dirs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if dirs[0] == dirs[1] || dirs[0] == os.TempDir() || dirs[1] == os.TempDir() {
		t.Fatalf("temporary folders %q and %q, the test's own is %q", dirs[0], dirs[1], os.TempDir())
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s outlived its run (%v)", d, err)
		}
	}
}

func TestMalformedNotebook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ch99_broken.ipynb")
	os.WriteFile(path, []byte(`{"cells": [{"cell_type": "code",`), 0o644)
	_, err := Run(context.Background(), path, Options{})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "malformed JSON") {
		t.Fatalf("err = %v, want one naming the file and saying malformed JSON", err)
	}
}

func TestPanickingCell(t *testing.T) {
	r := root(t)
	needle := tag(t)
	path := write(t, "%%\nfmt.Println(\"before\")", "%%\npanic(\"boom in cell two\")", "%%\nfmt.Println(\"never\")")
	nb, err := Run(context.Background(), path, Options{Root: r, CellTimeout: 2 * time.Minute})
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *CellError", err)
	}
	if ce.Cell != 2 || ce.Kind != "error" || !strings.Contains(ce.Message, "boom in cell two") || ce.Notebook != path {
		t.Errorf("CellError = %+v", ce)
	}
	if !strings.Contains(err.Error(), "cell 2") {
		t.Errorf("message does not name the cell: %v", err)
	}
	if nb == nil || len(nb.Cells[0].Outputs) == 0 || nb.Cells[0].Outputs[0].Text != "before\n" || len(nb.Cells[2].Outputs) != 0 {
		t.Errorf("executed notebook = %+v", nb)
	}
	assertNoLeftovers(t, needle)
}

func TestCellThatNeverEnds(t *testing.T) {
	r := root(t)
	needle := tag(t)
	path := write(t, "%%\nfmt.Println(\"ok\")", "%%\nfor {\n}")
	start := time.Now()
	_, err := Run(context.Background(), path, Options{Root: r, CellTimeout: 20 * time.Second})
	took := time.Since(start)
	var ce *CellError
	if !errors.As(err, &ce) || ce.Kind != "timeout" || ce.Cell != 2 {
		t.Fatalf("err = %v, want a timeout at cell 2", err)
	}
	// Start-up, the first cell's build and the 20 s budget: well under a minute and a half.
	if took > 90*time.Second {
		t.Errorf("took %v to report a 20 s timeout", took)
	}
	assertNoLeftovers(t, needle)
}
