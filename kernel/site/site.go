package site

import (
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/kernel/chart"
	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/sources"
)

//go:embed templates/*.html static/style.css static/site.js
var embedded embed.FS

// Options says what to export and where.
type Options struct {
	Notebooks string // folder with the chNN_*.ipynb and appX_*.ipynb notebooks
	// Chinese is the folder of the Chinese edition's notebooks (same names), exported into zh/
	// beside the English pages; "" exports the English edition alone.
	Chinese     string
	Out         string // folder the site is written to; replaced if it holds an earlier export
	NodeModules string // the npm packages setup.sh installs (katex, minisearch)
	// ChartLibrary is echarts.min.js (kernel/js's npm package), from which the site writes the one
	// file its charts load, at chart.LibraryPath beside the pages.
	ChartLibrary string
	Title        string // the course title, shown in the sidebar and on the index
}

// Report sums up an export.
type Report struct {
	Pages int   // HTML pages written, the index included
	Files int   // all files written
	Bytes int64 // their total size
	// Charts counts chart outputs; LargeScripts counts inline scripts over 100 kB in outputs,
	// most likely charts recorded with the whole charting library inlined: they work, but make
	// pages heavy.
	Charts, LargeScripts int
}

// DefaultTitle is the course's title, used when Options.Title is empty.
const DefaultTitle = "Agentic RL: From Policy Gradients to Coding Agents"

// marker is written into every export so that a later export may replace the folder without
// risking a folder that is not one.
const marker = ".agentrl-site"

// ErrUsage marks errors in Main's arguments, as opposed to failures of the export.
var ErrUsage = errors.New("usage")

// Main is the command line of the export: `site [--out DIR] [--notebooks DIR]`. It builds the
// site and then checks its links, failing on any problem.
func Main(args []string) error {
	fl := flag.NewFlagSet("site", flag.ContinueOnError)
	out := fl.String("out", "site", "folder to write the site to")
	nbs := fl.String("notebooks", "", "folder holding the course notebooks (default: notebooks/ of the checkout)")
	zh := fl.String("zh", "", "folder holding the Chinese edition's notebooks, or \"none\" (default: zh/ in the notebooks folder, when it holds notebooks)")
	title := fl.String("title", DefaultTitle, "course title")
	nm := fl.String("node-modules", "", "npm packages installed by set-up (default: kernel/site/web/node_modules of the checkout)")
	lib := fl.String("echarts", "", "echarts.min.js, from which the site writes the lib/echarts.js its charts load (default: kernel/js's, of the checkout)")
	if err := fl.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", ErrUsage, fl.Args())
	}
	if *nbs == "" || *nm == "" || *lib == "" {
		root, err := checkout.Root()
		if err != nil {
			return err
		}
		if *nbs == "" {
			*nbs = filepath.Join(root, "notebooks")
		}
		if *nm == "" {
			*nm = filepath.Join(root, "kernel", "site", "web", "node_modules")
		}
		if *lib == "" {
			*lib = chart.CheckoutECharts(root)
		}
	}
	switch *zh {
	case "none":
		*zh = ""
	case "":
		if paths, err := notebook.Find(filepath.Join(*nbs, "zh")); err == nil && len(paths) > 0 {
			*zh = filepath.Join(*nbs, "zh")
		}
	}
	rep, err := Build(Options{Notebooks: *nbs, Chinese: *zh, Out: *out, NodeModules: *nm, ChartLibrary: *lib, Title: *title})
	if err != nil {
		return err
	}
	// A site with a broken link or a script from the network is not shipped quietly.
	problems, err := CheckLinks(*out)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("the site in %s has %d link problems:\n  %s", *out, len(problems), strings.Join(problems, "\n  "))
	}
	editions := "English"
	if *zh != "" {
		editions = "English and Chinese (zh/)"
	}
	fmt.Printf("site: %s, %d pages, %d files, %.1f MB in %s (open %s); %d charts load one echarts file per edition, %s\n",
		editions, rep.Pages, rep.Files, float64(rep.Bytes)/1e6, *out, filepath.Join(*out, "index.html"), rep.Charts, chart.LibraryPath)
	if rep.LargeScripts > 0 {
		fmt.Printf("site: warning: %d inline scripts over 100 kB in the outputs: re-record the notebooks that still inline the chart library\n", rep.LargeScripts)
	}
	return nil
}

