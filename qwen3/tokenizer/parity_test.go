package tokenizer_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/parity"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

// Sizes of the parity inputs; the issue asks for at least 1 MB of corpus and 2,000 hard strings.
const (
	corpusBytes = 1_200_000
	hardCount   = 3000
	hardSeed    = 20261130
)

var qwen struct {
	once sync.Once
	tok  *tokenizer.Tokenizer
	path string
	err  error
}

// loadQwen loads the Qwen3 tokenizer found by package files (the project cache after setup).
func loadQwen(t testing.TB) (*tokenizer.Tokenizer, string) {
	t.Helper()
	qwen.once.Do(func() {
		var d files.Dir
		if d, qwen.err = files.Find(""); qwen.err != nil {
			return
		}
		qwen.path = d.Tokenizer()
		qwen.tok, qwen.err = tokenizer.LoadFile(qwen.path)
	})
	if qwen.err != nil {
		t.Fatalf("Qwen3 tokenizer missing: run `make setup`: %v", qwen.err)
	}
	return qwen.tok, qwen.path
}

func reference(t testing.TB) *parity.Reference {
	t.Helper()
	r, err := parity.FindReference()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runeOffsets converts byte offsets into text to the code-point offsets the reference reports.
func runeOffsets(text string, offs []tokenizer.Offset) [][2]int {
	idx := make([]int, len(text)+1) // byte position -> code points before it
	n := 0
	for i := range text {
		idx[i] = n
		n++
	}
	idx[len(text)] = n
	out := make([][2]int, len(offs))
	for i, o := range offs {
		out[i] = [2]int{idx[o.Start], idx[o.End]}
	}
	return out
}

// compareEncodings checks ids and offsets of every text against the reference and reports the
// first few differences.
func compareEncodings(t *testing.T, tok *tokenizer.Tokenizer, texts []string, want []parity.Encoding) (tokens int) {
	t.Helper()
	idMismatch, offMismatch := 0, 0
	for i, text := range texts {
		ids, offs := tok.EncodeWithOffsets(text)
		tokens += len(ids)
		if !equalInts(ids, want[i].IDs) {
			idMismatch++
			if idMismatch <= 5 {
				t.Errorf("text %d %q:\n got ids %v\nwant ids %v", i, clip(text), clipInts(ids), clipInts(want[i].IDs))
			}
			continue
		}
		got := runeOffsets(text, offs)
		if fmt.Sprint(got) != fmt.Sprint(want[i].Offsets) {
			offMismatch++
			if offMismatch <= 5 {
				t.Errorf("text %d %q: offsets differ\n got %v\nwant %v", i, clip(text), got, want[i].Offsets)
			}
		}
	}
	if idMismatch+offMismatch > 0 {
		t.Errorf("%d of %d texts have different ids, %d different offsets", idMismatch, len(texts), offMismatch)
	}
	return tokens
}

func TestParityCorpus(t *testing.T) {
	tok, path := loadQwen(t)
	ref := reference(t)
	c, err := parity.LocalCorpus(corpusBytes)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Encode(path, c.Docs)
	if err != nil {
		t.Fatal(err)
	}
	tokens := compareEncodings(t, tok, c.Docs, want)
	t.Logf("corpus: %d bytes in %d files, %d tokens; files:\n%s", c.Bytes, len(c.Files), tokens, strings.Join(c.Files, "\n"))

	// The parallel batch path must give exactly what one-at-a-time encoding gives.
	batch := tok.EncodeBatch(c.Docs)
	for i := range c.Docs {
		if !equalInts(batch[i], want[i].IDs) {
			t.Fatalf("EncodeBatch differs from the reference on %s", c.Files[i])
		}
	}
}

func TestParityHardStrings(t *testing.T) {
	tok, path := loadQwen(t)
	texts := parity.HardStrings(hardSeed, hardCount)
	want, err := reference(t).Encode(path, texts)
	if err != nil {
		t.Fatal(err)
	}
	bytes := 0
	for _, s := range texts {
		bytes += len(s)
	}
	tokens := compareEncodings(t, tok, texts, want)
	t.Logf("hard strings: %d strings, %d bytes, %d tokens", len(texts), bytes, tokens)
}

// TestParityUnicodeTables covers every character Go's Unicode tables classify, combine or
// decompose, including those added after the reference's tables were built.
func TestParityUnicodeTables(t *testing.T) {
	tok, path := loadQwen(t)
	texts := parity.UnicodeProbes()
	want, err := reference(t).Encode(path, texts)
	if err != nil {
		t.Fatal(err)
	}
	compareEncodings(t, tok, texts, want)
	t.Logf("%d probe strings", len(texts))
}

// TestParityDecode decodes the encodings of the hard strings and random id sequences, which cut
// characters between tokens and mix in special tokens, with and without skipping special tokens.
func TestParityDecode(t *testing.T) {
	tok, path := loadQwen(t)
	var reqs []parity.DecodeRequest
	for _, s := range parity.HardStrings(hardSeed+1, 500) {
		reqs = append(reqs, parity.DecodeRequest{IDs: tok.Encode(s)})
	}
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 1500 {
		ids := make([]int, 1+r.IntN(12))
		for k := range ids {
			switch r.IntN(6) {
			case 0:
				ids[k] = 151643 + r.IntN(26) // added and special tokens
			case 1:
				ids[k] = r.IntN(256) // single bytes, often half a character
			default:
				ids[k] = r.IntN(151643)
			}
		}
		reqs = append(reqs, parity.DecodeRequest{IDs: ids, SkipSpecial: i%2 == 0})
	}
	want, err := reference(t).Decode(path, reqs)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, req := range reqs {
		var got string
		if req.SkipSpecial {
			got = tok.DecodeSkipSpecial(req.IDs)
		} else {
			got = tok.Decode(req.IDs)
		}
		if got != want[i] {
			bad++
			if bad <= 5 {
				t.Errorf("decode %v (skip special %v):\n got %q\nwant %q", req.IDs, req.SkipSpecial, got, want[i])
			}
		}
		if !utf8.ValidString(got) {
			t.Errorf("decode %v gave invalid UTF-8", req.IDs)
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d decodes differ", bad, len(reqs))
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 120 {
		return strings.ToValidUTF8(s[:120], "") + "..."
	}
	return s
}

func clipInts(ids []int) string {
	if len(ids) > 30 {
		return fmt.Sprint(ids[:30]) + "..."
	}
	return fmt.Sprint(ids)
}
