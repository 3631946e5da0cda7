package translate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark"

	"github.com/agenticrl/course/kernel/notebook"
)

// MetaKey is the markdown cell metadata key under which a translation records its source:
// {"source_sha256": "<hex SHA-256 of the English cell's text>"}.
const MetaKey = "translation"

// SourceHash is the hash a translation records of the English text it translates.
func SourceHash(english string) string {
	h := sha256.Sum256([]byte(english))
	return hex.EncodeToString(h[:])
}

// Problem is one way a Chinese notebook differs from what its English twin requires.
type Problem struct {
	Cell int    // 1-based position in the English notebook; 0 for the notebook as a whole
	ID   string // the cell's id
	What string
}

func (p Problem) String() string {
	if p.Cell == 0 {
		return p.What
	}
	return fmt.Sprintf("cell %d (%s): %s", p.Cell, p.ID, p.What)
}

// translation is the metadata a translated markdown cell carries.
type translation struct {
	SourceSHA256 string `json:"source_sha256"`
}

// recordedHash returns the hash a Chinese cell records, "" when it records none.
func recordedHash(c *notebook.Cell) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(c.Metadata, &m) != nil {
		return ""
	}
	var t translation
	if json.Unmarshal(m[MetaKey], &t) != nil {
		return ""
	}
	return t.SourceSHA256
}

// withoutTranslation is a cell's metadata less MetaKey, in canonical form.
func withoutTranslation(raw json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return canonical(raw)
	}
	delete(m, MetaKey)
	b, _ := json.Marshal(m)
	return canonical(b)
}