// npmFiles are the files copied from the npm packages: site path -> path under node_modules.
// KaTeX's fonts are copied as a folder beside them.
var npmFiles = map[string]string{
	"assets/katex/katex.min.js":  "katex/dist/katex.min.js",
	"assets/katex/katex.min.css": "katex/dist/katex.min.css",
	"assets/minisearch.js":       "minisearch/dist/umd/index.js",
}

// Build writes the site: the English edition at the root and, when opt.Chinese is set, the
// Chinese edition in zh/, each page linked to its twin in the other edition.
func Build(opt Options) (*Report, error) {
	if opt.Title == "" {
		opt.Title = DefaultTitle
	}
	for _, src := range npmFiles {
		if _, err := os.Stat(filepath.Join(opt.NodeModules, src)); err != nil {
			return nil, fmt.Errorf("%s missing in %s: run `make setup`", src, opt.NodeModules)
		}
	}
	echarts, err := os.ReadFile(opt.ChartLibrary)
	if err != nil {
		return nil, fmt.Errorf("echarts library missing (%v): run `make setup`", err)
	}
	en, err := findChapters(opt.Notebooks, english)
	if err != nil {
		return nil, err
	}
	if en, err = withReferences(en, opt.Notebooks, english); err != nil {
		return nil, err
	}
	ledger, err := readLedger(opt.Notebooks)
	if err != nil {
		return nil, err
	}
	var zh []*chapter
	if opt.Chinese != "" {
		if zh, err = findChapters(opt.Chinese, chinese); err != nil {
			return nil, err
		}
		if zh, err = withReferences(zh, opt.Chinese, chinese); err != nil {
			return nil, err
		}
		pair(en, zh)
	}
	stage, err := stageOut(opt.Out)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage) // gone already when the export succeeded
	rep := &Report{}
	w := &writer{root: stage}
	if err := buildEdition(w, opt, english, en, ledger, zh != nil, echarts, rep); err != nil {
		return nil, err
	}
	if zh != nil {
		wz := &writer{root: filepath.Join(stage, filepath.FromSlash(chinese.Dir))}
		if err := buildEdition(wz, opt, chinese, zh, ledger, true, echarts, rep); err != nil {
			return nil, err
		}
		w.files, w.size = w.files+wz.files, w.size+wz.size
	}
	if err := swapIn(stage, opt.Out); err != nil {
		return nil, err
	}
	rep.Files, rep.Bytes = w.files, w.size
	return rep, nil
}

// pair links each chapter to its twin in the other edition. A chapter with no twin links to the
// other edition's index.
func pair(en, zh []*chapter) {
	link(en, zh, english.toOther)
	link(zh, en, chinese.toOther)
}

// link points each chapter of from at the page of the same name among to, reached by prefix.
func link(from, to []*chapter, prefix string) {
	has := map[string]bool{}
	for _, c := range to {
		has[c.Page] = true
	}
	for _, c := range from {
		c.Twin = prefix + "index.html"
		if has[c.Page] {
			c.Twin = prefix + c.Page
		}
	}
}

