package sources

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// File is the name of the generated References notebook, in each edition's folder.
const File = "references.ipynb"

// words are the generated notebook's words in each edition.
type words struct {
	title, intro                   string
	inspected, notInspected, cited string
	chapter, appendix, cell, sep   string
	open, close                    string
}

var editions = map[string]words{
	"en": {
		title: "# References",
		intro: "Every external source the book relies on: its authors, title, venue and date, where to find it, " +
			"the date it was checked against what the book says of it, and what was checked. An entry marked " +
			"*not inspected* is cited as its authors report it: the book does not vouch for its figures. " +
			"The list is generated from the ledger `notebooks/sources.tsv` (`agentrl book sources build`).",
		inspected: "Inspected %s: %s", notInspected: "Not inspected (%s). The book takes from it: %s", cited: "Cited in: ",
		chapter: "Chapter %s", appendix: "Appendix %s", cell: "cell %d", sep: ", ", open: " (", close: ")",
	},
	"zh": {
		title: "# 参考文献",
		intro: "本书依据的全部外部来源：作者、标题、发表处与日期、地址，以及对照本书所述内容查阅的日期和查阅了什么。" +
			"标注为“未查阅”的条目按其作者的报告引用：本书不为其数字担保。本列表由来源台账 `notebooks/sources.tsv` 生成" +
			"（`agentrl book sources build`）。",
		inspected: "查阅于 %s：%s", notInspected: "未查阅（%s）。本书从中采用：%s", cited: "引用于：",
		chapter: "第 %s 章", appendix: "附录 %s", cell: "单元 %d", sep: "、", open: "（", close: "）",
	},
}

var chapterFile = regexp.MustCompile(`^(?:ch(\d\d)|app([A-Z]))_`)

// label is a doc's name in a back link: "Chapter 10", "Appendix B", "README".
func (w words) label(d *Doc) string {
	m := chapterFile.FindStringSubmatch(d.Name)
	switch {
	case m == nil:
		return d.File
	case m[1] != "":
		return fmt.Sprintf(w.chapter, strings.TrimPrefix(m[1], "0"))
	default:
		return fmt.Sprintf(w.appendix, m[2])
	}
}

// References builds the References notebook of an edition ("en" or "zh") from the ledger and
// that edition's docs: one markdown cell per entry, headed by its key (the anchor the citations
// link to, in Jupyter and on the site), with links back to every cell that cites it. meta is the
// notebook metadata (the chapters', so that it opens with the course's kernel). Not a chapter,
// it is neither executed nor translated cell by cell: both editions are generated.
func References(l *Ledger, docs []*Doc, edition string, meta *notebook.Notebook) *notebook.Notebook {
	w := editions[edition]
	nb := &notebook.Notebook{Metadata: meta.Metadata, NBFormat: meta.NBFormat, NBFormatMinor: meta.NBFormatMinor}
	add := func(id, src string) {
		nb.Cells = append(nb.Cells, &notebook.Cell{Type: "markdown", ID: id, Source: src, Metadata: []byte("{}")})
	}
	add("references-00", w.title+"\n\n"+w.intro)
	for _, e := range l.Entries {
		var b strings.Builder
		fmt.Fprintf(&b, "### %s\n\n%s. *%s*. %s, %s.", e.Key, strings.TrimSuffix(e.Authors, "."), e.Title, e.Venue, e.Date)
		if e.Address != "-" {
			fmt.Fprintf(&b, " <%s>", e.Address)
		}
		b.WriteString("\n\n")
		if e.IsInspected() {
			fmt.Fprintf(&b, w.inspected, e.Inspected, e.Checked)
		} else {
			fmt.Fprintf(&b, w.notInspected, strings.TrimPrefix(e.Inspected, "not inspected: "), e.Checked)
		}
		b.WriteString("\n\n" + w.cited + backLinks(w, e.Key, docs))
		add("ref-"+e.Key, b.String())
	}
	return nb
}

// backLinks lists the docs and cells that cite key: "Chapter 10 (cell 20, cell 27), README".
func backLinks(w words, key string, docs []*Doc) string {
	var parts []string
	for _, d := range docs {
		var cells []string
		for _, c := range d.Cells {
			if !slices.Contains(c.Keys, key) {
				continue
			}
			if d.Name == "" {
				cells = append(cells, "")
				break
			}
			cells = append(cells, fmt.Sprintf("[%s](%s#cell-%d)", fmt.Sprintf(w.cell, c.Index+1), d.Name, c.Index+1))
		}
		switch {
		case len(cells) == 0:
		case d.Name == "":
			parts = append(parts, w.label(d))
		default:
			parts = append(parts, w.label(d)+w.open+strings.Join(cells, w.sep)+w.close)
		}
	}
	return strings.Join(parts, w.sep)
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
