package tokenizer

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

//go:generate go run gen_unicode.go

// qwenPattern is the pre-tokenizer pattern of Qwen2, Qwen2.5 and Qwen3 (and, with other digit
// rules, of GPT-4's cl100k): contractions, letter runs with one leading non-letter, single
// digits, punctuation runs with trailing newlines, and whitespace that leaves its last space to
// the following word.
const qwenPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// splitter cuts normalized text into pre-tokens. It appends the end offset of each pre-token to
// dst; pre-tokens are contiguous and cover the text.
type splitter interface {
	split(s string, dst []int) []int
}

// newSplitter returns the hand-written scanner for Qwen's pattern and a regexp2 program for any
// other pattern.
func newSplitter(pattern string) (splitter, error) {
	if pattern == qwenPattern {
		return qwenSplitter{}, nil
	}
	re, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("compile pre-tokenizer pattern %q: %w", pattern, err)
	}
	return regexpSplitter{re}, nil
}

type class uint8

const (
	other class = iota
	letter
	number
	space   // \s other than \r and \n
	newline // \r or \n
)

// asciiClass classifies ASCII runes without a table lookup in package unicode.
var asciiClass [utf8.RuneSelf]class

func init() {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		asciiClass[r] = classOfSlow(r)
	}
}

// classOfSlow gives the classes the pattern distinguishes. \s is Unicode White_Space, which is
// what Oniguruma's \s matches for Unicode strings (U+001C..U+001F and U+180E are not in it).
// Letters and numbers added to Unicode after the reference's regex engine was built are "other"
// to it, and so to this scanner.
func classOfSlow(r rune) class {
	switch {
	case r == '\r' || r == '\n':
		return newline
	case unicode.IsSpace(r):
		return space
	case unicode.Is(oldOther, r):
		return other
	case unicode.IsLetter(r):
		return letter
	case unicode.IsNumber(r):
		return number
	}
	return other
}

func classAt(s string, i int) (class, rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], rune(c), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return classOfSlow(r), r, n
}

// qwenSplitter matches qwenPattern by hand. At each position the alternatives are tried in the
// pattern's order, with the same greedy-then-backtrack outcome a backtracking engine reaches.
type qwenSplitter struct{}

func (qwenSplitter) split(s string, dst []int) []int {
	for i := 0; i < len(s); {
		i = qwenNext(s, i)
		dst = append(dst, i)
	}
	return dst
}

// qwenNext returns the end of the pre-token that starts at i.
func qwenNext(s string, i int) int {
	c, r, n := classAt(s, i)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r == '\'' {
		if m := contraction(s[i+1:]); m > 0 {
			return i + 1 + m
		}
	}
	switch c {
	case letter: // [^\r\n\p{L}\p{N}]?\p{L}+ without its optional first character
		return letterRunEnd(s, i+n)
	case number: // \p{N}
		return i + n
	case other, space: // [^\r\n\p{L}\p{N}]\p{L}+
		if i+n < len(s) {
			if c2, _, n2 := classAt(s, i+n); c2 == letter {
				return letterRunEnd(s, i+n+n2)
			}
		}
	}
	// " ?[^\s\p{L}\p{N}]+[\r\n]*"
	j := i
	if r == ' ' {
		j = i + 1
	}
	if j < len(s) {
		if c2, _, _ := classAt(s, j); c2 == other {
			for j < len(s) {
				c3, _, n3 := classAt(s, j)
				if c3 != other {
					break
				}
				j += n3
			}
			for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
				j++
			}
			return j
		}
	}
	// Only whitespace is left: \s*[\r\n]+ | \s+(?!\S) | \s+
	end, lastNL, lastStart := i, -1, i
	for end < len(s) {
		c3, _, n3 := classAt(s, end)
		if c3 != space && c3 != newline {
			break
		}
		if c3 == newline {
			lastNL = end
		}
		lastStart = end
		end += n3
	}
	switch {
	case lastNL >= 0:
		return lastNL + 1
	case end == len(s) || lastStart == i:
		return end
	default:
		return lastStart
	}
}

// contraction returns the length of a contraction suffix (s, t, re, ve, m, ll, d) at the start of
// s, matched case-insensitively with Unicode case folding (so U+017F LATIN SMALL LETTER LONG S
// matches s, as it does in Oniguruma), or 0.
func contraction(s string) int {
	if len(s) == 0 {
		return 0
	}
	first, n := utf8.DecodeRuneInString(s)
	switch first {
	case 's', 'S', 'ſ', 't', 'T', 'm', 'M', 'd', 'D':
		return n
	case 'r', 'R', 'v', 'V':
		if len(s) > 1 && (s[1] == 'e' || s[1] == 'E') {
			return 2
		}
	case 'l', 'L':
		if len(s) > 1 && (s[1] == 'l' || s[1] == 'L') {
			return 2
		}
	}
	return 0
}

func letterRunEnd(s string, i int) int {
	for i < len(s) {
		c, _, n := classAt(s, i)
		if c != letter {
			break
		}
		i += n
	}
	return i
}

// regexpSplitter runs an arbitrary split pattern with the "Isolated" behaviour: matches and the
// text between them both become pre-tokens.
type regexpSplitter struct{ re *regexp2.Regexp }

func (rs regexpSplitter) split(s string, dst []int) []int {
	// regexp2 reports rune positions; convert them to byte offsets as matches advance.
	runeToByte := func() func(int) int {
		bytePos, runePos := 0, 0
		return func(target int) int {
			for runePos < target {
				_, n := utf8.DecodeRuneInString(s[bytePos:])
				bytePos += n
				runePos++
			}
			return bytePos
		}
	}()
	last := 0
	m, err := rs.re.FindStringMatch(s)
	for err == nil && m != nil {
		start := runeToByte(m.Index)
		end := runeToByte(m.Index + m.Length)
		if start > last {
			dst = append(dst, start)
		}
		if end > start {
			dst = append(dst, end)
		}
		last = end
		m, err = rs.re.FindNextMatch(m)
	}
	if last < len(s) {
		dst = append(dst, len(s))
	}
	return dst
}