// buildEdition writes one edition's pages, notebooks, assets and search index with w; ledger,
// when set, lists each chapter's sources at its end; twins says that the site has the other
// edition, for the pages' language switch.
func buildEdition(w *writer, opt Options, ed *edition, chs []*chapter, ledger *sources.Ledger, twins bool, echarts []byte, rep *Report) error {
	assets := assetFiles{}
	rep.Pages += len(chs) + 1
	if ed.title != "" && opt.Title == DefaultTitle {
		opt.Title = ed.title
	}
	var docs []searchDoc
	tmplChapter, tmplIndex, err := parseTemplates(ed)
	if err != nil {
		return err
	}
	other := func(twin string) *switchLink {
		if !twins {
			return nil
		}
		if ed == english {
			return &switchLink{Href: twin, Lang: chinese.Lang, Name: chinese.Name}
		}
		return &switchLink{Href: twin, Lang: english.Lang, Name: english.Name}
	}
	for i, ch := range chs {
		pg := chapterPage{layout: layout{Title: opt.Title, Chapters: chs, Current: ch.Page, Ed: ed, UI: ed.UI, Switch: other(ch.Twin)}, Chapter: ch}
		if i > 0 {
			pg.Prev = chs[i-1]
		}
		if i+1 < len(chs) {
			pg.Next = chs[i+1]
		}
		pg.PageTitle = ch.Full() + " · " + opt.Title
		secs, err := pg.render(assets, ledger, rep)
		if err != nil {
			return fmt.Errorf("%s: %w", ch.File, err)
		}
		for _, s := range secs {
			if s.ID == "" && strings.TrimSpace(s.Text.String()) == "" {
				continue // nothing before the title
			}
			docs = append(docs, newSearchDoc(ch, s, len(docs)))
		}
		if err := w.template(ch.Page, tmplChapter, pg); err != nil {
			return err
		}
		if err := w.copyFile("notebooks/"+ch.File, filepath.Join(ch.dir, ch.File)); err != nil {
			return err
		}
	}
	idx := indexPage{layout: layout{Title: opt.Title, Chapters: chs, Current: "index.html", PageTitle: opt.Title, Ed: ed, UI: ed.UI, Switch: other(ed.toOther + "index.html")}}
	md := newMarkdownRenderer(ed.Lang)
	for _, ch := range chs {
		intro, _, _, err := md.render(ch.Intro, &section{})
		if err != nil {
			return fmt.Errorf("%s: introduction: %w", ch.File, err)
		}
		idx.Index = append(idx.Index, indexRow{Chapter: ch, Intro: template.HTML(pageLinks(unwrapParagraph(intro)))})
	}
	if err := w.template("index.html", tmplIndex, idx); err != nil {
		return err
	}
	if err := writeAssets(w, opt.NodeModules, assets, docs); err != nil {
		return err
	}
	// Where the notebooks' charts look for echarts: the same path, relative to the page. Each
	// edition has its copy, since the outputs, as recorded, name it relative to their own page.
	if rep.Charts > 0 {
		return w.bytes(chart.LibraryPath, chart.Library(echarts))
	}
	return nil
}

// stageOut checks that out may be replaced (it is missing, empty, or an earlier export) and makes
// the folder beside it that the new export is written to, marked as an export from the start.
// Folders left by an export that was killed midway are removed first.
func stageOut(out string) (string, error) {
	entries, err := os.ReadDir(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(out, marker)); err != nil {
			return "", fmt.Errorf("%s is not empty and holds no earlier site export: refusing to replace it", out)
		}
	}
	parent, base := filepath.Dir(filepath.Clean(out)), filepath.Base(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("cannot create the folder of %s: %w", out, errors.Unwrap(err))
	}
	stale, _ := filepath.Glob(filepath.Join(parent, "."+base+".new-*"))
	for _, dir := range stale {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			os.RemoveAll(dir)
		}
	}
	stage, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return "", fmt.Errorf("cannot write the export beside %s: %w", out, errors.Unwrap(err))
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		return "", err
	}
	note := []byte("written by the course's site export; the whole folder is replaced on the next export\n")
	return stage, os.WriteFile(filepath.Join(stage, marker), note, 0o644)
}

