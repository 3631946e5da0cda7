package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The parts of tokenizer.json this package reads. Anything else the file declares that would
// change the ids (a normalizer other than NFC, a model other than byte-level BPE, dropout...) is
// rejected by Parse rather than silently ignored.
type fileJSON struct {
	AddedTokens   []addedJSON     `json:"added_tokens"`
	Normalizer    *componentJSON  `json:"normalizer"`
	PreTokenizer  *componentJSON  `json:"pre_tokenizer"`
	PostProcessor *componentJSON  `json:"post_processor"`
	Decoder       *componentJSON  `json:"decoder"`
	Model         modelJSON       `json:"model"`
	Truncation    json.RawMessage `json:"truncation"`
	Padding       json.RawMessage `json:"padding"`
}

type addedJSON struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

type componentJSON struct {
	Type          string          `json:"type"`
	Normalizers   []componentJSON `json:"normalizers"`
	Pretokenizers []componentJSON `json:"pretokenizers"`
	Decoders      []componentJSON `json:"decoders"`
	Pattern       struct {
		Regex  *string `json:"Regex"`
		String *string `json:"String"`
	} `json:"pattern"`
	Behavior       string `json:"behavior"`
	Invert         bool   `json:"invert"`
	AddPrefixSpace bool   `json:"add_prefix_space"`
	UseRegex       bool   `json:"use_regex"`
}

