package tokenizer

import (
	"slices"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// span is a byte range [start, end) of the caller's text.
type span struct{ start, end int }

// nfcAligned returns the NFC form of s and, for every byte of it, the byte range of the original
// character it came from. It is only called on text that is not already in NFC, which is rare,
// so it favours being exact over being fast.
//
// The alignment follows the composition itself: every original character is decomposed, the
// pieces keep the index of the character they came from through canonical reordering, and when
// a mark composes with its starter the result keeps the starter's index. This is what Hugging
// Face's normalizer reports: "a" + U+0301 becomes "á" aligned to the "a" alone.
func nfcAligned(s string) (string, []span) {
	type piece struct {
		r   rune
		src int // index into chars
		ccc uint8
		raw bool // an invalid byte, kept as it is
	}
	var chars []span // byte range of each original character
	var pieces []piece
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		src := len(chars)
		chars = append(chars, span{i, i + n})
		if r == utf8.RuneError && n == 1 {
			pieces = append(pieces, piece{r: r, src: src, raw: true})
		} else {
			for _, d := range norm.NFD.String(s[i : i+n]) {
				pieces = append(pieces, piece{r: d, src: src, ccc: norm.NFD.PropertiesString(string(d)).CCC()})
			}
		}
		i += n
	}
	// Canonical ordering: stable sort of each run of non-starters by combining class.
	for i := 0; i < len(pieces); {
		if pieces[i].ccc == 0 {
			i++
			continue
		}
		j := i
		for j < len(pieces) && pieces[j].ccc != 0 {
			j++
		}
		slices.SortStableFunc(pieces[i:j], func(a, b piece) int { return int(a.ccc) - int(b.ccc) })
		i = j
	}
	// Canonical composition.
	out := pieces[:0:0]
	starter := -1 // index in out of the last starter, or -1
	lastCCC := -1 // ccc of the last piece appended after the starter, -1 if none
	for _, p := range pieces {
		if starter >= 0 && !p.raw && !out[starter].raw && (lastCCC == -1 || (lastCCC != 0 && int(p.ccc) > lastCCC)) {
			if c, ok := composePair(out[starter].r, p.r); ok {
				out[starter].r = c
				continue
			}
		}
		if p.ccc == 0 {
			starter = len(out)
			lastCCC = -1
		} else {
			lastCCC = int(p.ccc)
		}
		out = append(out, p)
	}
	var b []byte
	var align []span
	for _, p := range out {
		n := len(b)
		if p.raw {
			b = append(b, s[chars[p.src].start])
		} else {
			b = utf8.AppendRune(b, p.r)
		}
		for range len(b) - n {
			align = append(align, chars[p.src])
		}
	}
	got := string(b)
	if want := norm.NFC.String(s); got != want {
		// Cannot happen for valid Unicode; keep the text exact and align coarsely if it does.
		align = make([]span, len(want))
		for i := range align {
			align[i] = span{0, len(s)}
		}
		return want, align
	}
	return got, align
}

// composePair returns the primary composite of a starter and a following character, if there is
// one. Asking the normalizer is slow but keeps the composition table in one place.
func composePair(a, b rune) (rune, bool) {
	var buf [2 * utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], a)
	n += utf8.EncodeRune(buf[n:], b)
	c := norm.NFC.Bytes(buf[:n])
	r, size := utf8.DecodeRune(c)
	if size != len(c) || r == utf8.RuneError {
		return 0, false
	}
	return r, true
}
