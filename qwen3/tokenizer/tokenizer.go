package tokenizer

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is a loaded byte-level BPE tokenizer. It is safe for concurrent use.
type Tokenizer struct {
	vocab   map[string]int32 // vocabulary spelling (byte-level for model tokens) -> id
	tokens  []string         // id -> spelling; "" for an unused id
	bytes   [][]byte         // id -> the bytes the token decodes to
	special []bool           // id -> special (dropped by DecodeSkipSpecial)

	added      []addedToken // longest first, for leftmost-longest matching
	addedFirst [256]bool    // first bytes of added tokens, to skip ordinary text quickly

	merges       map[uint64]merge
	byteID       [256]int32
	ignoreMerges bool
	split        splitter
	nfc          bool
	cache        wordCache
}

type addedToken struct {
	content string
	id      int32
}

// Offset is the byte range [Start, End) of the input text that a token stands for.
type Offset struct{ Start, End int }

// VocabSize is the number of ids, added tokens included (151,669 for Qwen3).
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// Token returns the vocabulary spelling of id: the byte-level form for model tokens ("Ġhello"
// for " hello"), the content for added tokens, and "" for an id that is not in the vocabulary.
func (t *Tokenizer) Token(id int) string {
	if id < 0 || id >= len(t.tokens) {
		return ""
	}
	return t.tokens[id]
}

// ID returns the id of a vocabulary spelling, as Token writes it.
func (t *Tokenizer) ID(token string) (int, bool) {
	id, ok := t.vocab[token]
	return int(id), ok
}

// TokenBytes returns the bytes id decodes to (possibly part of a UTF-8 character), or nil.
func (t *Tokenizer) TokenBytes(id int) []byte {
	if id < 0 || id >= len(t.bytes) {
		return nil
	}
	return t.bytes[id]
}

// IsSpecial reports whether id is a special token such as <|im_end|>. Added tokens that are not
// special, such as <tool_call> and <think>, are ordinary text to the decoder.
func (t *Tokenizer) IsSpecial(id int) bool {
	return id >= 0 && id < len(t.special) && t.special[id]
}

// Encode returns the token ids of text. Added and special tokens written in the text are
// recognized, as Hugging Face does when encoding a rendered chat prompt. Bytes that are not valid
// UTF-8 (text Hugging Face cannot be given) are encoded as they are, byte-level tokens included.
func (t *Tokenizer) Encode(text string) []int {
	ids, _ := t.encode(text, false)
	return ids
}

// EncodeWithOffsets returns the token ids of text and, for each, the byte range of text it
// covers.
func (t *Tokenizer) EncodeWithOffsets(text string) ([]int, []Offset) {
	return t.encode(text, true)
}

// EncodeBatch encodes texts in parallel on all available cores; result i is Encode(texts[i]).
func (t *Tokenizer) EncodeBatch(texts []string) [][]int {
	out := make([][]int, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(texts) {
					return
				}
				out[i] = t.Encode(texts[i])
			}
		})
	}
	wg.Wait()
	return out
}

// Decode returns the text of ids. Bytes that do not form valid UTF-8 (a character cut between
// tokens) become U+FFFD; ids outside the vocabulary are skipped, as Hugging Face skips them.
func (t *Tokenizer) Decode(ids []int) string { return t.decode(ids, false) }

// DecodeSkipSpecial is Decode without the special tokens (Hugging Face's skip_special_tokens).
func (t *Tokenizer) DecodeSkipSpecial(ids []int) string { return t.decode(ids, true) }

func (t *Tokenizer) decode(ids []int, skipSpecial bool) string {
	var raw []byte
	for _, id := range ids {
		if id < 0 || id >= len(t.bytes) || t.bytes[id] == nil || skipSpecial && t.special[id] {
			continue
		}
		raw = append(raw, t.bytes[id]...)
	}
	if utf8.Valid(raw) {
		return string(raw)
	}
	return string(appendLossy(make([]byte, 0, len(raw)+8), raw))
}

// encode cuts the added tokens out of text and byte-pair-encodes the pieces between them.
func (t *Tokenizer) encode(text string, withOffsets bool) ([]int, []Offset) {
	ids := make([]int, 0, len(text)/3+1)
	var offs []Offset
	if withOffsets {
		offs = make([]Offset, 0, cap(ids))
	}
	var scratch []int
	last := 0
	for i := 0; i < len(text); {
		if !t.addedFirst[text[i]] {
			i++
			continue
		}
		a, ok := t.addedAt(text[i:])
		if !ok {
			i++
			continue
		}
		ids, offs, scratch = t.encodePiece(text[last:i], last, ids, offs, scratch, withOffsets)
		ids = append(ids, int(a.id))
		if withOffsets {
			offs = append(offs, Offset{i, i + len(a.content)})
		}
		i += len(a.content)
		last = i
	}
	ids, offs, _ = t.encodePiece(text[last:], last, ids, offs, scratch, withOffsets)
	return ids, offs
}

