package site

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/kernel/chart"
	"github.com/agenticrl/course/kernel/notebook"
)

const (
	fixtures    = "testdata/notebooks"
	fixturesZh  = "testdata/notebooks/zh" // the Chinese edition: chapter 1 only
	nodeModules = "web/node_modules"
	echartsFile = "../js/node_modules/echarts/dist/echarts.min.js" // kernel/js's npm package
)

// requireAssets fails the test when the npm packages the export copies are not installed.
func requireAssets(t *testing.T) {
	t.Helper()
	for _, src := range npmFiles {
		if _, err := os.Stat(filepath.Join(nodeModules, src)); err != nil {
			t.Fatalf("%s missing: run `make setup`", filepath.Join(nodeModules, src))
		}
	}
	if _, err := os.Stat(echartsFile); err != nil {
		t.Fatalf("%s missing: run `make setup`", echartsFile)
	}
}

// buildFixtures exports the fixture notebooks into a fresh folder.
func buildFixtures(t *testing.T) (string, *Report) {
	t.Helper()
	requireAssets(t)
	out := filepath.Join(t.TempDir(), "site")
	rep, err := Build(Options{Notebooks: fixtures, Chinese: fixturesZh, Out: out, NodeModules: nodeModules, ChartLibrary: echartsFile, Title: "Fixture course"})
	if err != nil {
		t.Fatal(err)
	}
	return out, rep
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeNotebook(t *testing.T, dir, name, firstMarkdown string) {
	t.Helper()
	nb := map[string]any{"nbformat": 4, "cells": []any{
		map[string]any{"cell_type": "markdown", "source": firstMarkdown},
	}}
	b, _ := json.Marshal(nb)
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindChapters(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"appB_review.ipynb", "ch10_kl.ipynb", "appA_math.ipynb", "ch02_rl.ipynb", "ch00_intro.ipynb"} {
		writeNotebook(t, dir, name, "# Title of "+name+"\n\nFirst paragraph,\nsecond line.\n\nNot this one.")
	}
	writeNotebook(t, dir, "ch03_lm.ipynb", "# Chapter 3: Language models as policies")
	writeNotebook(t, dir, "ch04_gym.ipynb", "# Chapter 5: a misnumbered title is kept whole")
	chs, err := findChapters(dir, english)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range chs {
		got = append(got, c.Label+"|"+c.Page)
	}
	want := []string{"Chapter 0|ch00_intro.html", "Chapter 2|ch02_rl.html", "Chapter 3|ch03_lm.html",
		"Chapter 4|ch04_gym.html", "Chapter 10|ch10_kl.html", "Appendix A|appA_math.html", "Appendix B|appB_review.html"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("order and labels:\n got %v\nwant %v", got, want)
	}
	if chs[0].Title != "Title of ch00_intro.ipynb" || chs[0].Intro != "First paragraph, second line." {
		t.Errorf("title %q, intro %q", chs[0].Title, chs[0].Intro)
	}
	if chs[2].Title != "Language models as policies" || !chs[2].Labelled {
		t.Errorf("labelled title: %q, %v", chs[2].Title, chs[2].Labelled)
	}
	if chs[3].Title != "Chapter 5: a misnumbered title is kept whole" || chs[3].Labelled {
		t.Errorf("misnumbered title: %q, %v", chs[3].Title, chs[3].Labelled)
	}

	// The Chinese edition labels chapters its own way and strips its own labels.
	zh := t.TempDir()
	writeNotebook(t, zh, "ch06_pg.ipynb", "# 第 6 章：策略梯度\n\n第一段。")
	writeNotebook(t, zh, "appA_math.ipynb", "# 附录 A：数学工具")
	writeNotebook(t, zh, "ch07_adv.ipynb", "# 第 8 章：编号不符的标题保持原样")
	zchs, err := findChapters(zh, chinese)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, c := range zchs {
		got = append(got, fmt.Sprintf("%s|%s|%v|%s", c.Label, c.Title, c.Labelled, c.Full()))
	}
	want = []string{"第 6 章|策略梯度|true|第 6 章：策略梯度", "第 7 章|第 8 章：编号不符的标题保持原样|false|第 7 章：第 8 章：编号不符的标题保持原样",
		"附录 A|数学工具|true|附录 A：数学工具"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Chinese labels:\n got %v\nwant %v", got, want)
	}

	for _, tc := range []struct{ name, md, wantErr string }{
		{"ch01_x.ipynb", "no title here", "no \"# \" title"},
		{"chapter1.ipynb", "# T", "notebook name must be"},
		{"ch00_again.ipynb", "# Again", "ch00_again.ipynb and ch00_intro.ipynb are both Chapter 0"},
	} {
		d := t.TempDir()
		writeNotebook(t, d, tc.name, tc.md)
		if tc.name == "ch00_again.ipynb" {
			writeNotebook(t, d, "ch00_intro.ipynb", "# Intro")
		}
		if _, err := findChapters(d, english); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: got error %v, want one containing %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestMarkdownMath(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"$a<b$", `<span class="math">a&lt;b</span>`},
		{`\(x\)`, `<span class="math">x</span>`},
		{"$$\n\\sum_i x_i\n$$", `<div class="math display">\sum_i x_i</div>`},
		{"costs \\$5 or \\$6", "costs $5 or $6"},
		{"`$x$` in code", "<code>$x$</code>"},
		{"$a_1 b_1$ and $c_1$", `<span class="math">a_1 b_1</span> and <span class="math">c_1</span>`},
		{"| $p$ | $q<1$ |\n|---|---|\n| x | y |", `<th><span class="math">p</span></th>`},
	} {
		r := newMarkdownRenderer("en")
		got, _, _, err := r.render(tc.md, &section{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%q: got %q, want it to contain %q", tc.md, got, tc.want)
		}
	}
}

func TestHeadingIDsUniqueAcrossCells(t *testing.T) {
	r := newMarkdownRenderer("en")
	var ids []string
	for _, md := range []string{"## Summary\n\nx", "## Summary\n\ny", "## Exercises"} {
		_, heads, _, err := r.render(md, &section{})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range heads {
			ids = append(ids, h.ID)
		}
	}
	if strings.Join(ids, ",") != "summary,summary-1,exercises" {
		t.Errorf("ids %v", ids)
	}
	_, heads, _, err := r.render("## Why $a<b$ and `x`", &section{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `Why <span class="math">a&lt;b</span> and <code>x</code>`; len(heads) != 1 || string(heads[0].HTML) != want {
		t.Errorf("heading HTML %+v, want %q", heads, want)
	}
}

func TestOutputCounts(t *testing.T) {
	r := &outputRenderer{assets: assetFiles{}}
	chart := `<div class="agentrl-chart" id="c"><svg></svg></div><script>draw()</script>`
	large := "<script>" + strings.Repeat("x", largeScript+1) + "</script>"
	for _, h := range []string{chart, chart + chart, large, `<script src="x.js"></script>`} {
		if got := r.html(h); got != "<div class=\"output html\">"+h+"</div>\n" {
			t.Errorf("HTML output changed: %q", got)
		}
	}
	if r.charts != 3 || r.large != 1 {
		t.Errorf("%d charts, %d large scripts; want 3 and 1", r.charts, r.large)
	}
}

func TestRenderOutputs(t *testing.T) {
	md := newMarkdownRenderer("en")
	for _, tc := range []struct {
		name string
		out  string // one output, as JSON
		want string
	}{
		{"stdout", `{"output_type":"stream","name":"stdout","text":["a < b\n","done\n"]}`, `<pre class="output stream stdout">a &lt; b` + "\ndone\n</pre>"},
		{"stderr", `{"output_type":"stream","name":"stderr","text":"warn"}`, `<pre class="output stream stderr">warn</pre>`},
		{"error", `{"output_type":"error","ename":"panic","evalue":"boom","traceback":["\u001b[31mpanic: boom\u001b[0m"]}`, `<pre class="output error">panic: boom</pre>`},
		{"html first", `{"output_type":"display_data","data":{"text/plain":"<x>","text/html":"<b>x</b>"}}`, `<div class="output html"><b>x</b></div>`},
		{"plain result", `{"output_type":"execute_result","data":{"text/plain":"42"}}`, `<pre class="output result">42</pre>`},
		{"markdown", `{"output_type":"display_data","data":{"text/markdown":"*hi*"}}`, `<em>hi</em>`},
		{"json only", `{"output_type":"display_data","data":{"application/json":{"a":1}}}`, "no MIME type the site can show among [application/json]"},
	} {
		nb, err := notebook.Parse([]byte(`{"nbformat":4,"cells":[{"cell_type":"code","source":"","outputs":[` + tc.out + `]}]}`))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := &outputRenderer{assets: assetFiles{}, md: md}
		got, err := r.render(nb.Cells[0].Outputs)
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want it to contain %q", tc.name, got, tc.want)
		}
	}
}

// TestBuildFixtures checks the exported fixture course against its notebooks.
func TestBuildFixtures(t *testing.T) {
	out, rep := buildFixtures(t)
	chs, err := findChapters(fixtures, english)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pages != len(chs)+1+2 { // and the Chinese chapter and index
		t.Errorf("%d pages, want %d", rep.Pages, len(chs)+3)
	}
	index := readFile(t, filepath.Join(out, "index.html"))
	for i, ch := range chs {
		page := readFile(t, filepath.Join(out, ch.Page))
		// Every recorded printed output appears on the page exactly as printed.
		for _, c := range ch.nb.Cells {
			for _, o := range c.Outputs {
				if o.Type == "stream" && !strings.Contains(page, html.EscapeString(string(o.Text))) {
					t.Errorf("%s: printed output %q is not on the page", ch.Page, o.Text)
				}
			}
		}
		if !strings.Contains(index, `href="`+ch.Page+`"`) {
			t.Errorf("index does not link %s", ch.Page)
		}
		if !strings.Contains(page, `href="notebooks/`+ch.File+`"`) {
			t.Errorf("%s does not link its notebook", ch.Page)
		}
		if i+1 < len(chs) && !strings.Contains(page, `rel="next" href="`+chs[i+1].Page+`"`) {
			t.Errorf("%s: no next link to %s", ch.Page, chs[i+1].Page)
		}
		if i > 0 && !strings.Contains(page, `rel="prev" href="`+chs[i-1].Page+`"`) {
			t.Errorf("%s: no previous link to %s", ch.Page, chs[i-1].Page)
		}
		if strings.Contains(page, "Apache Software Foundation") {
			t.Errorf("%s still inlines the echarts bundle", ch.Page)
		}
		copied := readFile(t, filepath.Join(out, "notebooks", ch.File))
		if copied != readFile(t, filepath.Join(fixtures, ch.File)) {
			t.Errorf("notebooks/%s differs from its source", ch.File)
		}
	}

	ch1 := readFile(t, filepath.Join(out, "ch01_returns.html"))
	for _, want := range []string{
		`<li class="toc-h2"><a href="#the-discounted-return">The discounted return</a></li>`, // table of contents
		`<li class="toc-h3"><a href="#plotting-the-returns">Plotting the returns</a></li>`,
		`<div class="math display">G_t = \sum_{k=0}^{T-t-1}`, // math left for KaTeX
		`<span class="kd">func</span>`,                       // highlighted Go
		`<span class="saved"`,                                // the //@save marker
		`<div class="agentrl-chart" id="chart_`,              // the charts, with their pictures and scripts
		`<svg width="640" height="360"`,
		`<svg width="640" height="320"`,
		`s.src = "lib/echarts.js"`,
	} {
		if !strings.Contains(ch1, want) {
			t.Errorf("ch01_returns.html lacks %s", want)
		}
	}
	// The two charts of each edition load the one copy of echarts, written where they look for it.
	if rep.Charts != 4 || rep.LargeScripts != 0 {
		t.Errorf("%d charts, %d large scripts; want 4 and 0", rep.Charts, rep.LargeScripts)
	}
	if got, want := readFile(t, filepath.Join(out, "lib", "echarts.js")), string(chart.Library([]byte(readFile(t, echartsFile)))); got != want {
		t.Error("lib/echarts.js is not the charts' library made from " + echartsFile)
	}
	if !strings.Contains(index, "make course") {
		t.Error("the index does not say how to run the course locally")
	}

	var corpus struct{ Docs []searchDoc }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "assets", "search-index.json"))), &corpus); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range corpus.Docs {
		if d.URL == "ch01_returns.html#the-discounted-return" && strings.Contains(d.Text, "discounts later rewards") {
			found = true
		}
	}
	if !found {
		t.Errorf("search corpus has no section for the discounted return: %+v", corpus.Docs)
	}
	js := readFile(t, filepath.Join(out, "assets", "search-index.js"))
	if !strings.HasPrefix(js, "window.COURSE_SEARCH = {") {
		t.Errorf("search-index.js starts %.40q", js)
	}
}

