package check

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

func stream(name, text string) *notebook.Output {
	return &notebook.Output{Type: "stream", Name: name, Text: text}
}

func html(s string) *notebook.Output {
	raw, _ := json.Marshal(s)
	return &notebook.Output{Type: "display_data", Data: map[string]json.RawMessage{"text/html": raw}}
}

// book builds a notebook of one Markdown cell and code cells with the given outputs.
func book(outputs ...[]*notebook.Output) *notebook.Notebook {
	nb := &notebook.Notebook{Path: "notebooks/ch09_test.ipynb", NBFormat: 4, NBFormatMinor: 5,
		Cells: []*notebook.Cell{{Type: "markdown", Source: "# Title"}}}
	for i, outs := range outputs {
		n := i + 1
		nb.Cells = append(nb.Cells, &notebook.Cell{Type: "code", Source: "%%\nfmt.Println(x)", ExecutionCount: &n, Outputs: outs})
	}
	return nb
}

func TestCompare(t *testing.T) {
	recorded := book(
		[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n")},
		[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n"), html(`<div id="c1"></div>`)},
	)
	tests := []struct {
		name    string
		got     *notebook.Notebook
		cell    int    // 0: no mismatch
		channel string // expected channel
		line    int
	}{
		{"identical", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n"), html(`<div id="c1"></div>`)},
		), 0, "", 0},
		{"one character", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.251\nstep 3 loss 0.125\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n"), html(`<div id="c1"></div>`)},
		), 2, "stdout", 2},
		{"wall-clock content is not compared", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 97ms]\n"), html(`<div id="c1"></div>`)},
		), 0, "", 0},
		{"text around a wall-clock value is compared", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n")},
			[]*notebook.Output{stream("stdout", "trained fast in [wall: 1.2s]\n"), html(`<div id="c1"></div>`)},
		), 3, "stdout", 1},
		{"chunking and interleaving of streams does not matter", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 "), stream("stderr", ""),
				stream("stdout", "loss 0.250\nstep 3 loss 0.125\n")},
			[]*notebook.Output{html(`<div id="c1"></div>`), stream("stdout", "trained in [wall: 1.2s]\n")},
		), 0, "", 0},
		{"chart html", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n"), html(`<div id="c2"></div>`)},
		), 3, "display output 1 (text/html)", 1},
		{"missing output", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n"), html(`<div id="c1"></div>`)},
		), 2, "stdout", 3},
		{"extra stderr", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n"), stream("stderr", "warning\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n"), html(`<div id="c1"></div>`)},
		), 2, "stderr", 1},
		{"missing chart", book(
			[]*notebook.Output{stream("stdout", "step 1 loss 0.500\nstep 2 loss 0.250\nstep 3 loss 0.125\n")},
			[]*notebook.Output{stream("stdout", "trained in [wall: 1.2s]\n")},
		), 3, "display output 1", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms := Compare(recorded, tc.got)
			if tc.cell == 0 {
				if len(ms) != 0 {
					t.Fatalf("unexpected mismatch:\n%s", ms[0])
				}
				return
			}
			if len(ms) != 1 {
				t.Fatalf("got %d mismatches, want 1: %v", len(ms), ms)
			}
			m := ms[0]
			if m.Cell != tc.cell || m.Channel != tc.channel || m.Line != tc.line {
				t.Errorf("mismatch at cell %d %q line %d, want cell %d %q line %d\n%s", m.Cell, m.Channel, m.Line, tc.cell, tc.channel, tc.line, m)
			}
			s := m.String()
			if !strings.Contains(s, "notebooks/ch09_test.ipynb: cell ") || !strings.Contains(s, "differs at line") {
				t.Errorf("report does not name notebook and cell:\n%s", s)
			}
		})
	}
}

func TestMismatchReportShowsBothLines(t *testing.T) {
	ms := Compare(book([]*notebook.Output{stream("stdout", "a\nb\nc = 1\n")}), book([]*notebook.Output{stream("stdout", "a\nb\nc = 2\n")}))
	if len(ms) != 1 {
		t.Fatalf("mismatches = %v", ms)
	}
	want := "notebooks/ch09_test.ipynb: cell 2 (\"%%\"): stdout differs at line 3\n    a\n    b\n  - c = 1\n  - \n  + c = 2\n  + \n"
	if got := ms[0].String(); !strings.HasPrefix(got, want) {
		t.Errorf("report:\n%s\nwant prefix:\n%s", got, want)
	}
}

