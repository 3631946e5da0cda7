package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/sources"
	"github.com/chromedp/chromedp"
)

// citedFixtures copies the fixture notebooks into a folder, cites a source from Chapter 1's
// second markdown cell in both editions, and adds the ledger and the References notebooks.
func citedFixtures(t *testing.T) (en, zh string) {
	t.Helper()
	en = filepath.Join(t.TempDir(), "notebooks")
	zh = filepath.Join(en, "zh")
	if err := os.MkdirAll(zh, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"", "zh"} {
		paths, err := notebook.Find(filepath.Join(fixtures, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			nb, err := notebook.Read(p)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(p) == "ch01_returns.ipynb" {
				nb.Cells = append(nb.Cells, &notebook.Cell{Type: "markdown", ID: "cites", Metadata: []byte("{}"),
					Source: "The controller is [Ziegler et al.'s, 2019](references.ipynb#ziegler2019)."})
			}
			if err := nb.Write(filepath.Join(en, dir, filepath.Base(p))); err != nil {
				t.Fatal(err)
			}
		}
	}
	ledger := sources.Header + "\nziegler2019\tZiegler, Stiennon and Wu\tFine-Tuning Language Models from Human Preferences\tarXiv\t2019-09\thttps://arxiv.org/abs/1909.08593\t2026-12-05\tthe adaptive KL controller\n"
	if err := os.WriteFile(filepath.Join(en, "sources.tsv"), []byte(ledger), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := sources.ReadLedger(filepath.Join(en, "sources.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for ed, dir := range map[string]string{"en": en, "zh": zh} {
		docs, err := sources.ReadNotebooks(en, dir)
		if err != nil {
			t.Fatal(err)
		}
		meta, err := notebook.Read(filepath.Join(dir, "ch01_returns.ipynb"))
		if err != nil {
			t.Fatal(err)
		}
		if err := sources.References(l, docs, ed, meta).Write(filepath.Join(dir, sources.File)); err != nil {
			t.Fatal(err)
		}
	}
	return en, zh
}

// TestReferencesInTheBrowser exports a cited chapter and follows its citation in headless
// Chromium: from the chapter to the entry on the References page, and from the entry's back link
// to the citing cell. The chapter's page ends with its sources, and every link of the export
// resolves.
func TestReferencesInTheBrowser(t *testing.T) {
	requireAssets(t)
	en, zh := citedFixtures(t)
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(Options{Notebooks: en, Chinese: zh, Out: out, NodeModules: nodeModules, ChartLibrary: echartsFile}); err != nil {
		t.Fatal(err)
	}
	problems, err := CheckLinks(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	page, err := os.ReadFile(filepath.Join(out, "ch01_returns.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<section class="cell cell-markdown" id="sources">`) ||
		!strings.Contains(string(page), `href="references.html#ziegler2019"><em>Fine-Tuning Language Models from Human Preferences</em>`) {
		t.Errorf("ch01_returns.html has no sources section linking the entry")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"), chromedp.ProxyServer("127.0.0.1:9"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel2 := chromedp.NewContext(actx)
	defer cancel2()
	ctx, cancel3 := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel3()
	follow := func(from, link string) string {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(from), chromedp.Click(chromedp.CSS(link)), chromedp.Sleep(500*time.Millisecond)); err != nil {
			t.Fatalf("%s: click %s: %v", from, link, err)
		}
		at, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname.split('/').pop() + location.hash + ' ' + (document.getElementById(location.hash.slice(1)) ? 'found' : 'missing')`))
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	chapter := "file://" + filepath.Join(out, "ch01_returns.html")
	if at := follow(chapter, `section.cell-markdown:not(#sources) a[href="references.html#ziegler2019"]`); at != "references.html#ziegler2019 found" {
		t.Fatalf("the citation led to %q, want the entry", at)
	}
	if at := follow("file://"+filepath.Join(out, "references.html#ziegler2019"), `a[href^="ch01_returns.html#cell-"]`); at != "ch01_returns.html#cell-8 found" {
		t.Fatalf("the back link led to %q, want the citing cell (cell 8)", at)
	}
}
