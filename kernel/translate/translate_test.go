package translate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

const enJSON = `{"cells": [
 {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# Chapter 1: Policies\n", "\n", "The policy $\\pi_\\theta$ is clipped by ` + "`Clip`" + `.\n"]},
 {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1, "source": ["fmt.Println(1)"],
  "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}]},
 {"cell_type": "markdown", "id": "m2", "metadata": {"tags": ["x"]}, "source": ["## 1.1 Rewards\n", "\n", "$$R = 1$$ see [there](https://example.org)."]}
], "metadata": {"kernelspec": {"name": "gonb"}}, "nbformat": 4, "nbformat_minor": 5}`

func parse(t *testing.T, s string) *notebook.Notebook {
	t.Helper()
	nb, err := notebook.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

func glossary(t *testing.T) *Glossary {
	t.Helper()
	p := filepath.Join(t.TempDir(), "glossary.tsv")
	if err := os.WriteFile(p, []byte("# terms\npolicy\t策略\nclip\t裁剪\nreward\t奖励\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ReadGlossary(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// good is a correct translation of enJSON's two markdown cells.
func good(en *notebook.Notebook) []Block {
	return []Block{
		{ID: "m1", Hash: SourceHash(en.Cells[0].Source), Text: "# 第 1 章：策略\n\n策略 $\\pi_\\theta$ 由 `Clip` 裁剪。"},
		{ID: "m2", Hash: SourceHash(en.Cells[2].Source), Text: "## 1.1 奖励\n\n$$R = 1$$ 见[那里](https://example.org)。"},
	}
}

// translated returns enJSON and its complete Chinese twin.
func translated(t *testing.T) (en, zh *notebook.Notebook) {
	en = parse(t, enJSON)
	zh, todo, _ := Sync(en, nil)
	if len(todo) != 2 {
		t.Fatalf("a fresh sync lists %d cells to translate, want the 2 markdown cells", len(todo))
	}
	if err := Apply(en, zh, good(en), glossary(t)); err != nil {
		t.Fatal(err)
	}
	return en, zh
}

func wantProblem(t *testing.T, ps []Problem, substr string) {
	t.Helper()
	for _, p := range ps {
		if strings.Contains(p.String(), substr) {
			return
		}
	}
	t.Errorf("no problem mentions %q; got %v", substr, ps)
}

func TestCheckPassesACompleteTranslation(t *testing.T) {
	en, zh := translated(t)
	if ps := Check(en, zh, glossary(t)); len(ps) != 0 {
		t.Fatalf("a complete translation has problems: %v", ps)
	}
	// Written and read back, as the command does, it still passes.
	p := filepath.Join(t.TempDir(), "zh.ipynb")
	if err := zh.Write(p); err != nil {
		t.Fatal(err)
	}
	back, err := notebook.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if ps := Check(en, back, glossary(t)); len(ps) != 0 {
		t.Fatalf("after a write and read: %v", ps)
	}
}

func TestCheckFindsEachKindOfDrift(t *testing.T) {
	cases := []struct {
		name, want string
		change     func(en, zh *notebook.Notebook)
	}{
		{"untranslated", "(m2): not translated", func(en, zh *notebook.Notebook) { zh.Cells[2].Metadata = en.Cells[2].Metadata }},
		{"code changed", "(c1): code differs", func(en, zh *notebook.Notebook) { zh.Cells[1].Source = "fmt.Println(2)" }},
		{"output changed", "(c1): outputs", func(en, zh *notebook.Notebook) {
			zh.Cells[1].Outputs[0] = &notebook.Output{Type: "stream", Name: "stdout", Text: "2\n"}
		}},
		{"English prose changed", "(m1): stale", func(en, zh *notebook.Notebook) { en.Cells[0].Source += " More." }},
		{"cell missing", "(c1): missing", func(en, zh *notebook.Notebook) { zh.Cells = append(zh.Cells[:1], zh.Cells[2:]...) }},
		{"cell added", `cell "extra" of the Chinese`, func(en, zh *notebook.Notebook) {
			zh.Cells = append(zh.Cells, &notebook.Cell{Type: "markdown", ID: "extra", Source: "多余"})
		}},
		{"order", "not in the English order", func(en, zh *notebook.Notebook) { zh.Cells[0], zh.Cells[2] = zh.Cells[2], zh.Cells[0] }},
		{"math changed", "inline math differ", func(en, zh *notebook.Notebook) {
			zh.Cells[0].Source = strings.Replace(zh.Cells[0].Source, `\pi_\theta`, `\pi`, 1)
		}},
		{"glossary", `lacks "裁剪"`, func(en, zh *notebook.Notebook) {
			zh.Cells[0].Source = strings.Replace(zh.Cells[0].Source, "裁剪", "截断", 1)
		}},
		{"notebook metadata", "notebook metadata", func(en, zh *notebook.Notebook) { zh.Metadata = []byte(`{}`) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			en, zh := translated(t)
			c.change(en, zh)
			wantProblem(t, Check(en, zh, glossary(t)), c.want)
		})
	}
}

func TestSyncCarriesCodeAndKeepsTranslations(t *testing.T) {
	en, zh := translated(t)
	// The English chapter changes: new output, an edited paragraph, a new cell.
	en.Cells[1].Outputs[0].Text = "2\n"
	en.Cells[2].Source += "\n\nA new reward sentence."
	en.Cells = append(en.Cells, &notebook.Cell{Type: "markdown", ID: "m3", Source: "Exercises"})
	next, todo, dropped := Sync(en, zh)
	if len(dropped) != 0 {
		t.Errorf("dropped %v", dropped)
	}
	if got := next.Cells[1].Outputs[0].Text; got != "2\n" {
		t.Errorf("output not carried over: %q", got)
	}
	if next.Cells[0].Source != zh.Cells[0].Source {
		t.Errorf("a current translation was not kept")
	}
	if len(todo) != 2 || todo[0].ID != "m2" || !todo[0].Stale || todo[1].ID != "m3" || todo[1].Stale {
		t.Fatalf("todo = %+v, want m2 (stale) and m3 (new)", todo)
	}
	ps := Check(en, next, nil)
	wantProblem(t, ps, "(m2): stale")
	wantProblem(t, ps, "(m3): not translated")
	// The worklist round-trips: fill it in, apply, and the check passes.
	blocks, err := ParseWorklist(WriteWorklist(todo))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Text != todo[0].Chinese || blocks[1].Text != "Exercises" {
		t.Fatalf("worklist read back as %+v", blocks)
	}
	blocks[0].Text += "\n\n一句新的关于奖励的话。"
	blocks[1].Text = "练习"
	if err := Apply(en, next, blocks, glossary(t)); err != nil {
		t.Fatal(err)
	}
	if ps := Check(en, next, glossary(t)); len(ps) != 0 {
		t.Fatalf("after apply: %v", ps)
	}
	// A cell the English dropped is dropped and named.
	en.Cells = en.Cells[:3]
	if _, _, dropped := Sync(en, next); len(dropped) != 1 || dropped[0] != "m3" {
		t.Errorf("dropped = %v, want [m3]", dropped)
	}
}

func TestApplyRefusesUnsoundBlocksAndChangesNothing(t *testing.T) {
	en := parse(t, enJSON)
	g := glossary(t)
	for _, c := range []struct {
		name, want string
		change     func(b []Block) []Block
	}{
		{"old hash", "English changed", func(b []Block) []Block { b[0].Hash = SourceHash("old"); return b }},
		{"math", "display math", func(b []Block) []Block { b[1].Text = strings.Replace(b[1].Text, "R = 1", "R=1", 1); return b }},
		{"code span", "code spans", func(b []Block) []Block { b[0].Text = strings.Replace(b[0].Text, "`Clip`", "Clip", 1); return b }},
		{"link", "link targets", func(b []Block) []Block {
			b[1].Text = strings.Replace(b[1].Text, "example.org", "example.com", 1)
			return b
		}},
		{"heading", "heading levels", func(b []Block) []Block { b[1].Text = strings.Replace(b[1].Text, "## ", "### ", 1); return b }},
		{"glossary", `lacks "奖励"`, func(b []Block) []Block { b[1].Text = strings.Replace(b[1].Text, "奖励", "回报", 1); return b }},
		{"code cell", "only markdown", func(b []Block) []Block {
			return append(b, Block{ID: "c1", Hash: SourceHash("fmt.Println(1)"), Text: "x"})
		}},
		{"twice", "given twice", func(b []Block) []Block { return append(b, b[0]) }},
		{"unknown", "no such cell", func(b []Block) []Block { return append(b, Block{ID: "zz", Hash: SourceHash(""), Text: "x"}) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			zh, _, _ := Sync(en, nil)
			before := zh.Cells[0].Source + zh.Cells[2].Source
			err := Apply(en, zh, c.change(good(en)), g)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, c.want)
			}
			if zh.Cells[0].Source+zh.Cells[2].Source != before || recordedHash(zh.Cells[0]) != "" {
				t.Errorf("a refused apply changed the notebook")
			}
		})
	}
}

func TestGlossaryTermsMatchWholeWordsAndInflections(t *testing.T) {
	g := glossary(t)
	for _, c := range []struct {
		en   string
		want []string
	}{
		{"Two policies, clipped and clipping.", []string{"policy", "clip"}},
		{"A critical eclipse.", nil},
		{"Rewards in `reward` code and $reward$ math.", []string{"reward"}},
		{"The `policy` and [a link](policy.html) only.", nil},
	} {
		var got []string
		for _, term := range g.Missing(c.en, "") {
			got = append(got, term.En)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q: terms %v, want %v", c.en, got, c.want)
		}
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"no tab": "policy 策略\n", "duplicate": "policy\t策略\nPolicy\t政策\n", "empty": "# nothing\n"} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := ReadGlossary(p); err == nil {
			t.Errorf("%s: glossary accepted", name)
		}
	}
}