// TestChineseEdition checks the Chinese pages of the fixture course: their own words and labels,
// outputs as recorded, and a language switch on every page to its twin (or, for a chapter not yet
// translated, to the other edition's index).
func TestChineseEdition(t *testing.T) {
	out, _ := buildFixtures(t)
	zh := readFile(t, filepath.Join(out, "zh", "ch01_returns.html"))
	for _, want := range []string{
		`<html lang="zh-CN">`,
		`<title>第 1 章：回报与折扣 · Fixture course</title>`,
		`<a class="lang-switch" href="../ch01_returns.html" hreflang="en" lang="en">English</a>`,
		`placeholder="搜索课程"`, `data-none="课程中没有匹配的内容。"`,
		`<span class="dir">上一章</span><span class="where">目录</span>`,
		`<span class="saved" title="此单元格会被收入 agentrl 包">已保存到 agentrl</span>`,
		`<div class="math display">G_t = \sum_{k=0}^{T-t-1}`,
		`回报在回合末尾逐渐变小：剩下可收集的奖励更少了。`, // a line break inside Chinese is no space
		`G_0 = 3.439`, // the recorded output, as in English
		`s.src = "lib/echarts.js"`,
	} {
		if !strings.Contains(zh, want) {
			t.Errorf("zh/ch01_returns.html lacks %s", want)
		}
	}
	for page, want := range map[string]string{
		"ch01_returns.html": `<a class="lang-switch" href="zh/ch01_returns.html" hreflang="zh-CN" lang="zh-CN">中文</a>`,
		"ch00_start.html":   `<a class="lang-switch" href="zh/index.html" hreflang="zh-CN" lang="zh-CN">中文</a>`,
		"index.html":        `<a class="lang-switch" href="zh/index.html"`,
		"zh/index.html":     `<a class="lang-switch" href="../index.html"`,
	} {
		if !strings.Contains(readFile(t, filepath.Join(out, filepath.FromSlash(page))), want) {
			t.Errorf("%s lacks %s", page, want)
		}
	}
	if !strings.Contains(readFile(t, filepath.Join(out, "zh", "index.html")), "make course EDITION=zh") {
		t.Error("the Chinese index does not say how to open the Chinese edition")
	}
	if readFile(t, filepath.Join(out, "zh", "notebooks", "ch01_returns.ipynb")) != readFile(t, filepath.Join(fixturesZh, "ch01_returns.ipynb")) {
		t.Error("zh/notebooks/ch01_returns.ipynb differs from its source")
	}
	if readFile(t, filepath.Join(out, "zh", "lib", "echarts.js")) != readFile(t, filepath.Join(out, "lib", "echarts.js")) {
		t.Error("the Chinese charts have no echarts beside their pages")
	}
	var corpus struct{ Docs []searchDoc }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "zh", "assets", "search-index.json"))), &corpus); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range corpus.Docs {
		found = found || d.Chapter == "第 1 章：回报与折扣" && strings.Contains(d.Text, "对之后的奖励打折")
	}
	if !found {
		t.Errorf("the Chinese search corpus has no Chinese section: %+v", corpus.Docs)
	}
	// Without a Chinese edition no page offers a switch.
	alone := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Notebooks: fixtures, Out: alone, NodeModules: nodeModules, ChartLibrary: echartsFile}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(readFile(t, filepath.Join(alone, "ch01_returns.html")), "lang-switch") {
		t.Error("an English-only site links to a Chinese edition")
	}
	// With the default title, each edition has its own.
	titled := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Notebooks: fixtures, Chinese: fixturesZh, Out: titled, NodeModules: nodeModules, ChartLibrary: echartsFile}); err != nil {
		t.Fatal(err)
	}
	if p := readFile(t, filepath.Join(titled, "zh", "index.html")); !strings.Contains(p, "<h1>智能体强化学习：从策略梯度到编程智能体</h1>") {
		t.Error("the Chinese index does not carry the Chinese title")
	}
	if p := readFile(t, filepath.Join(titled, "index.html")); !strings.Contains(p, "<h1>"+DefaultTitle+"</h1>") {
		t.Error("the English index lost its title")
	}
}

