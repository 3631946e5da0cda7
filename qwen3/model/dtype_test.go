package model

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
)

// TestWithDTypeRoundsLikeAnEngine: the bf16 path's logits are stored in bf16 (every value is a
// bf16 number), its log-probs differ from the float32 path's by rounding only (some difference,
// all of them small), and what it generates with its cache it also scores without one.
func TestWithDTypeRoundsLikeAnEngine(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 4, VocabSize: testVocab})
	if m.DType() != dtypes.Float32 {
		t.Fatalf("a loaded model computes in %s, want Float32", m.DType())
	}
	if _, err := m.WithDType(dtypes.Int32); err == nil {
		t.Error("WithDType(Int32) was accepted")
	}
	bf, err := m.WithDType(dtypes.BFloat16)
	if err != nil {
		t.Fatal(err)
	}
	if bf.DType() != dtypes.BFloat16 || bf.Store == m.Store {
		t.Fatalf("the engine copy computes in %s and shares the store: %v", bf.DType(), bf.Store == m.Store)
	}
	ids := []int{5, 17, 300, 2, 511, 0, 42, 42, 7, 100, 250, 3, 9, 77}
	targets := append(append([]int{}, ids[1:]...), 1)
	rows, err := bf.Logits(ids)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		for j, z := range row {
			if math.Float32bits(z)&0xffff != 0 {
				t.Fatalf("bf16 logit [%d][%d] = %v is not a bf16 number", i, j, z)
			}
		}
	}
	want, err := m.LogProbs(ids, targets)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bf.LogProbs(ids, targets)
	if err != nil {
		t.Fatal(err)
	}
	largest := 0.0
	for i := range want {
		largest = max(largest, math.Abs(float64(got[i]-want[i])))
	}
	if largest == 0 || largest > 0.5 {
		t.Errorf("largest |Δ log p| between bf16 and float32 is %g; want a rounding difference in (0, 0.5]", largest)
	}
	// The engine's own scoring of what it generated agrees with its generation (cache and all),
	// over a prompt long enough for attention to sum over many positions.
	prompt := make([]int, 90)
	for i := range prompt {
		prompt[i] = (i*37 + 11) % testVocab
	}
	gen, err := bf.Generate(prompt, GenerateOptions{MaxNew: 24, Temperature: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	seq := append(append([]int{}, prompt...), gen.Tokens...)
	own, err := bf.LogProbs(seq[:len(seq)-1], seq[1:])
	if err != nil {
		t.Fatal(err)
	}
	for i, lp := range gen.LogProbs {
		if d := math.Abs(float64(lp - own[len(prompt)-1+i])); d > 1e-4 {
			t.Errorf("bf16 token %d: generated with log-prob %g, scored %g by the same path", i, lp, own[len(prompt)-1+i])
		}
	}
}
