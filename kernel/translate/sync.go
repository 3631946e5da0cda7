package translate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// Todo is a markdown cell that needs translating: new in the English, or changed since its
// translation (Stale, with the old translation in Chinese).
type Todo struct {
	Cell    int // 1-based position in the notebook
	ID      string
	English string
	Chinese string // the stale translation; "" for a new cell
	Stale   bool
}

// Sync returns the Chinese notebook for en: its cells, code, outputs and metadata are en's, and
// each markdown cell keeps old's translation when old (which may be nil) has one. A cell whose
// translation is stale keeps it, with the hash of the English it translated, so that Check still
// reports it; a new cell gets the English text and no translation. Todo lists both kinds; dropped
// names old's cells that the English no longer has.
func Sync(en, old *notebook.Notebook) (zh *notebook.Notebook, todo []Todo, dropped []string) {
	prev := map[string]*notebook.Cell{}
	if old != nil {
		for _, c := range old.Cells {
			prev[c.ID] = c
		}
	}
	zh = &notebook.Notebook{Metadata: en.Metadata, NBFormat: en.NBFormat, NBFormatMinor: en.NBFormatMinor}
	kept := map[string]bool{}
	for i, e := range en.Cells {
		c := *e
		c.Outputs = append([]*notebook.Output(nil), e.Outputs...)
		if e.Type == "markdown" {
			p := prev[e.ID]
			h := ""
			if p != nil && p.Type == "markdown" {
				h = recordedHash(p)
			}
			switch {
			case h == SourceHash(e.Source):
				c.Source, c.Metadata = p.Source, withHash(e.Metadata, h)
			case h != "":
				c.Source, c.Metadata = p.Source, withHash(e.Metadata, h)
				todo = append(todo, Todo{Cell: i + 1, ID: e.ID, English: e.Source, Chinese: p.Source, Stale: true})
			default:
				todo = append(todo, Todo{Cell: i + 1, ID: e.ID, English: e.Source})
			}
		}
		kept[e.ID] = true
		zh.Cells = append(zh.Cells, &c)
	}
	if old != nil {
		for _, c := range old.Cells {
			if !kept[c.ID] {
				dropped = append(dropped, c.ID)
			}
		}
	}
	return zh, todo, dropped
}

// withHash is metadata with MetaKey set to record hash.
func withHash(meta json.RawMessage, hash string) json.RawMessage {
	m := map[string]any{}
	if len(meta) > 0 {
		json.Unmarshal(meta, &m)
	}
	if m == nil {
		m = map[string]any{}
	}
	m[MetaKey] = translation{SourceSHA256: hash}
	b, _ := json.Marshal(m)
	return b
}

// A worklist is a markdown file with one block per cell to translate. Each block starts with a
// header naming the cell and the hash of the English it translates; what follows, up to the next
// header, is the translation. A comment right after the header holding the English (as
// WriteWorklist writes it) is not part of the translation.
var workHeader = regexp.MustCompile(`(?m)^<!-- zh-cell: (\S+) en-sha256: ([0-9a-f]{64}) -->[ \t]*\n`)

const englishOpen, englishClose = "<!-- English:\n", "\n-->\n"

// Block is one translated cell of a worklist.
type Block struct {
	ID, Hash, Text string
}

// WriteWorklist renders todo as a worklist: for each cell the English as a comment, then the text
// to replace with the translation (the stale translation, or the English for a new cell).
func WriteWorklist(todo []Todo) string {
	var b strings.Builder
	b.WriteString("<!-- Translate each block below its English; keep each header line as it is, then run\n" +
		"     agentrl book zh apply CHAPTER THIS-FILE -->\n\n")
	for _, t := range todo {
		fmt.Fprintf(&b, "<!-- zh-cell: %s en-sha256: %s -->\n%s%s%s", t.ID, SourceHash(t.English),
			englishOpen, strings.ReplaceAll(t.English, "-->", "-- >"), englishClose)
		if t.Stale {
			b.WriteString(t.Chinese)
		} else {
			b.WriteString(t.English)
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// ParseWorklist reads the blocks of a worklist.
func ParseWorklist(text string) ([]Block, error) {
	locs := workHeader.FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return nil, fmt.Errorf("no \"<!-- zh-cell: ID en-sha256: HASH -->\" header")
	}
	var out []Block
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := text[l[1]:end]
		if strings.HasPrefix(body, englishOpen) {
			if k := strings.Index(body, englishClose); k >= 0 {
				body = body[k+len(englishClose):]
			}
		}
		out = append(out, Block{ID: text[l[2]:l[3]], Hash: text[l[4]:l[5]], Text: strings.Trim(body, "\n")})
	}
	return out, nil
}

// Apply writes the translations of blocks into zh, the Chinese twin of en (as Sync made it). It
// changes nothing unless every block is sound: it names a markdown cell, translates that cell's
// current English, keeps its math, code spans, link targets and heading levels, follows the
// glossary (when g is not nil), and no cell is given twice.
func Apply(en, zh *notebook.Notebook, blocks []Block, g *Glossary) error {
	enByID, zhByID := map[string]*notebook.Cell{}, map[string]*notebook.Cell{}
	for _, c := range en.Cells {
		enByID[c.ID] = c
	}
	for _, c := range zh.Cells {
		zhByID[c.ID] = c
	}
	var problems []string
	seen := map[string]bool{}
	for _, b := range blocks {
		e, z := enByID[b.ID], zhByID[b.ID]
		switch {
		case seen[b.ID]:
			problems = append(problems, fmt.Sprintf("%s: given twice", b.ID))
			continue
		case e == nil || z == nil:
			problems = append(problems, fmt.Sprintf("%s: no such cell in both editions (run sync first)", b.ID))
			continue
		case e.Type != "markdown":
			problems = append(problems, fmt.Sprintf("%s: a %s cell; only markdown is translated", b.ID, e.Type))
			continue
		case b.Hash != SourceHash(e.Source):
			problems = append(problems, fmt.Sprintf("%s: the English changed after this block was written: run sync and translate the new text", b.ID))
			continue
		case strings.TrimSpace(b.Text) == "":
			problems = append(problems, fmt.Sprintf("%s: empty translation", b.ID))
			continue
		}
		seen[b.ID] = true
		for _, d := range Differences(e.Source, b.Text) {
			problems = append(problems, fmt.Sprintf("%s: %s", b.ID, d))
		}
		if g != nil {
			for _, t := range g.Missing(e.Source, b.Text) {
				problems = append(problems, fmt.Sprintf("%s: glossary: the English says %q, the translation lacks %q", b.ID, t.En, t.Zh))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d problem(s), nothing applied:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	for _, b := range blocks {
		z := zhByID[b.ID]
		z.Source, z.Metadata = b.Text, withHash(enByID[b.ID].Metadata, b.Hash)
	}
	return nil
}
