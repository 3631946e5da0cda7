package notebook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A notebook written by Jupyter's own nbformat must come back byte for byte: the checker rewrites
// notebooks, and must not reformat what it does not change.
func TestRoundTripMatchesJupyter(t *testing.T) {
	want, err := os.ReadFile("testdata/roundtrip.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d: got %q, want %q", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("lengths differ: %d vs %d lines", len(gl), len(wl))
	}
}

func TestParseContent(t *testing.T) {
	nb, err := Read("testdata/roundtrip.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(nb.Cells); got != 4 {
		t.Fatalf("cells = %d, want 4", got)
	}
	c := nb.Cells[1]
	if c.Type != "code" || c.Source != "%%\nfmt.Println(\"héllo\")\n" || *c.ExecutionCount != 1 {
		t.Errorf("code cell = %+v", c)
	}
	if got := c.Outputs[0].Text; got != "héllo\nsecond line\n" {
		t.Errorf("stream text = %q", got)
	}
	if got := c.Outputs[2].DataText("text/html"); got != "<div id=\"a\">x</div>\n<script>1</script>" {
		t.Errorf("html = %q", got)
	}
	if got := nb.Cells[3].Outputs[0]; got.Type != "error" || got.EName != "panic" || len(got.Traceback) != 2 {
		t.Errorf("error output = %+v", got)
	}
	if got := nb.CodeCells(); len(got) != 3 || got[0] != 1 {
		t.Errorf("CodeCells = %v", got)
	}
}

func TestReadErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"broken.ipynb":    `{"cells": [`,
		"nbformat3.ipynb": `{"cells": [], "metadata": {}, "nbformat": 3, "nbformat_minor": 0}`,
		"badcell.ipynb":   `{"cells": [{"cell_type": "weird", "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`,
	}
	for name, content := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v does not name the file", name, err)
		}
	}
}

func TestWriteKeepsModeAndIsAtomic(t *testing.T) {
	nb, err := Read("testdata/roundtrip.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ch01_x.ipynb")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	nb.Cells[1].Outputs[0].Text = "changed\n"
	if err := nb.Write(path); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", st.Mode().Perm())
	}
	back, err := Read(path)
	if err != nil || back.Cells[1].Outputs[0].Text != "changed\n" {
		t.Fatalf("read back: %v, %+v", err, back)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestFindAndSelect(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"appB_review.ipynb", "ch10_kl.ipynb", "ch00_notation.ipynb", "appA_math.ipynb",
		"ch02_rl.ipynb", "scratch.ipynb", "ch03_notes.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	want := "ch00_notation.ipynb ch02_rl.ipynb ch10_kl.ipynb appA_math.ipynb appB_review.ipynb"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Find order = %s, want %s", got, want)
	}
	sel, err := Select(paths, []string{"ch10", "ch00"})
	if err != nil || len(sel) != 2 || filepath.Base(sel[0]) != "ch00_notation.ipynb" {
		t.Errorf("Select = %v, %v (want reading order ch00, ch10)", sel, err)
	}
	if _, err := Select(paths, []string{"ch07"}); err == nil || !strings.Contains(err.Error(), "ch07") {
		t.Errorf("Select of a missing chapter: err = %v", err)
	}
}

// TestCheckIDs: a missing, malformed or repeated id is reported with its cell; notebooks older than
// nbformat 4.5, which have no ids, pass.
func TestCheckIDs(t *testing.T) {
	nb := func(minor int, ids ...string) *Notebook {
		n := &Notebook{NBFormat: 4, NBFormatMinor: minor}
		for _, id := range ids {
			n.Cells = append(n.Cells, &Cell{Type: "markdown", ID: id})
		}
		return n
	}
	if err := nb(5, "ch01-00", "ch01-01", "a_B-9").CheckIDs(); err != nil {
		t.Errorf("valid ids: %v", err)
	}
	if err := nb(4, "", "").CheckIDs(); err != nil {
		t.Errorf("nbformat 4.4 has no ids, got %v", err)
	}
	for _, c := range []struct {
		ids  []string
		want string
	}{
		{[]string{"a", ""}, "cell 2 has no id"},
		{[]string{"a", "b", "a"}, `cell 3: id "a" is already the id of cell 1`},
		{[]string{"a b"}, `cell 1: id "a b" is not`},
		{[]string{strings.Repeat("x", 65)}, "is not 1-64"},
	} {
		err := nb(5, c.ids...).CheckIDs()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ids %q: got %v, want an error with %q", c.ids, err, c.want)
		}
	}
}

// TestCourseNotebookIDs holds every notebook of the course to CheckIDs, without running any.
func TestCourseNotebookIDs(t *testing.T) {
	paths, err := Find("../../notebooks")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no notebooks found in ../../notebooks")
	}
	for _, p := range paths {
		nb, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := nb.CheckIDs(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestMeta: SetMeta replaces one metadata key and keeps the others, also on null or absent
// metadata; Meta reads it back, nil for a missing key.
func TestMeta(t *testing.T) {
	for _, start := range []string{`{"kernelspec":{"name":"k"},"language_info":{"name":"go"}}`, `null`, ``} {
		nb := &Notebook{Metadata: json.RawMessage(start)}
		if err := nb.SetMeta("language_info", json.RawMessage(`{"name":"go","version":"go1.27.3"}`)); err != nil {
			t.Fatalf("%q: %v", start, err)
		}
		if got := string(nb.Meta("language_info")); got != `{"name":"go","version":"go1.27.3"}` {
			t.Errorf("%q: language_info = %s", start, got)
		}
		if want := strings.Contains(start, "kernelspec"); (nb.Meta("kernelspec") != nil) != want {
			t.Errorf("%q: kernelspec = %s", start, nb.Meta("kernelspec"))
		}
		if nb.Meta("missing") != nil {
			t.Errorf("%q: a missing key reads %s", start, nb.Meta("missing"))
		}
	}
}