type modelJSON struct {
	Type                    string          `json:"type"`
	Dropout                 *float64        `json:"dropout"`
	UnkToken                *string         `json:"unk_token"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
	FuseUnk                 bool            `json:"fuse_unk"`
	ByteFallback            bool            `json:"byte_fallback"`
	IgnoreMerges            bool            `json:"ignore_merges"`
	Vocab                   json.RawMessage `json:"vocab"`
	Merges                  json.RawMessage `json:"merges"`
}

// Load reads dir/tokenizer.json.
func Load(dir string) (*Tokenizer, error) {
	return LoadFile(filepath.Join(dir, "tokenizer.json"))
}

// LoadFile reads a tokenizer.json file.
func LoadFile(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	t, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %w", path, err)
	}
	return t, nil
}

// Parse builds a tokenizer from the contents of a tokenizer.json file.
func Parse(data []byte) (*Tokenizer, error) {
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("parse tokenizer.json: %w", err)
	}
	if err := checkSupported(&f); err != nil {
		return nil, err
	}
	split, err := splitterOf(f.PreTokenizer)
	if err != nil {
		return nil, err
	}
	// The vocabulary and the merges are most of the file; parsing them at the same time halves
	// the load time on two cores.
	var vocab map[string]int32
	var vocabErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if vocabErr = json.Unmarshal(f.Model.Vocab, &vocab); vocabErr != nil {
			vocabErr = fmt.Errorf("parse vocabulary: %w", vocabErr)
		}
	}()
	pairs, mergeErr := parseMergePairs(f.Model.Merges)
	<-done
	if err := errors.Join(vocabErr, mergeErr); err != nil {
		return nil, err
	}
	t := &Tokenizer{
		vocab:        vocab, // the added tokens join it below
		ignoreMerges: f.Model.IgnoreMerges,
		split:        split,
		nfc:          f.Normalizer != nil,
	}
	t.cache.init()
	t.growTo(len(vocab) - 1)
	for tok, id := range vocab {
		if id < 0 {
			return nil, fmt.Errorf("vocabulary entry %q has negative id %d", tok, id)
		}
		t.growTo(int(id))
		t.tokens[id] = tok
	}
	for b := 0; b < 256; b++ {
		id, ok := t.vocab[string(byteToRune[b])]
		if !ok {
			return nil, fmt.Errorf("vocabulary lacks the byte-level token for byte 0x%02x: not a byte-level BPE model", b)
		}
		t.byteID[b] = id
	}
	if err := t.setMerges(pairs); err != nil {
		return nil, err
	}
	for _, a := range f.AddedTokens {
		if a.SingleWord || a.LStrip || a.RStrip || a.Normalized {
			return nil, fmt.Errorf("added token %q: single_word, lstrip, rstrip and normalized are not supported", a.Content)
		}
		if a.Content == "" || a.ID < 0 {
			return nil, fmt.Errorf("added token %q with id %d is invalid", a.Content, a.ID)
		}
		id := int32(a.ID)
		t.vocab[a.Content] = id
		t.growTo(a.ID)
		t.tokens[id] = a.Content
		t.added = append(t.added, addedToken{a.Content, id})
		if a.Special {
			t.special[id] = true
		}
		t.addedFirst[a.Content[0]] = true
	}
	t.sortAdded()
	t.bytes = make([][]byte, len(t.tokens))
	for id, tok := range t.tokens {
		if tok != "" {
			t.bytes[id] = tokenBytes(tok)
		}
	}
	return t, nil
}

// growTo makes id a valid index of the id-indexed tables.
func (t *Tokenizer) growTo(id int) {
	for len(t.tokens) <= id {
		t.tokens = append(t.tokens, "")
		t.special = append(t.special, false)
	}
}

// parseMergePairs reads the merge list, either as ["a b", ...] (older files) or [["a", "b"], ...].
func parseMergePairs(raw json.RawMessage) ([][2]string, error) {
	first := bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("[")), " \t\r\n")
	if len(first) > 0 && first[0] == '"' {
		var lines []string
		if err := json.Unmarshal(raw, &lines); err != nil {
			return nil, fmt.Errorf("parse merges: %w", err)
		}
		pairs := make([][2]string, len(lines))
		for i, l := range lines {
			a, b, ok := strings.Cut(l, " ")
			if !ok {
				return nil, fmt.Errorf("merge %d %q is not two tokens separated by a space", i, l)
			}
			pairs[i] = [2]string{a, b}
		}
		return pairs, nil
	}
	var pairs [][2]string
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, fmt.Errorf("parse merges: %w", err)
	}
	return pairs, nil
}

// setMerges resolves the merge list against the vocabulary; a merge's rank is its position.
func (t *Tokenizer) setMerges(pairs [][2]string) error {
	t.merges = make(map[uint64]merge, len(pairs))
	for rank, p := range pairs {
		a, okA := t.vocab[p[0]]
		b, okB := t.vocab[p[1]]
		m, okM := t.vocab[p[0]+p[1]]
		if !okA || !okB || !okM {
			return fmt.Errorf("merge %d (%q, %q) refers to a token missing from the vocabulary", rank, p[0], p[1])
		}
		// A pair listed twice keeps its last rank, as in Hugging Face's map built from the list.
		t.merges[pairKey(a, b)] = merge{rank: int32(rank), id: m}
	}
	return nil
}

func checkSupported(f *fileJSON) error {
	m := &f.Model
	switch {
	case m.Type != "BPE":
		return fmt.Errorf("model type %q is not supported (only byte-level BPE)", m.Type)
	case m.Dropout != nil && *m.Dropout != 0:
		return fmt.Errorf("BPE dropout is not supported")
	case m.ByteFallback || m.FuseUnk:
		return fmt.Errorf("byte_fallback and fuse_unk are not supported")
	case m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "",
		m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "":
		return fmt.Errorf("continuing_subword_prefix and end_of_word_suffix are not supported")
	}
	if n := f.Normalizer; n != nil && n.Type != "NFC" {
		return fmt.Errorf("normalizer %q is not supported (only NFC or none)", n.Type)
	}
	for _, c := range []*componentJSON{f.PostProcessor, f.Decoder} {
		if c != nil && c.Type != "ByteLevel" {
			return fmt.Errorf("post-processor or decoder %q is not supported (only ByteLevel)", c.Type)
		}
	}
	if f.Decoder == nil {
		return fmt.Errorf("a byte-level BPE model needs the ByteLevel decoder; none is declared")
	}
	for _, raw := range []json.RawMessage{f.Truncation, f.Padding} {
		if s := strings.TrimSpace(string(raw)); s != "" && s != "null" {
			return fmt.Errorf("truncation and padding are not supported")
		}
	}
	return nil
}

// splitterOf accepts the pre-tokenizers byte-level BPE models declare: a Split on a regular
// expression (isolated matches) followed by ByteLevel without its own regex, as Qwen does.
func splitterOf(p *componentJSON) (splitter, error) {
	if p == nil || p.Type != "Sequence" || len(p.Pretokenizers) != 2 {
		return nil, fmt.Errorf("pre-tokenizer: only Sequence[Split, ByteLevel] is supported")
	}
	s, bl := p.Pretokenizers[0], p.Pretokenizers[1]
	switch {
	case s.Type != "Split" || s.Pattern.Regex == nil || s.Behavior != "Isolated" || s.Invert:
		return nil, fmt.Errorf("pre-tokenizer: only a Split on a Regex with Isolated behaviour is supported, got %s/%s", s.Type, s.Behavior)
	case bl.Type != "ByteLevel" || bl.UseRegex || bl.AddPrefixSpace:
		return nil, fmt.Errorf("pre-tokenizer: the second step must be ByteLevel without regex or prefix space")
	}
	return newSplitter(*s.Pattern.Regex)
}