// canonical re-encodes JSON with sorted keys, so that equal values compare equal as strings.
func canonical(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// cellJSON is a code or raw cell as the notebook file stores it (source, outputs, execution
// count, metadata).
func cellJSON(c *notebook.Cell) string {
	b, err := (&notebook.Notebook{Cells: []*notebook.Cell{c}, NBFormat: 4, NBFormatMinor: 5}).Marshal()
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// Check compares the Chinese notebook zh with its English twin en and returns every problem, in
// the English cell order. A nil glossary skips the glossary check.
func Check(en, zh *notebook.Notebook, g *Glossary) []Problem {
	var ps []Problem
	add := func(cell int, id, format string, args ...any) {
		ps = append(ps, Problem{Cell: cell, ID: id, What: fmt.Sprintf(format, args...)})
	}
	if en.NBFormat != zh.NBFormat || en.NBFormatMinor != zh.NBFormatMinor {
		add(0, "", "nbformat %d.%d, the English has %d.%d", zh.NBFormat, zh.NBFormatMinor, en.NBFormat, en.NBFormatMinor)
	}
	if canonical(en.Metadata) != canonical(zh.Metadata) {
		add(0, "", "notebook metadata differs from the English (run sync)")
	}
	byID := map[string]*notebook.Cell{}
	for _, c := range zh.Cells {
		byID[c.ID] = c
	}
	enIDs := map[string]bool{}
	var order []string // ids of the English cells the Chinese has, in English order
	for i, e := range en.Cells {
		enIDs[e.ID] = true
		z, ok := byID[e.ID]
		if !ok {
			add(i+1, e.ID, "missing from the Chinese notebook")
			continue
		}
		order = append(order, e.ID)
		ps = append(ps, checkCell(i+1, e, z, g)...)
	}
	for _, z := range zh.Cells {
		if !enIDs[z.ID] {
			add(0, "", "cell %q of the Chinese notebook is not in the English one", z.ID)
		}
	}
	var zhOrder []string
	for _, z := range zh.Cells {
		if enIDs[z.ID] {
			zhOrder = append(zhOrder, z.ID)
		}
	}
	if !slices.Equal(order, zhOrder) {
		add(0, "", "the cells are not in the English order")
	}
	return ps
}

func checkCell(n int, e, z *notebook.Cell, g *Glossary) []Problem {
	var ps []Problem
	add := func(format string, args ...any) {
		ps = append(ps, Problem{Cell: n, ID: e.ID, What: fmt.Sprintf(format, args...)})
	}
	if e.Type != z.Type {
		add("a %s cell in the Chinese notebook, a %s cell in the English", z.Type, e.Type)
		return ps
	}
	if e.Type != "markdown" {
		if e.Source != z.Source {
			add("code differs from the English")
		} else if cellJSON(e) != cellJSON(z) {
			add("outputs, execution count or metadata differ from the English")
		}
		return ps
	}
	if withoutTranslation(e.Metadata) != withoutTranslation(z.Metadata) {
		add("metadata differs from the English")
	}
	switch h := recordedHash(z); {
	case h == "":
		add("not translated")
		return ps
	case h != SourceHash(e.Source):
		add("stale: the English text changed after this translation")
		return ps
	}
	for _, d := range Differences(e.Source, z.Source) {
		add("%s", d)
	}
	if g != nil {
		for _, t := range g.Missing(e.Source, z.Source) {
			add("glossary: the English says %q, the Chinese lacks %q (%s:%d)", t.En, t.Zh, g.Path, t.Line)
		}
	}
	return ps
}

var heading = regexp.MustCompile(`(?m)^(#{1,6}) `)

// Differences lists what a translation changed that must stay as it is: display and inline math,
// code spans and link targets (in any order, since Chinese word order differs), the levels of the
// headings, and how much emphasis renders.
func Differences(en, zh string) []string {
	noCode := func(s string) string { return codeSpan.ReplaceAllString(fencedCode.ReplaceAllString(s, ""), "") }
	kinds := []struct {
		name   string
		sorted bool
		get    func(string) []string
	}{
		{"display math", true, func(s string) []string { return displayMath.FindAllString(noCode(s), -1) }},
		{"inline math", true, func(s string) []string {
			return inlineMath.FindAllString(displayMath.ReplaceAllString(noCode(s), ""), -1)
		}},
		{"code spans", true, func(s string) []string { return codeSpan.FindAllString(fencedCode.ReplaceAllString(s, ""), -1) }},
		{"link targets", true, func(s string) []string { return linkTarget.FindAllString(s, -1) }},
		{"heading levels", false, func(s string) []string {
			var l []string
			for _, m := range heading.FindAllStringSubmatch(fencedCode.ReplaceAllString(s, ""), -1) {
				l = append(l, m[1])
			}
			return l
		}},
		{"emphasis markup", false, emphasis},
	}
	var out []string
	for _, k := range kinds {
		a, b := k.get(en), k.get(zh)
		if k.sorted {
			slices.Sort(a)
			slices.Sort(b)
		}
		if !slices.Equal(a, b) {
			out = append(out, fmt.Sprintf("%s differ from the English: %s", k.name, firstDiff(a, b)))
		}
	}
	return out
}

// emphasis counts the stars and underscores a markdown text shows as typed once rendered, with
// code and math set aside (they hold both). Chinese needs care here: a closing "*" between
// full-width punctuation and a letter, as in "*症状：*文本", does not close the emphasis, and the
// stars show. (A translation may emphasise more than the English, a gloss for instance, so the
// count of <em> is not compared.)
func emphasis(md string) []string {
	for _, re := range []*regexp.Regexp{fencedCode, codeSpan, displayMath, inlineMath} {
		md = re.ReplaceAllString(md, "x")
	}
	var b strings.Builder
	if err := goldmark.Convert([]byte(md), &b); err != nil {
		return []string{err.Error()}
	}
	return []string{fmt.Sprintf("%d literal * and %d literal _", strings.Count(b.String(), "*"), strings.Count(b.String(), "_"))}
}

// firstDiff names the first element one list has and the other lacks.
func firstDiff(a, b []string) string {
	count := map[string]int{}
	for _, s := range b {
		count[s]++
	}
	for _, s := range a {
		if count[s] == 0 {
			return fmt.Sprintf("the English has %q, the Chinese does not", s)
		}
		count[s]--
	}
	for _, s := range b {
		if count[s] > 0 {
			return fmt.Sprintf("the Chinese has %q, the English does not", s)
		}
	}
	return fmt.Sprintf("%s, the English has %s", strings.Join(b, " "), strings.Join(a, " "))
}
