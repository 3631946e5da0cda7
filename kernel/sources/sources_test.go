package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

const testLedger = Header + `
ziegler2019	Ziegler, Stiennon and Wu	Fine-Tuning Language Models from Human Preferences	arXiv	2019-09	https://arxiv.org/abs/1909.08593	2026-12-05	adaptive KL controller, Eq. 2
trl	Hugging Face	TRL	GitHub repository	2025-07	https://github.com/huggingface/trl	not inspected: no stored copy	the GRPO trainer's loss types
`

// writeBook writes a checkout with one chapter in each edition (cells: title, en[i] / zh[i]),
// the READMEs and the ledger.
func writeBook(t *testing.T, ledger string, en, zh []string, enReadme, zhReadme string) string {
	t.Helper()
	root := t.TempDir()
	for _, ed := range []struct {
		dir   string
		cells []string
	}{{"notebooks", en}, {"notebooks/zh", zh}} {
		nb := &notebook.Notebook{Metadata: []byte(`{"kernelspec": {"name": "gonb"}}`), NBFormat: 4, NBFormatMinor: 5}
		nb.Cells = append(nb.Cells, &notebook.Cell{Type: "markdown", ID: "ch01-00", Source: "# Chapter 1: Test", Metadata: []byte("{}")})
		for i, src := range ed.cells {
			nb.Cells = append(nb.Cells, &notebook.Cell{Type: "markdown", ID: "ch01-" + string(rune('a'+i)), Source: src, Metadata: []byte("{}")})
		}
		if err := os.MkdirAll(filepath.Join(root, ed.dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := nb.Write(filepath.Join(root, ed.dir, "ch01_test.ipynb")); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{LedgerPath: ledger, readmeEn: enReadme, readmeZh: zhReadme} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func check(t *testing.T, root string) []Problem {
	t.Helper()
	b, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := b.Check()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestCheckCleanBook: a book whose citations all resolve passes once its References notebooks are
// built, and each edition's notebook links every entry back to the cells that cite it.
func TestCheckCleanBook(t *testing.T) {
	en := []string{"As reported by [Ziegler et al., 2019](references.ipynb#ziegler2019), β adapts.",
		"**Sources (results as reported).**\n- [TRL, 2025](references.ipynb#trl): loss types."}
	zh := []string{"[Ziegler 等，2019](references.ipynb#ziegler2019) 报告 β 自适应。", "**来源。**\n- [TRL，2025](references.ipynb#trl)。"}
	// A link in code is an example of the syntax, not a citation.
	root := writeBook(t, testLedger, en, zh, "See [TRL, 2025](notebooks/references.ipynb#trl). Cite as `[X](references.ipynb#nokey)`.",
		"见 [TRL，2025](notebooks/references.ipynb#trl)。")
	ps := check(t, root)
	if len(ps) != 2 || !strings.Contains(ps[0].String(), "run `agentrl book sources build`") {
		t.Fatalf("before build: %v; want the two References notebooks out of date", ps)
	}
	b, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := b.Build(); err != nil || len(changed) != 2 {
		t.Fatalf("build: %v, %v", changed, err)
	}
	if ps := check(t, root); len(ps) != 0 {
		t.Fatalf("after build: %v", ps)
	}
	for file, want := range map[string][]string{
		"notebooks/references.ipynb":    {"### ziegler2019", "Inspected 2026-12-05: adaptive KL controller", "Cited in: Chapter 1 ([cell 2](ch01_test.ipynb#cell-2))", "Not inspected (no stored copy)", "Chapter 1 ([cell 3](ch01_test.ipynb#cell-3)), README.md"},
		"notebooks/zh/references.ipynb": {"# 参考文献", "查阅于 2026-12-05", "引用于：第 1 章（[单元 2](ch01_test.ipynb#cell-2)）"},
	} {
		nb, err := notebook.Read(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, c := range nb.Cells {
			all.WriteString(c.Source + "\n")
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s lacks %q:\n%s", file, w, all.String())
			}
		}
	}
}

// TestCheckProblems: each rule fails with the file, cell and key it concerns.
func TestCheckProblems(t *testing.T) {
	for _, c := range []struct {
		name   string
		en, zh string
		want   string
	}{
		{"unknown key", "[Smith, 2020](references.ipynb#smith2020) and [TRL, 2025](references.ipynb#trl) and [Ziegler, 2019](references.ipynb#ziegler2019).",
			"[Smith，2020](references.ipynb#smith2020)[TRL，2025](references.ipynb#trl)[Ziegler，2019](references.ipynb#ziegler2019)",
			"notebooks/ch01_test.ipynb, cell ch01-a, key smith2020: no such entry in sources.tsv"},
		{"no year", "[Ziegler et al.](references.ipynb#ziegler2019), [TRL, 2025](references.ipynb#trl).",
			"[Ziegler 等](references.ipynb#ziegler2019)[TRL，2025](references.ipynb#trl)",
			"cell ch01-a, key ziegler2019: the link text \"Ziegler et al.\" does not give the source's year, 2019"},
		{"uncited", "[TRL, 2025](references.ipynb#trl).", "[TRL，2025](references.ipynb#trl)",
			"sources.tsv, key ziegler2019: no chapter cites it"},
		{"reported without a source", "PPO reached 0.9, as reported in 2019. [TRL, 2025](references.ipynb#trl) and [Ziegler, 2019](references.ipynb#ziegler2019).",
			"[TRL，2025](references.ipynb#trl)[Ziegler，2019](references.ipynb#ziegler2019)",
			"cell ch01-a: a sentence says \"reported\" and cites no source: \"PPO reached 0.9, as reported in 2019.\""},
		{"a work named without its source", "As Smith et al. (2020) show, it works. [TRL, 2025](references.ipynb#trl) and [Ziegler, 2019](references.ipynb#ziegler2019).",
			"[TRL，2025](references.ipynb#trl)[Ziegler，2019](references.ipynb#ziegler2019)",
			"cell ch01-a: a sentence names a work (\"et al.\") and cites no source: \"As Smith et al. (2020) show, it works.\""},
		{"a reported section", "## 1.9 What systems do (reported)\n\nSystem X scales.\n\n[TRL, 2025](references.ipynb#trl) and [Ziegler, 2019](references.ipynb#ziegler2019).",
			"## 1.9 系统\n\nX。\n\n[TRL，2025](references.ipynb#trl)[Ziegler，2019](references.ipynb#ziegler2019)",
			"a paragraph of a \"(reported)\" section cites no source: \"System X scales.\""},
		{"Chinese cites other keys", "[TRL, 2025](references.ipynb#trl) and [Ziegler, 2019](references.ipynb#ziegler2019).",
			"[TRL，2025](references.ipynb#trl)",
			"notebooks/zh/ch01_test.ipynb, cell ch01-a, key ziegler2019: cites [trl], the English cell [trl ziegler2019]"},
	} {
		root := writeBook(t, testLedger, []string{c.en}, []string{c.zh}, "", "")
		var got []string
		for _, p := range check(t, root) {
			got = append(got, p.String())
		}
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%s: problems\n%s\nwant one containing %q", c.name, strings.Join(got, "\n"), c.want)
		}
	}
}

// TestReadLedgerRefuses: a malformed ledger is an error that names its line.
func TestReadLedgerRefuses(t *testing.T) {
	row := "ziegler2019\tZ\tT\tV\t2019-09\thttps://a\t2026-12-05\tc"
	for _, c := range []struct{ ledger, want string }{
		{"key\tauthors\n", "the header must be"},
		{Header + "\n" + row + "\n" + row + "\n", `:3: key "ziegler2019" is used twice`},
		{Header + "\nZiegler\tZ\tT\tV\t2019\thttps://a\t2026-12-05\tc\n", "use lowercase"},
		{Header + "\nz\tZ\tT\tV\tSept 2019\thttps://a\t2026-12-05\tc\n", "is not YYYY"},
		{Header + "\nz\tZ\tT\tV\t2019\twww.a\t2026-12-05\tc\n", "is not a URL"},
		{Header + "\nz\tZ\tT\tV\t2019\thttps://a\tyes\tc\n", `inspected "yes"`},
		{Header + "\nz\tZ\t\tV\t2019\thttps://a\t2026-12-05\tc\n", `field "title" is empty`},
		{Header + "\nz\tZ\tT\tV\t2019\thttps://a\n", "6 fields, want 8"},
	} {
		path := filepath.Join(t.TempDir(), "sources.tsv")
		if err := os.WriteFile(path, []byte(c.ledger), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadLedger(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ledger %q: %v, want %q", c.ledger, err, c.want)
		}
	}
}

func TestSentences(t *testing.T) {
	got := sentences("First one, Smith et al. (2020) say. Second, e.g. This. Third? **Bold.** Next\n- item one\n- item two")
	want := []string{"First one, Smith et al. (2020) say. ", "Second, e.g. This. ", "Third? ", "**Bold.** ", "Next", "item one", "item two"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences:\n%q\nwant\n%q", got, want)
	}
}
