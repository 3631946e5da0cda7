package tokenizer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/parity"
	"golang.org/x/text/unicode/norm"
)

var loaded struct {
	once sync.Once
	tok  *Tokenizer
	err  error
}

func loadForTest(t testing.TB) *Tokenizer {
	t.Helper()
	loaded.once.Do(func() {
		var d files.Dir
		if d, loaded.err = files.Find(""); loaded.err == nil {
			loaded.tok, loaded.err = Load(d.Path)
		}
	})
	if loaded.err != nil {
		t.Fatalf("Qwen3 tokenizer missing: run `make setup`: %v", loaded.err)
	}
	return loaded.tok
}

// TestScannerMatchesRegexp checks the hand-written scanner against a backtracking engine running
// the pattern itself. They differ in one known place: Oniguruma (Hugging Face's engine) folds case
// with full Unicode folding, so `'ſ` matches the `'s` alternative, while regexp2 does not; the
// scanner follows Oniguruma, as the parity tests confirm.
func TestScannerMatchesRegexp(t *testing.T) {
	re, err := newSplitter(qwenPattern + "|(?:)") // the same pattern, but not recognized as Qwen's
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := re.(regexpSplitter); !ok {
		t.Fatal("expected the regexp2 splitter")
	}
	texts := parity.HardStrings(99, 2000)
	texts = append(texts, "", " ", "  x", "x  ", "\n\n  \n", "a\u00a0\u00a0b", "it's IT'S 'll 'LL", "1234 ½ Ⅻ", " !!\n\r\n", "\t\tfoo")
	checked := 0
	for _, s := range texts {
		if strings.Contains(s, "'ſ") {
			continue
		}
		got := qwenSplitter{}.split(s, nil)
		want := re.split(s, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\n scanner %v\n regexp2 %v", s, got, want)
		}
		checked++
	}
	if got := (qwenSplitter{}).split("'ſt", nil); !slices.Equal(got, []int{3, 4}) {
		t.Errorf(`"'ſt" splits at %v, want [3 4] ('ſ is a contraction to Oniguruma)`, got)
	}
	t.Logf("%d strings split identically", checked)
}

// TestHeapMatchesScan checks that the two merge loops agree on words around the threshold where
// bpe switches from one to the other.
func TestHeapMatchesScan(t *testing.T) {
	tok := loadForTest(t)
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "e", "n", "t", " ", "the", "ing", "日", "本", "😀", "0", "_", "(", ")"}
	for range 3000 {
		var b strings.Builder
		for b.Len() < 1+r.IntN(3*heapThreshold) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		w := b.String()
		heap := tok.bpeHeap(w, nil)
		if len(w) < heapThreshold {
			if scan := tok.bpe(w, nil); !slices.Equal(scan, heap) {
				t.Fatalf("%q: scan %v, heap %v", w, scan, heap)
			}
		}
		var n int
		for _, id := range heap {
			n += len(tok.bytes[id])
		}
		if n != len(w) {
			t.Fatalf("%q: tokens cover %d bytes, want %d", w, n, len(w))
		}
	}
}

