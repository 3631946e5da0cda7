package tokenizer

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// span is a byte range [start, end) of the caller's text.
type span struct{ start, end int }

// nfcAligned returns the NFC form of s, as the reference normalizer computes it, and for every
// byte of it the byte range of the original character it is aligned with. The reference's Unicode
// tables are older than Go's: characters added since (unicode_tables.go) are plain starters to
// it. It is only called on text that is not already in NFC, which is rare, so it favours being
// exact over being fast.
//
// The alignment reproduces Hugging Face's normalizer, which records for each output character a
// change in length rather than where it came from: a character decomposed into k pieces yields
// changes 0, +1, ..., +1; reordering moves each piece with its change; composing a mark into its
// starter adds the mark's change minus one to the starter's. Output characters are then matched
// to the original ones in order: a change of -n consumes n+1 original characters and aligns with
// the first, a positive change aligns with the last original character consumed. So "a" + U+0301
// becomes "á" aligned with the "a" alone, and a reordered mark aligns with whatever original
// character stood at its new position.
func nfcAligned(s string) (string, []span) {
	type piece struct {
		r      rune
		src    int // index into chars, for the bytes of an invalid character
		change int
		ccc    uint8
		raw    bool // an invalid byte, kept as it is
	}
	var chars []span // byte range of each original character
	var pieces []piece
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		src := len(chars)
		chars = append(chars, span{i, i + n})
		switch {
		case r == utf8.RuneError && n == 1:
			pieces = append(pieces, piece{r: r, src: src, raw: true})
		case unicode.Is(oldNoComposition, r):
			// A composite the reference does not know: it is an ordinary starter there.
			pieces = append(pieces, piece{r: r, src: src})
		default:
			change := 0
			for _, d := range norm.NFD.String(s[i : i+n]) {
				pieces = append(pieces, piece{r: d, src: src, change: change, ccc: combiningClass(d)})
				change = 1
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
				out[starter].change += p.change - 1
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
	cursor := 0 // next original character to consume
	for _, p := range out {
		n := len(b)
		if p.raw {
			b = append(b, s[chars[p.src].start])
		} else {
			b = utf8.AppendRune(b, p.r)
		}
		var a span
		switch {
		case p.change <= 0 && cursor < len(chars):
			a = chars[cursor]
			cursor += 1 - p.change
		case cursor > 0:
			a = chars[min(cursor, len(chars))-1]
		}
		for range len(b) - n {
			align = append(align, a)
		}
	}
	return string(b), align
}

// combiningClass is the canonical combining class the reference normalizer knows: marks added to
// Unicode after its tables were built are starters to it.
func combiningClass(r rune) uint8 {
	if unicode.Is(oldStarter, r) {
		return 0
	}
	return norm.NFD.PropertiesString(string(r)).CCC()
}

// composePair returns the primary composite of a starter and a following character, if there is
// one that the reference normalizer also knows. Asking Go's normalizer is slow but keeps the
// composition table in one place.
func composePair(a, b rune) (rune, bool) {
	if unicode.Is(oldStarter, a) || unicode.Is(oldStarter, b) {
		return 0, false
	}
	var buf [2 * utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], a)
	n += utf8.EncodeRune(buf[n:], b)
	c := norm.NFC.Bytes(buf[:n])
	r, size := utf8.DecodeRune(c)
	if size != len(c) || r == utf8.RuneError || unicode.Is(oldNoComposition, r) {
		return 0, false
	}
	return r, true
}
