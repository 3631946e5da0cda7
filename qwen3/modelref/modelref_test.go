package modelref

import (
	"fmt"
	"testing"

	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/safetensors"
)

// maxRelError is the agreement the Go model must reach with the PyTorch reference on logits.
const maxRelError = 1e-4

// testIDs spans the vocabulary, including Qwen3's special tokens near its end, and is long enough
// (40 tokens, padded to 64 in Go) for rotary angles and the causal mask to matter.
func testIDs() []int {
	ids := []int{151644, 872, 198, 9707, 0, 1, 151645, 151643, 151935, 77091}
	for i := len(ids); i < 40; i++ {
		ids = append(ids, (i*7919+13)%151936)
	}
	return ids
}

func TestLogitsMatchPyTorch(t *testing.T) {
	if err := Available(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dtype  string
		tied   bool
		shards int
	}{
		{safetensors.F32, true, 1},
		{safetensors.F32, false, 1},
		{safetensors.BF16, true, 1},
		{safetensors.BF16, false, 1},
		{safetensors.BF16, false, 3},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s/tied=%v/shards=%d", tc.dtype, tc.tied, tc.shards)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := model.WriteTiny(dir, model.TinyOptions{Seed: 7, DType: tc.dtype, Tied: tc.tied, Shards: tc.shards}); err != nil {
				t.Fatal(err)
			}
			m, err := model.Load(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids := testIDs()
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
			t.Logf("%s: max |go - torch| / max |torch| = %.3g over %d x %d logits", name, rel, len(want), len(want[0]))
			if rel > maxRelError {
				t.Errorf("relative logit error %.3g exceeds %g", rel, maxRelError)
			}
		})
	}
}
