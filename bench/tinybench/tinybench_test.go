package tinybench

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/safetensors"
)

const tasks = "../../datasets/bugfix"

func TestParityWithPyTorch(t *testing.T) {
	for _, fast := range []bool{false, true} {
		p, err := CheckParity(tasks, 8, 3, fast)
		if err != nil {
			t.Fatalf("fast %v: %v", fast, err)
		}
		t.Logf("fast %v: max |Δ log-prob| %.2g (batch), %.2g (sampler); max gradient error %.2g of scale",
			fast, p.LogProbs, p.Sampler, p.Grads)
		if p.LogProbs > MaxLogProbDiff || p.Sampler > MaxLogProbDiff || p.Grads > MaxGradRelDiff {
			t.Errorf("fast %v: parity %+v outside tolerances", fast, p)
		}
	}
}

// TestParityCatchesDifferences changes what the PyTorch side receives, one thing at a time, and
// expects its check to refuse: a check that passes anything would let a wrong network be timed.
func TestParityCatchesDifferences(t *testing.T) {
	if err := Available(); err != nil {
		t.Fatal(err)
	}
	states, err := startStates(tasks, 8)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBatch(states, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, tensor string
		change             func([]float32)
		want               string
	}{
		// A second-layer weight: moves every log-prob and gradient a little.
		{"mlp weight", "weights.safetensors", "layer1/mlp2", func(x []float32) { x[7] += 0.05 }, "log-probs differ"},
		// The final layer norm's bias: zero in a fresh agent, so a value that equal logits can hide.
		{"norm bias", "weights.safetensors", "lnf_b", func(x []float32) { x[0] += 0.5 }, "differ"},
		// The edit counts per line and class, all zero: the sampler's grammar no longer allows
		// EDIT, so it normalizes every tool choice over other tokens (and an edit GoMLX drew
		// breaks its grammar).
		{"menu sizes", "batch.safetensors", "class_count", func(x []float32) { clear(x) }, "sampler"},
		// GoMLX's gradient of one weight: PyTorch's backward must be compared, not only its forward.
		{"gradient", "batch.safetensors", "grad/layer0/qkv", func(x []float32) { x[3] *= 2 }, "gradient of layer0/qkv"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := b.write(dir); err != nil {
				t.Fatal(err)
			}
			rewrite(t, filepath.Join(dir, tc.file), tc.tensor, tc.change)
			torch, _, err := startTorch(dir, torchRun{Threads: runtime.GOMAXPROCS(0), Seed: 5})
			if err == nil {
				err = torch.close()
			}
			if err == nil || !strings.Contains(err.Error(), "parity") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("changed %s in %s: want a parity failure mentioning %q, got %v", tc.tensor, tc.file, tc.want, err)
			}
			t.Log(err)
		})
	}
}

// rewrite applies change to one tensor of a safetensors file and writes the file again.
func rewrite(t *testing.T, path, name string, change func([]float32)) {
	t.Helper()
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(f.Tensors))
	for n := range f.Tensors {
		names = append(names, n)
	}
	sort.Strings(names)
	var all []safetensors.Tensor
	found := false
	for _, n := range names {
		data, shape, err := f.Float32(n)
		if err != nil {
			t.Fatal(err)
		}
		if n == name {
			change(data)
			found = true
		}
		all = append(all, safetensors.Tensor{Name: n, DType: safetensors.F32, Shape: shape, Data: data})
	}
	f.Close()
	if !found {
		t.Fatalf("%s has no tensor %s", path, name)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := safetensors.Write(path, all, nil); err != nil {
		t.Fatal(err)
	}
}