func TestMask(t *testing.T) {
	cases := map[string]string{
		"took [wall: 1.5s] for [wall: 12 runs/s]": "took [wall: …] for [wall: …]",
		"[wall:1s] [Wall: 1s] wall: 1s":           "[wall:1s] [Wall: 1s] wall: 1s", // only the exact form
		"[wall: 1s\n]":                            "[wall: 1s\n]",                  // never across lines
	}
	for in, want := range cases {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUpdateChangesOnlyDifferingCells(t *testing.T) {
	recorded := book(
		[]*notebook.Output{stream("stdout", "same\n")},
		[]*notebook.Output{stream("stdout", "old\n")},
		[]*notebook.Output{stream("stdout", "took [wall: 1s]\n")},
	)
	keep := recorded.Cells[1].Outputs[0]
	executed := book(
		[]*notebook.Output{stream("stdout", "sa"), stream("stdout", "me\n")},
		[]*notebook.Output{stream("stdout", "new "), stream("stdout", "line\n"), html("<p>")},
		[]*notebook.Output{stream("stdout", "took [wall: 2s]\n")},
	)
	if n := Update(recorded, executed); n != 1 {
		t.Fatalf("Update changed %d cells, want 1", n)
	}
	if recorded.Cells[1].Outputs[0] != keep {
		t.Error("an unchanged cell was rewritten")
	}
	if recorded.Cells[3].Outputs[0].Text != "took [wall: 1s]\n" {
		t.Error("a cell differing only inside [wall: ...] was rewritten")
	}
	outs := recorded.Cells[2].Outputs
	if len(outs) != 2 || outs[0].Text != "new line\n" || outs[1].Type != "display_data" {
		t.Errorf("updated outputs = %+v (want merged stream then display)", outs)
	}
	if len(Compare(recorded, executed)) != 0 {
		t.Error("after Update, Compare still differs")
	}
}

// TestLanguageInfo checks that a recorded language_info must equal the kernel's as a JSON value
// (key order and spacing aside), and that UpdateLanguageInfo records the kernel's and keeps the
// rest of the metadata.
func TestLanguageInfo(t *testing.T) {
	kernel := `{"name":"go","version":"go1.27.3","mimetype":"text/x-go","file_extension":".go","pygments_lexer":""}`
	executed := book()
	executed.Metadata = json.RawMessage(`{"language_info":` + kernel + `}`)
	for _, c := range []struct {
		name, metadata string
		same           bool
	}{
		{"absent", `{"kernelspec":{"name":"agentrl-go"}}`, false},
		{"name only", `{"kernelspec":{"name":"agentrl-go"},"language_info":{"name":"go"}}`, false},
		{"other version", `{"language_info":` + strings.Replace(kernel, "1.27.3", "1.26.0", 1) + `}`, false},
		{"same value, other order", `{"language_info": {"pygments_lexer": "", "file_extension": ".go", "mimetype": "text/x-go", "version": "go1.27.3", "name": "go"}}`, true},
	} {
		recorded := book()
		recorded.Metadata = json.RawMessage(c.metadata)
		if _, _, same := LanguageInfo(recorded, executed); same != c.same {
			t.Errorf("%s: same = %v, want %v", c.name, same, c.same)
		}
		changed, err := UpdateLanguageInfo(recorded, executed)
		if err != nil || changed == c.same {
			t.Errorf("%s: UpdateLanguageInfo changed %v, err %v", c.name, changed, err)
		}
		if got, want, same := LanguageInfo(recorded, executed); !same {
			t.Errorf("%s: after the update, recorded %s, kernel %s", c.name, got, want)
		}
		if strings.Contains(c.metadata, "kernelspec") && string(recorded.Meta("kernelspec")) != `{"name":"agentrl-go"}` {
			t.Errorf("%s: the update lost the kernelspec: %s", c.name, recorded.Metadata)
		}
	}
	if _, _, same := LanguageInfo(executed, book()); !same {
		t.Error("a kernel that reported no language_info made the notebook differ")
	}
}
