package modelref

import (
	"fmt"
	"testing"

	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/safetensors"
)

// maxRelError is the agreement the Go model must reach with the PyTorch reference on logits.
const maxRelError = 1e-4

// testIDs spans the vocabulary, including Qwen3's special tokens near its end when the vocabulary
// is Qwen3's, and is long enough for rotary angles and the causal mask to matter.
func testIDs(n, vocab int) []int {
	ids := []int{151644, 872, 198, 9707, 0, 1, 151645, 151643, 151935, 77091}
	for i := range ids {
		ids[i] %= vocab
	}
	for i := len(ids); i < n; i++ {
		ids = append(ids, (i*7919+13)%vocab)
	}
	return ids[:n]
}

func TestLogitsMatchPyTorch(t *testing.T) {
	if err := Available(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dtype  string
		tied   bool
		shards int
		vocab  int // 0: Qwen3's 151936
		tokens int
	}{
		{safetensors.F32, true, 1, 0, 40},
		{safetensors.F32, false, 1, 0, 40},
		{safetensors.BF16, true, 1, 0, 40},
		{safetensors.BF16, false, 1, 0, 40},
		{safetensors.BF16, false, 3, 0, 40},
		// Positions up to 299 (padded to 512 in Go), on a small vocabulary to keep it quick.
		{safetensors.BF16, true, 1, 2000, 300},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s/tied=%v/shards=%d/vocab=%d/tokens=%d", tc.dtype, tc.tied, tc.shards, tc.vocab, tc.tokens)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			cfg, err := model.WriteTiny(dir, model.TinyOptions{Seed: 7, DType: tc.dtype, Tied: tc.tied, Shards: tc.shards, VocabSize: tc.vocab})
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.Load(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids := testIDs(tc.tokens, cfg.VocabSize)
			got, err := m.Logits(ids)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Logits(dir, ids)
			if err != nil {
				t.Fatal(err)
			}
			rel, err := MaxRelError(got, want)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("max |go - torch| / max |torch| = %.3g over %d x %d logits", rel, len(want), len(want[0]))
			if rel > maxRelError {
				t.Errorf("relative logit error %.3g exceeds %g", rel, maxRelError)
			}
		})
	}
}
