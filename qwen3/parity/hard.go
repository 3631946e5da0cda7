package parity

import (
	"math/rand/v2"
	"strings"
)

// A rune range to draw from. Letters, digits and marks come from blocks assigned long ago, so
// that the Unicode versions of Go and of the reference's regex engine agree on them; symbols,
// whose class is "other" in every version, may come from anywhere.
type runeRange struct{ lo, hi rune }

var (
	spaces   = []rune{' ', ' ', ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0xA0, 0x1680, 0x2000, 0x2003, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x180E, 0x200B, 0x1C, 0x1F, 0xFEFF}
	marks    = []runeRange{{0x0300, 0x036F}, {0x0591, 0x05BD}, {0x064B, 0x065F}, {0x093C, 0x094D}, {0x0E31, 0x0E3A}, {0x20D0, 0x20F0}, {0x3099, 0x309A}}
	digits   = []runeRange{{'0', '9'}, {'0', '9'}, {0x0660, 0x0669}, {0x0966, 0x096F}, {0xFF10, 0xFF19}, {0x00B2, 0x00B3}, {0x00BC, 0x00BE}, {0x2160, 0x216F}, {0x2460, 0x2473}, {0x2070, 0x2079}}
	latin    = []runeRange{{'a', 'z'}, {'A', 'Z'}, {0xC0, 0xFF}, {0x100, 0x17F}, {0x180, 0x24F}, {0x250, 0x2AF}}
	scripts  = []runeRange{{0x391, 0x3C9}, {0x410, 0x44F}, {0x5D0, 0x5EA}, {0x621, 0x64A}, {0x905, 0x939}, {0x93E, 0x94C}, {0xE01, 0xE2E}, {0x10A0, 0x10FA}, {0x1E00, 0x1EFF}, {0x1F00, 0x1FFF}}
	cjk      = []runeRange{{0x4E00, 0x9FA5}, {0x3041, 0x3094}, {0x30A1, 0x30FA}, {0xAC00, 0xD7A3}, {0x3000, 0x303F}, {0xFF01, 0xFF5E}, {0xF900, 0xFA2D}, {0x1100, 0x1112}, {0x1161, 0x1175}, {0x11A8, 0x11C2}, {0x3131, 0x318E}}
	emoji    = []runeRange{{0x1F300, 0x1F5FF}, {0x1F600, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x2600, 0x26FF}, {0x2700, 0x27BF}, {0x1F1E6, 0x1F1FF}, {0x1F3FB, 0x1F3FF}}
	symbols  = []runeRange{{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}, {0x2010, 0x2027}, {0x2030, 0x205E}, {0x2190, 0x21FF}, {0x2200, 0x22FF}, {0x2500, 0x257F}, {0x20A0, 0x20C0}, {0x2100, 0x214F}, {0xE000, 0xE0FF}, {0xA1, 0xBF}}
	specials = []string{"<|im_start|>", "<|im_end|>", "<|endoftext|>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>", "<|fim_prefix|>", "<|vision_pad|>", "<|file_sep|>"}
	words    = []string{"the", "The", "function", "return", "def", "self", "import", "hello", "world", "naïve", "café", "Straße", "日本語", "中文", "한국어", "русский", "العربية", "हिन्दी", "ελληνικά", "x", "I", "a", "rl", "agent", "tool"}
	clitics  = []string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ve", "'M", "'LL", "'D", "'ſ", "'ſt", "'", "''", "’s", "'x", "'dve", "'lL", "'rE"}
	joiners  = []string{"\u200d", "\ufe0f", "\u20e3", "\u200c", "\u00ad", "\u034f"}
)

func pick(r *rand.Rand, rs []runeRange) rune {
	x := rs[r.IntN(len(rs))]
	return x.lo + rune(r.IntN(int(x.hi-x.lo+1)))
}

// partialSpecial returns a special token with a piece cut off or damaged, which must tokenize as
// ordinary text.
func partialSpecial(r *rand.Rand) string {
	s := specials[r.IntN(len(specials))]
	switch r.IntN(4) {
	case 0:
		return s[:1+r.IntN(len(s)-1)]
	case 1:
		return s[1+r.IntN(len(s)-1):]
	case 2:
		return strings.ToUpper(s)
	default:
		i := 1 + r.IntN(len(s)-2)
		return s[:i] + " " + s[i:]
	}
}

// fragment returns one piece of a hard string, of a kind chosen by the generator.
func fragment(r *rand.Rand, kind int) string {
	var b strings.Builder
	n := 1 + r.IntN(6)
	switch kind {
	case 0: // whitespace runs, Unicode spaces, CR/LF mixtures
		for range n {
			b.WriteRune(spaces[r.IntN(len(spaces))])
		}
	case 1: // letters followed by combining marks, decomposed sequences NFC recomposes
		for range n {
			b.WriteRune(pick(r, latin))
			for range r.IntN(3) {
				b.WriteRune(pick(r, marks))
			}
		}
	case 2: // digit runs from several scripts, fractions, Roman numerals
		for range n + r.IntN(8) {
			b.WriteRune(pick(r, digits))
		}
	case 3: // CJK, kana, Hangul syllables and jamo, compatibility ideographs
		for range n + r.IntN(12) {
			b.WriteRune(pick(r, cjk))
		}
	case 4: // emoji with modifiers, flags, ZWJ sequences and keycaps
		for range n {
			b.WriteRune(pick(r, emoji))
			if r.IntN(3) == 0 {
				b.WriteString(joiners[r.IntN(len(joiners))])
			}
		}
	case 5: // contractions in every case, and near misses
		b.WriteString(words[r.IntN(len(words))])
		b.WriteString(clitics[r.IntN(len(clitics))])
	case 6: // special tokens, whole or damaged
		if r.IntN(2) == 0 {
			b.WriteString(specials[r.IntN(len(specials))])
		} else {
			b.WriteString(partialSpecial(r))
		}
	case 7: // punctuation and symbol runs
		for range n {
			b.WriteRune(pick(r, symbols))
		}
	case 8: // other scripts, with their marks
		for range n + r.IntN(6) {
			b.WriteRune(pick(r, scripts))
			if r.IntN(4) == 0 {
				b.WriteRune(pick(r, marks))
			}
		}
	default: // words with a leading space, the common case
		b.WriteString(" ")
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

const fragmentKinds = 10

// HardStrings returns n strings built to stress a tokenizer: every kind of fragment above, mixed
// at random, plus a few long runs without spaces (where a naive BPE merge turns quadratic). The
// same seed gives the same strings.
func HardStrings(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		var b strings.Builder
		switch {
		case i%100 == 99: // a long run of one kind, thousands of characters
			kind := []int{2, 3, 7, 8, 1}[i/100%5]
			for b.Len() < 2000+r.IntN(6000) {
				b.WriteString(fragment(r, kind))
			}
		case i%10 < 5: // mostly one kind, with a little of another
			kind := i % fragmentKinds
			for range 1 + r.IntN(8) {
				if r.IntN(4) == 0 {
					b.WriteString(fragment(r, r.IntN(fragmentKinds)))
				} else {
					b.WriteString(fragment(r, kind))
				}
			}
		default: // a free mixture
			for range 1 + r.IntN(24) {
				b.WriteString(fragment(r, r.IntN(fragmentKinds)))
			}
		}
		out = append(out, b.String())
	}
	return out
}
