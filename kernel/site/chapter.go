package site

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// chapter is one notebook as the site sees it.
type chapter struct {
	File  string // notebook file name, e.g. ch06_policy_gradients.ipynb
	Page  string // page file name, e.g. ch06_policy_gradients.html
	Label string // "Chapter 6", "Appendix A"
	Short string // "6", "A": for the chapter list
	Title string // the first markdown cell's "# " heading, less a leading "Chapter 6:" (lists add the label)
	// Labelled says that the heading itself starts with the label, so the page need not repeat it.
	Labelled bool
	Intro    string // first paragraph after the title, as plain text, for the index table
	// Twin is the page of the same chapter in the other edition, relative to this page; "" when
	// there is none.
	Twin string
	sep  string // joins Label and Title: the edition's
	dir  string // the folder the notebook was read from
	nb   *notebook.Notebook
}

// Full is the chapter's label and title: "Chapter 6: Policy gradients", "第 6 章：策略梯度".
func (c *chapter) Full() string {
	if c.Label == "" { // a page that is no chapter: References
		return c.Title
	}
	return c.Label + c.sep + c.Title
}

var notebookName = regexp.MustCompile(`^(ch(\d\d)|app([A-Z]))_[a-z0-9_]+\.ipynb$`)

// findChapters reads every course notebook in dir, in reading order: chapters by number, then
// appendices by letter, labelled in the edition's language. A notebook whose name starts like a chapter but does not follow the
// naming scheme is an error rather than silently left out, so a misnamed chapter cannot vanish
// from the site.
func findChapters(dir string, ed *edition) ([]*chapter, error) {
	paths, err := notebook.Find(dir)
	if err != nil {
		return nil, fmt.Errorf("reading notebooks: %w", err)
	}
	var chs []*chapter
	seen := map[string]string{} // label -> file
	for _, p := range paths {
		name := filepath.Base(p)
		m := notebookName.FindStringSubmatch(name)
		if m == nil {
			return nil, fmt.Errorf("%s: notebook name must be chNN_slug.ipynb or appX_slug.ipynb", p)
		}
		ch := &chapter{File: name, Page: strings.TrimSuffix(name, ".ipynb") + ".html", sep: ed.sep, dir: dir}
		if m[2] != "" {
			n, _ := strconv.Atoi(m[2])
			ch.Short = strconv.Itoa(n)
			ch.Label = ed.chapterLabel(ch.Short)
		} else {
			ch.Short = m[3]
			ch.Label = ed.appendixLabel(ch.Short)
		}
		if other, dup := seen[ch.Label]; dup {
			return nil, fmt.Errorf("%s and %s are both %s", other, name, ch.Label)
		}
		seen[ch.Label] = name
		if ch.nb, err = notebook.Read(p); err != nil {
			return nil, err
		}
		if ch.Title, ch.Intro, err = titleOf(ch.nb); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if n := ed.ownLabel(ch.Title, ch.Short); n > 0 {
			ch.Title, ch.Labelled = ch.Title[n:], true
		}
		chs = append(chs, ch)
	}
	if len(chs) == 0 {
		return nil, fmt.Errorf("no notebooks in %s", dir)
	}
	return chs, nil
}

// titleOf returns the first markdown cell's "# " heading and the paragraph that follows it.
func titleOf(nb *notebook.Notebook) (title, intro string, err error) {
	for _, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		lines := strings.Split(c.Source, "\n")
		for i, l := range lines {
			if !strings.HasPrefix(l, "# ") {
				continue
			}
			title = strings.TrimSpace(strings.TrimPrefix(l, "# "))
			var para []string
			for _, p := range lines[i+1:] {
				p = strings.TrimSpace(p)
				if p == "" && len(para) > 0 {
					break
				}
				if p == "" {
					continue
				}
				if strings.HasPrefix(p, "#") || strings.HasPrefix(p, "$$") {
					break
				}
				para = append(para, p)
			}
			return title, strings.Join(para, " "), nil
		}
		return "", "", fmt.Errorf("first markdown cell has no \"# \" title line")
	}
	return "", "", fmt.Errorf("no markdown cell: the first one must hold the \"# \" title")
}