func (t *Tokenizer) addedAt(s string) (addedToken, bool) {
	for _, a := range t.added {
		if strings.HasPrefix(s, a.content) {
			return a, true
		}
	}
	return addedToken{}, false
}

// encodePiece encodes text that holds no added token; base is its position in the caller's text.
func (t *Tokenizer) encodePiece(piece string, base int, ids []int, offs []Offset, ends []int, withOffsets bool) ([]int, []Offset, []int) {
	if piece == "" {
		return ids, offs, ends
	}
	var align []span // nil when normalization left the piece unchanged
	// Text in NFC by Go's newer tables is also in NFC by the reference's, which knows a subset of
	// the marks and compositions, so the quick check may use Go's.
	if t.nfc && !norm.NFC.IsNormalString(piece) {
		piece, align = nfcAligned(piece)
	}
	ends = t.split.split(piece, ends[:0])
	var buf [64]int32
	start := 0
	for _, end := range ends {
		word := piece[start:end]
		wordIDs := t.wordIDs(word, buf[:0])
		for _, id := range wordIDs {
			ids = append(ids, int(id))
		}
		if withOffsets {
			pos := start
			for _, id := range wordIDs {
				n := len(t.bytes[id])
				offs = append(offs, offsetOf(piece, pos, pos+n, base, align))
				pos += n
			}
		}
		start = end
	}
	return ids, offs, ends
}

// offsetOf maps the normalized byte range [s, e) of piece to the caller's text: widened to whole
// characters, then through the normalization alignment.
func offsetOf(piece string, s, e, base int, align []span) Offset {
	for s > 0 && !utf8.RuneStart(piece[s]) {
		s--
	}
	for e < len(piece) && !utf8.RuneStart(piece[e]) {
		e++
	}
	if align == nil {
		return Offset{base + s, base + e}
	}
	lo, hi := align[s].start, align[s].end
	for _, a := range align[s:e] {
		lo, hi = min(lo, a.start), max(hi, a.end)
	}
	return Offset{base + lo, base + hi}
}

// wordIDs returns the ids of one pre-token, from the cache when it has been seen before. The
// result may alias the cache and must not be modified.
func (t *Tokenizer) wordIDs(word string, buf []int32) []int32 {
	if t.ignoreMerges {
		if id, ok := t.vocab[word]; ok && !t.isAdded(id) {
			return append(buf, id)
		}
	}
	if len(word) > maxCachedWord {
		return t.bpe(word, buf)
	}
	if ids, ok := t.cache.get(word); ok {
		return ids
	}
	ids := t.bpe(word, buf)
	t.cache.put(word, ids)
	return ids
}

func (t *Tokenizer) isAdded(id int32) bool {
	for _, a := range t.added {
		if a.id == id {
			return true
		}
	}
	return false
}

// sortAdded orders added tokens longest first, so the first prefix match is the longest.
func (t *Tokenizer) sortAdded() {
	sort.SliceStable(t.added, func(i, j int) bool { return len(t.added[i].content) > len(t.added[j].content) })
}

// maxCachedWord bounds the pre-tokens kept in the cache: long ones rarely repeat.
const maxCachedWord = 128

// wordCache maps pre-tokens to their ids. It is sharded so that batch encoding on several cores
// does not serialize on one lock, and bounded so that a long run cannot grow it without limit.
type wordCache struct {
	shards [64]cacheShard
}

type cacheShard struct {
	mu sync.RWMutex
	m  map[string][]int32
}

const shardCapacity = 4096

func (c *wordCache) init() {
	for i := range c.shards {
		c.shards[i].m = make(map[string][]int32)
	}
}

func shardOf(w string) int {
	return (len(w)*131 + int(w[0])*31 + int(w[len(w)-1])) & 63
}

func (c *wordCache) get(w string) ([]int32, bool) {
	s := &c.shards[shardOf(w)]
	s.mu.RLock()
	ids, ok := s.m[w]
	s.mu.RUnlock()
	return ids, ok
}

func (c *wordCache) put(w string, ids []int32) {
	s := &c.shards[shardOf(w)]
	s.mu.Lock()
	if len(s.m) < shardCapacity {
		s.m[strings.Clone(w)] = append([]int32(nil), ids...)
	}
	s.mu.Unlock()
}
