package translate

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Term is one glossary entry: an English term of art and the Chinese the edition uses for it.
type Term struct {
	En, Zh string
	Line   int // line of the glossary file
	re     *regexp.Regexp
}

// Glossary is the edition's list of terms, in file order.
type Glossary struct {
	Path  string
	Terms []Term
}

// ReadGlossary reads a glossary file: one term per line, English<TAB>Chinese; blank lines and
// lines starting with # are comments.
func ReadGlossary(path string) (*Glossary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("glossary: %w", err)
	}
	defer f.Close()
	g := &Glossary{Path: path}
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" || strings.TrimSpace(parts[1]) == "" {
			return nil, fmt.Errorf("%s:%d: want English<TAB>Chinese, got %q", path, n, line)
		}
		en, zh := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		key := strings.ToLower(en)
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s:%d: %q is already listed on line %d", path, n, en, prev)
		}
		seen[key] = n
		g.Terms = append(g.Terms, Term{En: en, Zh: zh, Line: n, re: termPattern(en)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("glossary: %w", err)
	}
	if len(g.Terms) == 0 {
		return nil, fmt.Errorf("%s: no terms", path)
	}
	return g, nil
}

// termPattern matches a term as whole words, case-insensitively, with its inflections: plurals
// (policies, clips), -ed and -ing forms (clipped, clipping).
func termPattern(en string) *regexp.Regexp {
	q := regexp.QuoteMeta(strings.ToLower(en))
	alts := q + `(?:s|es|d|ed|ing)?`
	last := en[len(en)-1]
	if last == 'y' {
		alts += `|` + regexp.QuoteMeta(strings.ToLower(en[:len(en)-1])) + `ies`
	}
	if strings.IndexByte("bdgmnprt", last) >= 0 { // clip -> clipped, clipping
		alts += `|` + q + string(last) + `(?:ed|ing)`
	}
	return regexp.MustCompile(`(?i)\b(?:` + alts + `)\b`)
}

// Missing returns the terms whose English occurs in the prose of en while zh lacks the Chinese.
func (g *Glossary) Missing(en, zh string) []Term {
	ep, zp := strings.ToLower(Prose(en)), strings.ToLower(Prose(zh))
	var out []Term
	for _, t := range g.Terms {
		if t.re.MatchString(ep) && !strings.Contains(zp, strings.ToLower(t.Zh)) {
			out = append(out, t)
		}
	}
	return out
}

var (
	fencedCode  = regexp.MustCompile("(?ms)^```.*?^```")
	displayMath = regexp.MustCompile(`(?s)\$\$.+?\$\$`)
	inlineMath  = regexp.MustCompile(`\$[^$]+\$`) // may run over a line break
	codeSpan    = regexp.MustCompile("`[^`\n]+`")
	linkTarget  = regexp.MustCompile(`\]\([^)\s]*\)`)
)

// Prose is a markdown text without what is never translated: fenced code, code spans, math and
// link targets (code first, since a code span may hold a dollar sign).
func Prose(md string) string {
	for _, re := range []*regexp.Regexp{fencedCode, codeSpan, displayMath, inlineMath, linkTarget} {
		md = re.ReplaceAllString(md, " ")
	}
	return md
}