func TestDecodeLossy(t *testing.T) {
	// Expected strings are what Rust's String::from_utf8_lossy returns.
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\xe4\xb8", "\uFFFD"},                           // a truncated 3-byte character: one U+FFFD
		{"a\xe4\xb8\x96b", "a世b"},                        // complete
		{"\xff\xfe", "\uFFFD\uFFFD"},                     // two bytes that never start a character
		{"a\xed\xa0\x80b", "a\uFFFD\uFFFD\uFFFDb"},       // a surrogate: each byte on its own
		{"\xf0\x9f\x98", "\uFFFD"},                       // a truncated emoji
		{"\xf0\x9f\x98\x80\xf0\x9f", "😀\uFFFD"},          // complete, then truncated
		{"\xe0\x80\x80", "\uFFFD\uFFFD\uFFFD"},           // overlong
		{"\xc3", "\uFFFD"},                               // truncated 2-byte
		{"x\x80\x80y", "x\uFFFD\uFFFDy"},                 // stray continuation bytes
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"}, // beyond U+10FFFF
	} {
		if got := string(appendLossy(nil, []byte(c.in))); got != c.want {
			t.Errorf("appendLossy(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestVocabulary(t *testing.T) {
	tok := loadForTest(t)
	if got := tok.VocabSize(); got != 151669 {
		t.Errorf("VocabSize = %d, want 151669", got)
	}
	for _, c := range []struct {
		token   string
		id      int
		special bool
	}{
		{"<|endoftext|>", 151643, true}, {"<|im_start|>", 151644, true}, {"<|im_end|>", 151645, true},
		{"<tool_call>", 151657, false}, {"</tool_call>", 151658, false}, {"<think>", 151667, false},
		{"</think>", 151668, false}, {"!", 0, false}, {"Ġworld", 1879, false},
	} {
		id, ok := tok.ID(c.token)
		if !ok || id != c.id {
			t.Errorf("ID(%q) = %d, %v; want %d", c.token, id, ok, c.id)
		}
		if got := tok.Token(c.id); got != c.token {
			t.Errorf("Token(%d) = %q, want %q", c.id, got, c.token)
		}
		if got := tok.IsSpecial(c.id); got != c.special {
			t.Errorf("IsSpecial(%d) = %v, want %v", c.id, got, c.special)
		}
	}
	if got := string(tok.TokenBytes(1879)); got != " world" {
		t.Errorf("TokenBytes(1879) = %q", got)
	}
	if tok.Token(-1) != "" || tok.Token(1<<30) != "" || tok.TokenBytes(1<<30) != nil {
		t.Error("out-of-range ids must give empty results")
	}
}

func TestEncodeDecode(t *testing.T) {
	tok := loadForTest(t)
	for _, c := range []struct {
		text string
		ids  []int
	}{
		{"", []int{}},
		{"Hello, world!", []int{9707, 11, 1879, 0}},
		{"<|im_start|>user\nhi<|im_end|>", []int{151644, 872, 198, 6023, 151645}},
		{"<|im_start", []int{27, 91, 318, 4906}},
		{"def f():\n    return 1\n", []int{750, 282, 3932, 262, 470, 220, 16, 198}},
	} {
		ids, offs := tok.EncodeWithOffsets(c.text)
		if !slices.Equal(ids, c.ids) && !(len(ids) == 0 && len(c.ids) == 0) {
			t.Errorf("Encode(%q) = %v, want %v", c.text, ids, c.ids)
			continue
		}
		var rebuilt strings.Builder
		last := 0
		for i, o := range offs {
			if o.Start < last || o.End <= o.Start || o.End > len(c.text) {
				t.Fatalf("Encode(%q): offset %d %v out of order", c.text, i, o)
			}
			rebuilt.WriteString(c.text[o.Start:o.End])
			last = o.End
		}
		if rebuilt.String() != c.text {
			t.Errorf("offsets of %q cover %q", c.text, rebuilt.String())
		}
		if got := tok.Decode(ids); got != c.text {
			t.Errorf("Decode(Encode(%q)) = %q", c.text, got)
		}
	}
	for _, invalid := range []string{"\xff\xfe abc", "a\u0301\xffb", "e\xcc", "\xe4\xb8 x\u0301"} {
		var raw []byte
		for _, id := range tok.Encode(invalid) {
			raw = append(raw, tok.TokenBytes(id)...)
		}
		if want := norm.NFC.String(invalid); string(raw) != want {
			t.Errorf("tokens of invalid UTF-8 %q spell %q, want %q", invalid, raw, want)
		}
	}
	if got := tok.DecodeSkipSpecial([]int{151644, 872, 198, 6023, 151645, 151667}); got != "user\nhi<think>" {
		t.Errorf("DecodeSkipSpecial = %q", got)
	}
	if got := tok.Decode([]int{-5, 9707, 1 << 30}); got != "Hello" {
		t.Errorf("Decode with unknown ids = %q, want them skipped", got)
	}
}

func TestParseRejectsUnsupported(t *testing.T) {
	base := `{"added_tokens": [], "normalizer": %s, "pre_tokenizer": %s, "decoder": {"type": "ByteLevel"},
	  "model": {"type": %q, "vocab": {}, "merges": []}}`
	split := `{"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": "Isolated"}, {"type": "ByteLevel"}]}`
	for _, c := range []struct{ name, json, want string }{
		{"model", fmt.Sprintf(base, "null", split, "WordPiece"), "model type"},
		{"normalizer", fmt.Sprintf(base, `{"type": "Lowercase"}`, split, "BPE"), "normalizer"},
		{"pre-tokenizer", fmt.Sprintf(base, "null", `{"type": "Whitespace"}`, "BPE"), "pre-tokenizer"},
		{"not byte-level", fmt.Sprintf(base, "null", split, "BPE"), "byte-level token"},
		{"not JSON", "{", "parse"},
	} {
		_, err := Parse([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// tinyJSON is a byte-level BPE tokenizer with the 256 byte tokens, "ab" and "abc", a split
// pattern other than Qwen's (run by regexp2) and the merges in the given format.
func tinyJSON(merges string) []byte {
	var vocab strings.Builder
	vocab.WriteString("{")
	for b := 0; b < 256; b++ {
		fmt.Fprintf(&vocab, "%q: %d, ", string(byteToRune[b]), b)
	}
	vocab.WriteString(`"ab": 256, "abc": 257}`)
	return []byte(`{"added_tokens": [{"id": 258, "content": "<eos>", "special": true}],
	  "normalizer": {"type": "NFC"},
	  "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": "\\s?\\w+|\\s+|[^\\s\\w]+"}, "behavior": "Isolated"}, {"type": "ByteLevel"}]},
	  "decoder": {"type": "ByteLevel"},
	  "model": {"type": "BPE", "vocab": ` + vocab.String() + `, "merges": ` + merges + `}}`)
}

func TestParseTiny(t *testing.T) {
	for _, merges := range []string{`["a b", "ab c"]`, `[["a", "b"], ["ab", "c"]]`} {
		tok, err := Parse(tinyJSON(merges))
		if err != nil {
			t.Fatalf("merges %s: %v", merges, err)
		}
		if _, ok := tok.split.(regexpSplitter); !ok {
			t.Fatalf("a non-Qwen pattern must run on regexp2")
		}
		text := "abc abd<eos>é"
		want := []int{257, ' ', 256, 'd', 258, 0xC3, 0xA9} // byte tokens have the byte's value as id
		ids := tok.Encode(text)
		if !slices.Equal(ids, want) {
			t.Errorf("merges %s: Encode(%q) = %v, want %v", merges, text, ids, want)
		}
		if got := tok.Decode(ids); got != text {
			t.Errorf("Decode = %q", got)
		}
	}
}
