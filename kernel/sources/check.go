package sources

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/translate"
)

// Doc is a text that cites sources: a notebook (its markdown cells) or a README (one cell).
type Doc struct {
	File  string // as problems name it: notebooks/ch10_kl_entropy.ipynb, README.md
	Name  string // the notebook's file name ("" for a README): the target of a back link
	Cells []Cell
}

// Cell is one markdown cell of a doc.
type Cell struct {
	ID     string // the notebook's cell id; "" for a README
	Index  int    // position in the notebook, from 0 (the site's anchor is cell-Index+1)
	Source string
	Keys   []string // the keys it cites, sorted (newCell)
}

// newCell is a markdown cell with its citations read once.
func newCell(id string, index int, source string) Cell {
	return Cell{ID: id, Index: index, Source: source, Keys: keys(source)}
}

// Citation is one link to an entry.
type Citation struct {
	Key, Text string
}

// citation matches a link to an entry of the References notebook, from a chapter (same folder)
// or from a README (notebooks/).
var citation = regexp.MustCompile(`\[([^\]]*)\]\((?:notebooks/)?references\.ipynb#([^)\s]*)\)`)

var (
	fencedCode = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpan   = regexp.MustCompile("`[^`\n]+`")
)

// Citations lists the citations of a markdown text, in order; a link inside code is an example,
// not a citation.
func Citations(md string) []Citation {
	md = codeSpan.ReplaceAllString(fencedCode.ReplaceAllString(md, " "), " ")
	var out []Citation
	for _, m := range citation.FindAllStringSubmatch(md, -1) {
		out = append(out, Citation{Key: m[2], Text: m[1]})
	}
	return out
}

// keys is the sorted set of keys a text cites.
func keys(md string) []string {
	var ks []string
	for _, c := range Citations(md) {
		if !slices.Contains(ks, c.Key) {
			ks = append(ks, c.Key)
		}
	}
	sort.Strings(ks)
	return ks
}

