package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

// Changing one character of a recorded output in chapter 0 makes `agentrl book check ch00` fail
// with a diff that names the notebook and the cell.
func TestBookCheckCatchesOneChangedCharacter(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGENTRL_ROOT", root)
	nb, err := notebook.Read(filepath.Join(root, "notebooks", "ch00_notation.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	cell := -1
	for i, c := range nb.Cells {
		if c.Type == "code" && len(c.Outputs) > 0 && strings.HasPrefix(c.Outputs[0].Text, "γ = 0.90") {
			c.Outputs[0].Text = strings.Replace(c.Outputs[0].Text, "γ^30 = 0.042", "γ^30 = 0.043", 1)
			cell = i + 1
		}
	}
	if cell < 0 {
		t.Fatal("chapter 0 no longer prints the discount table this test edits")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "ch00_notation.ipynb")
	if err := nb.Write(path); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	stderr = &buf
	defer func() { stderr = os.Stderr }()
	err = bookCheck([]string{"--notebooks", dir, "ch00"})
	if err == nil {
		t.Fatalf("book check passed on a tampered output:\n%s", buf.String())
	}
	report := buf.String()
	for _, want := range []string{
		"FAIL " + path,
		path + ": cell " + strconv.Itoa(cell) + " (\"import (\"): stdout differs at line 1",
		"  - γ = 0.90: Σ γ^k over 2000 steps =  10.000, 1/(1-γ) =  10.000, γ^30 = 0.043",
		"  + γ = 0.90: Σ γ^k over 2000 steps =  10.000, 1/(1-γ) =  10.000, γ^30 = 0.042",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}
