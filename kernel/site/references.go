package site

import (
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/sources"
)

// withReferences appends the edition's References notebook (package sources generates it in
// each edition's folder) to its chapters as a page of its own, when there is one.
func withReferences(chs []*chapter, dir string, ed *edition) ([]*chapter, error) {
	path := filepath.Join(dir, sources.File)
	nb, err := notebook.Read(path)
	if errors.Is(err, os.ErrNotExist) {
		return chs, nil
	}
	if err != nil {
		return nil, err
	}
	ch := &chapter{File: sources.File, Page: strings.TrimSuffix(sources.File, ".ipynb") + ".html", Labelled: true, sep: ed.sep, dir: dir, nb: nb}
	if ch.Title, ch.Intro, err = titleOf(nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return append(chs, ch), nil
}

// readLedger reads the source ledger beside the notebooks; nil when there is none.
func readLedger(notebooks string) (*sources.Ledger, error) {
	l, err := sources.ReadLedger(filepath.Join(notebooks, filepath.Base(sources.LedgerPath)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return l, err
}

// notebookHref is a link from a page's markdown to another notebook of the book: on the site it
// goes to that notebook's page.
var notebookHref = regexp.MustCompile(`href="([A-Za-z0-9_]+)\.ipynb(#[^"]*)?"`)

func pageLinks(h string) string { return notebookHref.ReplaceAllString(h, `href="$1.html$2"`) }

// sourcesWords head a chapter's list of sources, per edition.
var sourcesWords = map[*edition]string{english: "Sources", chinese: "来源"}

// sourcesSection lists the entries a chapter cites, in the order it first cites them, each linked
// to its entry on the References page; "" when it cites none.
func (pg *chapterPage) sourcesSection(md *markdownRenderer, l *sources.Ledger, cur *section) (template.HTML, []heading, error) {
	if l == nil || pg.Chapter.File == sources.File {
		return "", nil, nil
	}
	var keys []string
	seen := map[string]bool{}
	for _, c := range pg.Chapter.nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		for _, ct := range sources.Citations(c.Source) {
			if !seen[ct.Key] && l.Entry(ct.Key) != nil {
				seen[ct.Key] = true
				keys = append(keys, ct.Key)
			}
		}
	}
	if len(keys) == 0 {
		return "", nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", sourcesWords[pg.Ed])
	for _, k := range keys {
		e := l.Entry(k)
		fmt.Fprintf(&b, "- %s. [*%s*](%s#%s). %s, %s.\n", strings.TrimSuffix(e.Authors, "."), e.Title, sources.File, k, e.Venue, e.Date)
	}
	h, heads, _, err := md.render(b.String(), cur)
	if err != nil {
		return "", nil, err
	}
	return template.HTML(fmt.Sprintf("<section class=\"cell cell-markdown\" id=\"sources\">\n%s</section>", pageLinks(h))), heads, nil
}