// ReadNotebooks reads the book's notebooks in dir (chapters and appendices, notebook.Find) as
// docs named relative to root.
func ReadNotebooks(root, dir string) ([]*Doc, error) {
	paths, err := notebook.Find(dir)
	if err != nil {
		return nil, err
	}
	var docs []*Doc
	for _, p := range paths {
		nb, err := notebook.Read(p)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, p)
		d := &Doc{File: rel, Name: filepath.Base(p)}
		for i, c := range nb.Cells {
			if c.Type == "markdown" {
				d.Cells = append(d.Cells, newCell(c.ID, i, c.Source))
			}
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// Problem is one thing Check found wrong.
type Problem struct {
	File, Cell, Key, What string
}

func (p Problem) String() string {
	s := p.File
	if p.Cell != "" {
		s += ", cell " + p.Cell
	}
	if p.Key != "" {
		s += ", key " + p.Key
	}
	return s + ": " + p.What
}

// Check holds the English docs en and their Chinese twins zh (the same notebooks in the other
// edition, and the other README) to the ledger; see the package doc. A doc without a twin is left
// to book zh check.
func Check(l *Ledger, en, zh []*Doc) []Problem {
	var ps []Problem
	cited := map[string]bool{}
	for _, d := range append(slices.Clone(en), zh...) {
		for _, c := range d.Cells {
			for _, ct := range Citations(c.Source) {
				e := l.Entry(ct.Key)
				switch {
				case e == nil:
					ps = append(ps, Problem{d.File, c.ID, ct.Key, "no such entry in " + filepath.Base(l.Path)})
				case !strings.Contains(ct.Text, e.Year()):
					ps = append(ps, Problem{d.File, c.ID, ct.Key, fmt.Sprintf("the link text %q does not give the source's year, %s", ct.Text, e.Year())})
				}
				cited[ct.Key] = true
			}
		}
	}
	for _, e := range l.Entries {
		if !cited[e.Key] {
			ps = append(ps, Problem{filepath.Base(l.Path), "", e.Key, "no chapter cites it"})
		}
	}
	for _, d := range en {
		ps = append(ps, reportedWithoutSource(d)...)
	}
	twins := map[string]*Doc{} // by notebook name; a README's name is ""
	for _, z := range zh {
		twins[z.Name] = z
	}
	for _, e := range en {
		if z := twins[e.Name]; z != nil {
			ps = append(ps, sameKeys(e, z)...)
		}
	}
	return ps
}

// sameKeys checks that each cell of the Chinese doc z cites the keys of its English cell.
func sameKeys(e, z *Doc) []Problem {
	zc := map[string][]string{}
	for _, c := range z.Cells {
		zc[c.ID] = c.Keys
	}
	var ps []Problem
	for _, c := range e.Cells {
		want, got := c.Keys, zc[c.ID]
		if !slices.Equal(want, got) {
			ps = append(ps, Problem{z.File, c.ID, strings.Join(symmetricDiff(want, got), ","),
				fmt.Sprintf("cites %v, the English cell %v", got, want)})
		}
	}
	return ps
}

func symmetricDiff(a, b []string) []string {
	var out []string
	for _, k := range a {
		if !slices.Contains(b, k) {
			out = append(out, k)
		}
	}
	for _, k := range b {
		if !slices.Contains(a, k) {
			out = append(out, k)
		}
	}
	return out
}

var (
	reportedWord    = regexp.MustCompile(`(?i)\breported\b`)
	etAl            = regexp.MustCompile(`\bet al\.`)
	reportedHeading = regexp.MustCompile(`(?m)^(#{1,6}) .*\(reported\)\s*$`)
	anyHeading      = regexp.MustCompile(`^(#{1,6}) `)
	sentenceEnd     = regexp.MustCompile(`[.!?][*_)"]*\s+[A-Z*_\[(]`)
	boldLabel       = regexp.MustCompile(`^\*\*[^*]+\*\*$`)
	listItem        = regexp.MustCompile(`\n\s*(?:[-*+]|\d+\.)\s`)
	// abbreviation matches text that ends in an abbreviation's full stop, after which a sentence
	// goes on: "Ziegler et al. (2019)", "e.g. The".
	abbreviation = regexp.MustCompile(`(?:\bet al|\be\.g|\bi\.e|\bcf|\bvs|\bFig|\bEq|\bSec|\bNo)\.$`)
)

// cite marks a citation in prose, once links are gone.
const cite = "\x00cite\x00"

// prose is a cell's text as sentences are read from it: citations marked, code and math gone.
func prose(md string) string {
	return translate.Prose(citation.ReplaceAllString(md, "$1 "+cite))
}

// reportedWithoutSource finds the sentences of d that say "reported", or name a work by "et al.",
// without a citation, and the paragraphs of a "(reported)" section without one.
func reportedWithoutSource(d *Doc) []Problem {
	var ps []Problem
	level := 0 // the level of the "(reported)" section the text is in; 0: none
	for _, c := range d.Cells {
		for _, para := range strings.Split(c.Source, "\n\n") {
			para = strings.TrimSpace(para)
			if m := anyHeading.FindStringSubmatch(para); m != nil {
				head, rest, _ := strings.Cut(para, "\n")
				if l := len(m[1]); level > 0 && l <= level {
					level = 0
				}
				if m := reportedHeading.FindStringSubmatch(head); m != nil {
					level = len(m[1])
				}
				if para = strings.TrimSpace(rest); para == "" {
					continue
				}
			}
			text := prose(para)
			if strings.TrimSpace(text) == "" {
				continue // math or code only
			}
			if level > 0 && !strings.Contains(text, cite) {
				ps = append(ps, Problem{d.File, c.ID, "", fmt.Sprintf("a paragraph of a \"(reported)\" section cites no source: %q", clip(para))})
				continue
			}
			ss := sentences(text)
			for i, s := range ss {
				switch {
				case strings.Contains(s, cite):
				case etAl.MatchString(s):
					ps = append(ps, Problem{d.File, c.ID, "", fmt.Sprintf("a sentence names a work (\"et al.\") and cites no source: %q", clip(s))})
				// A bold label ("**Sources (results as reported).**") heads what follows it.
				case reportedWord.MatchString(s) && !(boldLabel.MatchString(strings.TrimSpace(s)) && strings.Contains(strings.Join(ss[i+1:], " "), cite)):
					ps = append(ps, Problem{d.File, c.ID, "", fmt.Sprintf("a sentence says \"reported\" and cites no source: %q", clip(s))})
				}
			}
		}
	}
	return ps
}

// sentences splits prose at a full stop, question or exclamation mark followed by space and a
// capital (or markdown that opens one), and at line breaks between list items.
func sentences(text string) []string {
	var out []string
	for _, item := range listItem.Split(text, -1) {
		start := 0 // where the current sentence starts in item
		for from := 0; ; {
			loc := sentenceEnd.FindStringIndex(item[from:])
			if loc == nil {
				break
			}
			end := from + loc[1] - 1
			if !abbreviation.MatchString(item[:from+loc[0]+1]) {
				out = append(out, item[start:end])
				start = end
			}
			from = end
		}
		out = append(out, item[start:])
	}
	return out
}

// clip shortens s for a message.
func clip(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, cite, "")), " ")
	if r := []rune(s); len(r) > 90 {
		return string(r[:90]) + "…"
	}
	return s
}