// swapIn puts the finished export stage in place of out: out moves aside, stage takes its name,
// and only then is the earlier export removed. If the swap fails, out is put back.
func swapIn(stage, out string) error {
	aside := ""
	if _, err := os.Lstat(out); err == nil {
		aside = stage + ".old"
		if err := os.Rename(out, aside); err != nil {
			return fmt.Errorf("replacing %s: %w", out, err)
		}
	}
	if err := os.Rename(stage, out); err != nil {
		if aside != "" {
			os.Rename(aside, out)
		}
		return fmt.Errorf("replacing %s: %w", out, err)
	}
	if aside != "" {
		return os.RemoveAll(aside)
	}
	return nil
}

type layout struct {
	Title     string
	PageTitle string
	Chapters  []*chapter
	Current   string // page file name, for marking the current chapter
	TOC       []heading
	Ed        *edition
	UI        ui
	Switch    *switchLink // to the same page in the other edition; nil when the site has one
}

// switchLink is a page's link to its twin in the other edition.
type switchLink struct{ Href, Lang, Name string }

type chapterPage struct {
	layout
	Chapter    *chapter
	Prev, Next *chapter
	Cells      []template.HTML
}

type indexRow struct {
	Chapter *chapter
	Intro   template.HTML
}

type indexPage struct {
	layout
	Index []indexRow
}

// render turns the chapter's cells into HTML blocks and its table of contents, and returns the
// searchable sections.
func (pg *chapterPage) render(assets assetFiles, ledger *sources.Ledger, rep *Report) ([]*section, error) {
	md := newMarkdownRenderer(pg.Ed.Lang)
	outs := &outputRenderer{assets: assets, md: md}
	defer func() { rep.Charts += outs.charts; rep.LargeScripts += outs.large }()
	for i := range pg.Chapter.nb.Cells {
		md.ids.Put([]byte(cellID(i)))
	}
	cur := &section{Title: pg.Chapter.Title}
	secs := []*section{cur}
	for i, c := range pg.Chapter.nb.Cells {
		var b strings.Builder
		switch c.Type {
		case "markdown":
			h, heads, newSecs, err := md.render(c.Source, cur)
			if err != nil {
				return nil, fmt.Errorf("cell %d: %w", i+1, err)
			}
			for _, hd := range heads {
				if hd.Level == 2 || hd.Level == 3 {
					pg.TOC = append(pg.TOC, hd)
				}
			}
			if len(newSecs) > 0 {
				secs = append(secs, newSecs...)
				cur = newSecs[len(newSecs)-1]
			}
			fmt.Fprintf(&b, "<section class=\"cell cell-markdown\" id=\"%s\">\n%s</section>", cellID(i), pageLinks(h))
		case "code":
			src := c.Source
			code, err := highlight(src, "go")
			if err != nil {
				return nil, fmt.Errorf("cell %d: %w", i+1, err)
			}
			outHTML, err := outs.render(c.Outputs)
			if err != nil {
				return nil, fmt.Errorf("cell %d: %w", i+1, err)
			}
			saved := ""
			if strings.HasPrefix(strings.TrimSpace(src), "//@save") {
				saved = fmt.Sprintf(`<span class="saved" title="%s">%s</span>`, html.EscapeString(pg.UI.SavedTitle), html.EscapeString(pg.UI.Saved))
			}
			fmt.Fprintf(&b, "<section class=\"cell cell-code\" id=\"%s\">\n<div class=\"cell-input\">%s%s</div>\n", cellID(i), saved, code)
			if outHTML != "" {
				fmt.Fprintf(&b, "<div class=\"cell-outputs\">\n%s</div>\n", outHTML)
			}
			b.WriteString("</section>")
			cur.Text.WriteString(src)
			cur.Text.WriteByte('\n')
		default:
			continue // raw cells are for other converters
		}
		pg.Cells = append(pg.Cells, template.HTML(b.String()))
	}
	h, heads, err := pg.sourcesSection(md, ledger, cur)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	if h != "" {
		pg.Cells = append(pg.Cells, h)
		pg.TOC = append(pg.TOC, heads...)
	}
	return secs, nil
}