// An export replaces an earlier export, and only that, and only once it is complete.
func TestBuildReplacesOnlyExports(t *testing.T) {
	out, _ := buildFixtures(t)
	stale := filepath.Join(out, "stale.html")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(Options{Notebooks: fixtures, Out: out, NodeModules: nodeModules, ChartLibrary: echartsFile}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a file of the earlier export survived the new one")
	}
	// An export that fails midway leaves the earlier one as it was, and nothing beside it.
	broken := t.TempDir()
	for _, name := range []string{"ch00_start.ipynb", "ch01_returns.ipynb"} {
		if err := os.WriteFile(filepath.Join(broken, name), []byte(readFile(t, filepath.Join(fixtures, name))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := `{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# Bad"}, {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 1, "source": "x", "outputs": [{"output_type": "weird"}]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	if err := os.WriteFile(filepath.Join(broken, "ch02_bad.ipynb"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	index := readFile(t, filepath.Join(out, "index.html"))
	if _, err := Build(Options{Notebooks: broken, Out: out, NodeModules: nodeModules, ChartLibrary: echartsFile}); err == nil || !strings.Contains(err.Error(), "weird") {
		t.Fatalf("export of a broken notebook: %v", err)
	}
	if readFile(t, filepath.Join(out, "index.html")) != index {
		t.Error("a failed export changed the earlier one")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*")); len(left) != 0 {
		t.Errorf("a failed export left %v", left)
	}

	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(Options{Notebooks: fixtures, Out: other, NodeModules: nodeModules, ChartLibrary: echartsFile}); err == nil {
		t.Error("export replaced a folder that was not an export")
	}
}

func TestMissingAssets(t *testing.T) {
	for _, opt := range []Options{
		{Notebooks: fixtures, Out: t.TempDir(), NodeModules: t.TempDir(), ChartLibrary: echartsFile},
		{Notebooks: fixtures, Out: t.TempDir(), NodeModules: nodeModules, ChartLibrary: filepath.Join(t.TempDir(), "echarts.min.js")},
	} {
		_, err := Build(opt)
		if err == nil || !strings.Contains(err.Error(), "run `make setup`") {
			t.Errorf("got %v, want an error that says to run make setup", err)
		}
	}
}
