package parity

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// UnicodeProbes returns strings that exercise every character Go's Unicode tables give a class,
// a combining class or a decomposition: each letter and number between letters and punctuation,
// each combining mark next to marks of lower and higher class, each decomposable character
// precomposed and decomposed. Where the reference was built on older Unicode tables, these are
// the strings on which a tokenizer that ignored the difference would go wrong.
func UnicodeProbes() []string {
	var out []string
	var group strings.Builder
	n := 0
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF || r >= 0xAC00 && r <= 0xD7A3 {
			continue // surrogates; Hangul syllables are composed by rule, not by table
		}
		s := string(r)
		nfd := norm.NFD.String(s)
		switch {
		case nfd != s:
			out = append(out, s, nfd, "x"+nfd+"\u0334y")
		case norm.NFD.PropertiesString(s).CCC() > 0:
			out = append(out, "一"+s+"\u0334", "一\u0301"+s, "a"+s+"\u0316b", "a\u0316"+s+"b")
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			group.WriteString("a" + s + "." + s + "a " + s + "1")
			if n++; n%64 == 0 {
				out = append(out, group.String())
				group.Reset()
			}
		}
	}
	return append(out, group.String())
}