// cellID names a cell's anchor by its 1-based position among all cells, as Jupyter and the
// output checker count them.
func cellID(i int) string { return fmt.Sprintf("cell-%d", i+1) }

// unwrapParagraph drops the <p> around a one-paragraph rendering, for use inside a table cell.
func unwrapParagraph(h string) string {
	h = strings.TrimSpace(h)
	if strings.HasPrefix(h, "<p>") && strings.HasSuffix(h, "</p>") && strings.Count(h, "<p>") == 1 {
		return strings.TrimSuffix(strings.TrimPrefix(h, "<p>"), "</p>")
	}
	return h
}

func parseTemplates(ed *edition) (chapter, index *template.Template, err error) {
	chapter, err = template.ParseFS(embedded, "templates/layout.html", "templates/chapter.html")
	if err != nil {
		return nil, nil, fmt.Errorf("chapter template: %w", err)
	}
	index, err = template.ParseFS(embedded, "templates/layout.html", ed.index)
	if err != nil {
		return nil, nil, fmt.Errorf("index template: %w", err)
	}
	return chapter, index, nil
}

// searchDoc is one searchable section of the course.
type searchDoc struct {
	ID      int    `json:"id"`
	Chapter string `json:"chapter"` // "Chapter 6: Policy gradients"
	Title   string `json:"title"`   // the section's heading
	URL     string `json:"url"`
	Text    string `json:"text"`
}

func newSearchDoc(ch *chapter, s *section, id int) searchDoc {
	url := ch.Page
	if s.ID != "" {
		url += "#" + s.ID
	}
	return searchDoc{ID: id, Chapter: ch.Full(), Title: s.Title, URL: url,
		Text: strings.Join(strings.Fields(html.UnescapeString(s.Text.String())), " ")}
}

func writeAssets(w *writer, nodeModules string, assets assetFiles, docs []searchDoc) error {
	for dst, src := range npmFiles {
		if err := w.copyFile(dst, filepath.Join(nodeModules, src)); err != nil {
			return err
		}
	}
	fonts := filepath.Join(nodeModules, "katex", "dist", "fonts")
	entries, err := os.ReadDir(fonts)
	if err != nil {
		return fmt.Errorf("KaTeX fonts: %w (run `make setup`)", err)
	}
	for _, e := range entries {
		if err := w.copyFile("assets/katex/fonts/"+e.Name(), filepath.Join(fonts, e.Name())); err != nil {
			return err
		}
	}
	for _, name := range []string{"style.css", "site.js"} {
		b, err := embedded.ReadFile("static/" + name)
		if err != nil {
			return err
		}
		if err := w.bytes("assets/"+name, b); err != nil {
			return err
		}
	}
	css, err := codeCSS()
	if err != nil {
		return err
	}
	if err := w.bytes("assets/code.css", []byte(css)); err != nil {
		return err
	}
	for path, b := range assets {
		if err := w.bytes(path, b); err != nil {
			return err
		}
	}
	corpus, err := json.Marshal(struct {
		Docs []searchDoc `json:"docs"`
	}{docs})
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	if err := w.bytes("assets/search-index.json", corpus); err != nil {
		return err
	}
	// The same corpus as a script, for pages opened from file:// where fetch() is refused.
	return w.bytes("assets/search-index.js", append(append([]byte("window.COURSE_SEARCH = "), corpus...), ";\n"...))
}

// writer writes files under the site root and counts them.
type writer struct {
	root  string
	files int
	size  int64
}

func (w *writer) bytes(rel string, b []byte) error {
	p := filepath.Join(w.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return err
	}
	w.files++
	w.size += int64(len(b))
	return nil
}

func (w *writer) template(rel string, t *template.Template, data any) error {
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		return fmt.Errorf("rendering %s: %w", rel, err)
	}
	return w.bytes(rel, []byte(b.String()))
}

func (w *writer) copyFile(rel, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	b, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	return w.bytes(rel, b)
}
