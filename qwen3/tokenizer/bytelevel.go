package tokenizer

import "unicode/utf8"

// byteToRune is GPT-2's byte-level alphabet: printable Latin-1 bytes stand for themselves and
// the other 68 bytes are shifted to U+0100 and above, so that every byte is a visible character
// and a vocabulary can be stored as text.
var byteToRune [256]rune

// runeToByte inverts byteToRune; runes outside the alphabet map to -1.
var runeToByte = map[rune]int{}

func init() {
	n := rune(0)
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			byteToRune[b] = rune(b)
		} else {
			byteToRune[b] = 256 + n
			n++
		}
		runeToByte[byteToRune[b]] = b
	}
}

// byteLevelString maps raw bytes to their byte-level spelling, the form vocabulary entries use.
func byteLevelString(b []byte) string {
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = utf8.AppendRune(out, byteToRune[c])
	}
	return string(out)
}

// tokenBytes maps a vocabulary entry back to the bytes it stands for. An entry that uses a
// character outside the byte-level alphabet (an added token such as "<think>" never does, but a
// hand-made vocabulary might) is taken as its own UTF-8 bytes, as Hugging Face's ByteLevel
// decoder does.
func tokenBytes(tok string) []byte {
	out := make([]byte, 0, len(tok))
	for _, r := range tok {
		b, ok := runeToByte[r]
		if !ok {
			return []byte(tok)
		}
		out = append(out, byte(b))
	}
	return out
}

// appendLossy appends b to dst as valid UTF-8, replacing each maximal invalid subsequence with
// U+FFFD. This is the Unicode "maximal subpart" practice that Rust's String::from_utf8_lossy
// follows: a truncated 3-byte sequence becomes one U+FFFD, a stray continuation byte one each.
// Go's own conversions differ (per byte, or one per run), so they cannot be used here.
func appendLossy(dst []byte, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			dst = append(dst, b[i:i+size]...)
			i += size
			continue
		}
		i += invalidPrefix(b[i:])
		dst = append(dst, "\uFFFD"...)
	}
	return dst
}

// invalidPrefix returns the length of the maximal subpart at the start of b, which is known not
// to begin a valid character: the longest prefix that could still begin one, or one byte.
func invalidPrefix(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF) // allowed range of the second byte
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		x := b[n]
		if k == 0 && (x < lo || x > hi) || k > 0 && (x < 0x80 || x > 0xBF) {
			break
		}
		n++
	}
	return n
}
