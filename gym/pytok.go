package gym

import (
	"strings"
	"unicode"
)

// tokKind is the lexical kind of a token of one line of Python.
type tokKind int

const (
	tName tokKind = iota
	tNumber
	tString
	tOp
	tComment
)

// tok is one token of a line; pos and end are byte offsets into the line.
type tok struct {
	kind     tokKind
	text     string
	pos, end int
}

var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "break": true,
	"class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true, "import": true, "in": true,
	"is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true,
	"return": true, "try": true, "while": true, "with": true, "yield": true,
}

// threeOps and twoOps list multi-character operators, longest first.
var threeOps = []string{"//=", "**=", ">>=", "<<=", "..."}
var twoOps = []string{"==", "!=", "<=", ">=", "//", "**", "+=", "-=", "*=", "/=", "%=", "->", "<<", ">>", "&=", "|=", ":="}

// tokenize splits one line of Python into tokens. It reports ok=false for a line it cannot
// split on its own (an unterminated string, a stray character); such a line gets no edit menu.
func tokenize(line string) (toks []tok, ok bool) {
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			toks = append(toks, tok{tComment, line[i:], i, len(line)})
			i = len(line)
		case c == '_' || c < 128 && unicode.IsLetter(rune(c)):
			j := i
			for j < len(line) && (line[j] == '_' || line[j] < 128 && (unicode.IsLetter(rune(line[j])) || unicode.IsDigit(rune(line[j])))) {
				j++
			}
			// String prefixes such as f"..." or b'...'.
			if j < len(line) && (line[j] == '"' || line[j] == '\'') && j-i <= 2 && strings.Trim(strings.ToLower(line[i:j]), "rbfu") == "" {
				end, ok := scanString(line, j)
				if !ok {
					return nil, false
				}
				toks = append(toks, tok{tString, line[i:end], i, end})
				i = end
				continue
			}
			toks = append(toks, tok{tName, line[i:j], i, j})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9':
			j := i
			for j < len(line) && (line[j] == '.' || line[j] == '_' || line[j] < 128 && (unicode.IsDigit(rune(line[j])) || unicode.IsLetter(rune(line[j])))) {
				j++
			}
			toks = append(toks, tok{tNumber, line[i:j], i, j})
			i = j
		case c == '"' || c == '\'':
			end, ok := scanString(line, i)
			if !ok {
				return nil, false
			}
			toks = append(toks, tok{tString, line[i:end], i, end})
			i = end
		default:
			n := 0
			for _, op := range threeOps {
				if strings.HasPrefix(line[i:], op) {
					n = 3
					break
				}
			}
			if n == 0 {
				for _, op := range twoOps {
					if strings.HasPrefix(line[i:], op) {
						n = 2
						break
					}
				}
			}
			if n == 0 {
				if !strings.ContainsRune("+-*/%<>=()[]{},:.;@&|^~!", rune(c)) {
					return nil, false
				}
				n = 1
			}
			toks = append(toks, tok{tOp, line[i : i+n], i, i + n})
			i += n
		}
	}
	return toks, true
}

// scanString returns the end of the string literal starting at the quote line[i].
func scanString(line string, i int) (int, bool) {
	q := line[i]
	if strings.HasPrefix(line[i:], strings.Repeat(string(q), 3)) {
		return 0, false // triple-quoted strings may span lines
	}
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case q:
			return j + 1, true
		}
	}
	return 0, false
}

func isKeyword(s string) bool { return pyKeywords[s] }

// indentOf returns the leading whitespace of a line.
func indentOf(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}
