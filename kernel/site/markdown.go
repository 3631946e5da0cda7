package site

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	gmtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// heading is one entry of a page's table of contents.
type heading struct {
	Level int
	ID    string
	HTML  template.HTML // text escaped, math marked for KaTeX
}

// section is a stretch of a page that search can point at: the text under one heading.
type section struct {
	ID    string // heading id; "" for the text before the first heading
	Title string
	Text  strings.Builder
}

// markdownRenderer renders the markdown cells of one page. It keeps heading ids unique across all
// cells of the page, since every cell is parsed on its own.
type markdownRenderer struct {
	md  goldmark.Markdown
	ids *pageIDs
}

// newMarkdownRenderer renders the markdown of an edition whose pages have language lang ("en",
// "zh-CN").
func newMarkdownRenderer(lang string) *markdownRenderer {
	extensions := []goldmark.Extender{
		extension.GFM,
		passthrough.New(passthrough.Config{
			InlineDelimiters: []passthrough.Delimiters{{Open: "$", Close: "$"}, {Open: `\(`, Close: `\)`}},
			BlockDelimiters:  []passthrough.Delimiters{{Open: "$$", Close: "$$"}, {Open: `\[`, Close: `\]`}},
		}),
	}
	if strings.HasPrefix(lang, "zh") {
		// A line break inside Chinese text is no space: the translated chapters wrap their
		// lines like the English ones, and a browser would show each break as a gap. The
		// English edition goes without: this style also drops a break next to any
		// punctuation, ASCII included, which glues English sentences ("training.The").
		extensions = append(extensions, extension.NewCJK(extension.WithEastAsianLineBreaks(extension.EastAsianLineBreaksCSS3Draft)))
	}
	md := goldmark.New(
		goldmark.WithExtensions(extensions...),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		// Notebook markdown may hold HTML (e.g. <details>); it is the course's own text.
		goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
	)
	// Priority below passthrough's own renderers (99, 101) so these win: math is escaped and
	// marked for KaTeX instead of being written raw into the HTML.
	md.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(mathRenderer{}, 10),
		util.Prioritized(codeBlockRenderer{}, 10),
	))
	return &markdownRenderer{md: md, ids: &pageIDs{used: map[string]bool{}}}
}

// render converts one markdown cell to HTML, and reports its headings and searchable text.
// Text before the cell's first heading is appended to cur (the section open when the cell
// starts); each heading opens a new section.
func (r *markdownRenderer) render(src string, cur *section) (string, []heading, []*section, error) {
	source := []byte(src)
	ctx := parser.NewContext(parser.WithIDs(r.ids))
	doc := r.md.Parser().Parse(gmtext.NewReader(source), parser.WithContext(ctx))
	var heads []heading
	var secs []*section
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			id, _ := h.AttributeString("id")
			idBytes, _ := id.([]byte)
			idStr := string(idBytes)
			title := plainText(h, source)
			heads = append(heads, heading{Level: h.Level, ID: idStr, HTML: headingHTML(h, source)})
			cur = &section{ID: idStr, Title: title}
			secs = append(secs, cur)
			continue
		}
		cur.Text.WriteString(plainText(n, source))
		cur.Text.WriteByte('\n')
	}
	var buf bytes.Buffer
	if err := r.md.Renderer().Render(&buf, source, doc); err != nil {
		return "", nil, nil, err
	}
	return buf.String(), heads, secs, nil
}

// plainText is the readable text of a node and its children: what search indexes and what a
// table of contents shows. Math is kept as its TeX source.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Value(source))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		case *passthrough.PassthroughInline:
			b.Write(n.Segment.Value(source))
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock, *passthrough.PassthroughBlock, *ast.HTMLBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// headingHTML is a heading's text for a table of contents: plain text, escaped, with its math
// marked for KaTeX like math in prose; links and emphasis are dropped.
func headingHTML(h *ast.Heading, source []byte) template.HTML {
	var b strings.Builder
	_ = ast.Walk(h, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.WriteString(html.EscapeString(string(n.Value(source))))
		case *ast.String:
			b.WriteString(html.EscapeString(string(n.Value)))
		case *ast.CodeSpan:
			b.WriteString("<code>" + html.EscapeString(plainText(n, source)) + "</code>")
			return ast.WalkSkipChildren, nil
		case *passthrough.PassthroughInline:
			b.WriteString(`<span class="math">` + html.EscapeString(mathSource(n, source)) + `</span>`)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return template.HTML(b.String())
}

// mathSource is the TeX of inline math, without its delimiters.
func mathSource(p *passthrough.PassthroughInline, source []byte) string {
	return strings.TrimSuffix(strings.TrimPrefix(string(p.Segment.Value(source)), p.Delimiters.Open), p.Delimiters.Close)
}

// pageIDs hands out heading ids that are unique within a page, in goldmark's style.
type pageIDs struct{ used map[string]bool }

func (p *pageIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	var b []byte
	for _, r := range strings.ToLower(strings.TrimSpace(string(value))) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b = append(b, byte(r))
		case r == ' ' || r == '-' || r == '_':
			b = append(b, '-')
		case unicode.Is(unicode.Han, r): // the Chinese edition's headings
			b = utf8.AppendRune(b, r)
		}
	}
	base := string(b)
	if base == "" {
		base = "section"
	}
	id := base
	for i := 1; p.used[id]; i++ {
		id = fmt.Sprintf("%s-%d", base, i)
	}
	p.used[id] = true
	return []byte(id)
}

func (p *pageIDs) Put(value []byte) { p.used[string(value)] = true }

// mathRenderer writes math as escaped TeX inside an element that the page script typesets with
// KaTeX; written raw, "a<b" would be read as a tag.
type mathRenderer struct{}

func (mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(passthrough.KindPassthroughInline, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			fmt.Fprintf(w, `<span class="math">%s</span>`, html.EscapeString(mathSource(n.(*passthrough.PassthroughInline), source)))
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(passthrough.KindPassthroughBlock, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			p := n.(*passthrough.PassthroughBlock)
			var raw strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				raw.Write(seg.Value(source))
			}
			tex := strings.TrimSpace(raw.String())
			tex = strings.TrimSuffix(strings.TrimPrefix(tex, p.Delimiters.Open), p.Delimiters.Close)
			fmt.Fprintf(w, "<div class=\"math display\">%s</div>\n", html.EscapeString(strings.TrimSpace(tex)))
		}
		return ast.WalkSkipChildren, nil
	})
}

// codeBlockRenderer highlights fenced code in markdown cells with the same highlighter as code
// cells, so a snippet in prose looks like a snippet in a cell.
type codeBlockRenderer struct{}

func (codeBlockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkSkipChildren, nil
		}
		fb := n.(*ast.FencedCodeBlock)
		var code strings.Builder
		for i := 0; i < fb.Lines().Len(); i++ {
			seg := fb.Lines().At(i)
			code.Write(seg.Value(source))
		}
		lang := ""
		if fb.Info != nil {
			lang = string(fb.Language(source))
		}
		out, err := highlight(code.String(), lang)
		if err != nil {
			return ast.WalkStop, err
		}
		w.WriteString(out)
		return ast.WalkSkipChildren, nil
	})
}
