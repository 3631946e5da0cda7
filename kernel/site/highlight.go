package site

import (
	"fmt"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// codeStyle is the chroma style whose CSS the site ships; code is written with classes only.
const codeStyle = "github"

var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.TabWidth(4))

// highlight renders code as a highlighted <pre>. An unknown or empty language is shown as
// plain text rather than guessed.
func highlight(code, lang string) (string, error) {
	lexer := lexers.Get(lang)
	if lang == "" || lexer == nil {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return "", fmt.Errorf("highlighting %s code: %w", lang, err)
	}
	var b strings.Builder
	if err := codeFormatter.Format(&b, styles.Get(codeStyle), it); err != nil {
		return "", fmt.Errorf("highlighting %s code: %w", lang, err)
	}
	return b.String(), nil
}

// codeCSS is the stylesheet for highlighted code.
func codeCSS() (string, error) {
	var b strings.Builder
	if err := codeFormatter.WriteCSS(&b, styles.Get(codeStyle)); err != nil {
		return "", fmt.Errorf("writing code stylesheet: %w", err)
	}
	return b.String(), nil
}
