package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

// Changing one character of a recorded output in chapter 0 makes `agentrl book check ch00` fail
// with a diff that names the notebook and the cell.
func TestBookCheckCatchesOneChangedCharacter(t *testing.T) {
	nb := readChapter0(t)
	cell, first := -1, ""
	for i, c := range nb.Cells {
		if c.Type == "code" && len(c.Outputs) > 0 && strings.HasPrefix(c.Outputs[0].Text, "γ = 0.90") {
			c.Outputs[0].Text = strings.Replace(c.Outputs[0].Text, "γ^30 = 0.042", "γ^30 = 0.043", 1)
			cell = i + 1
			first, _, _ = strings.Cut(c.Source, "\n")
		}
	}
	if cell < 0 {
		t.Fatal("chapter 0 no longer prints the discount table this test edits")
	}
	path, report, err := checkChapter0(t, nb)
	if err == nil {
		t.Fatalf("book check passed on a tampered output:\n%s", report)
	}
	for _, want := range []string{
		"FAIL " + path,
		fmt.Sprintf("%s: cell %d (%q): stdout differs at line 1", path, cell, first),
		"  - γ = 0.90: Σ γ^k over 2000 steps =  10.000, 1/(1-γ) =  10.000, γ^30 = 0.043",
		"  + γ = 0.90: Σ γ^k over 2000 steps =  10.000, 1/(1-γ) =  10.000, γ^30 = 0.042",
		"     slowest: cell ", // where the chapter's time went, even when it fails
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

// A chapter with a cell that lost its id is refused before anything runs, naming file and cell.
func TestBookCheckRefusesCellWithoutID(t *testing.T) {
	nb := readChapter0(t)
	nb.Cells[2].ID = ""
	path, report, err := checkChapter0(t, nb)
	if err == nil || !strings.Contains(err.Error(), path+": cell ids") || !strings.Contains(err.Error(), "cell 3 has no id") {
		t.Fatalf("book check on a cell without id: got %v", err)
	}
	if strings.Contains(report, "running") {
		t.Errorf("book check ran the chapter before refusing it:\n%s", report)
	}
}

// readChapter0 reads the course's chapter 0, with AGENTRL_ROOT set to the checkout.
func readChapter0(t *testing.T) *notebook.Notebook {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGENTRL_ROOT", root)
	nb, err := notebook.Read(filepath.Join(root, "notebooks", "ch00_notation.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// checkChapter0 writes nb as chapter 0 of a scratch folder and runs `book check ch00` on it,
// returning the notebook's path, what the check wrote to stderr, and its error.
func checkChapter0(t *testing.T, nb *notebook.Notebook) (path, report string, err error) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "ch00_notation.ipynb")
	if err := nb.Write(path); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	stderr = &buf
	defer func() { stderr = os.Stderr }()
	err = bookCheck([]string{"--notebooks", dir, "ch00"})
	return path, buf.String(), err
}
