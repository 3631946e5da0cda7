package model

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck
	"github.com/gomlx/gomlx/core/tensors"
)

// testStreams are token streams long enough that the products exceed the pure-Go backend's
// threshold for its large-matrix kernels.
func testStreams() [][]int {
	var streams [][]int
	for r := range 5 {
		s := make([]int, 40+r*13)
		for i := range s {
			s[i] = (i*37 + r*101 + 11) % testVocab
		}
		streams = append(streams, s)
	}
	return streams
}

// TestAutocast: Int32 is refused; bf16 autocast moves the log-probs by rounding alone (some
// difference, none large, less than the emulated engine's which also rounds the norms and the
// residual stream); the cached step generates what the model scores; turning it off restores the
// float32 logits bit for bit.
func TestAutocast(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 4, VocabSize: testVocab})
	if err := m.SetAutocast(dtypes.Int32); err == nil || m.Autocast() != dtypes.Float32 {
		t.Fatalf("SetAutocast(Int32): error %v, autocast now %s", err, m.Autocast())
	}
	ids := testStreams()[4]
	before, err := m.Logits(ids)
	if err != nil {
		t.Fatal(err)
	}
	f32, err := m.WithDType(dtypes.Float32)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := m.WithDType(dtypes.BFloat16)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetAutocast(dtypes.BFloat16); err != nil || m.Autocast() != dtypes.BFloat16 {
		t.Fatalf("SetAutocast(BFloat16): error %v, autocast now %s", err, m.Autocast())
	}
	cast, err := Mismatch(f32, m, testStreams())
	if err != nil {
		t.Fatal(err)
	}
	emulated, err := Mismatch(f32, engine, testStreams())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("|Δ log p| against float32: autocast %+v, emulated engine %+v", cast, emulated)
	// bf16 keeps 8 significant bits, a relative error of 2^-9 per rounding; through two layers
	// and logits of a few units that moves log-probs by hundredths of a nat, never by half a nat.
	if cast.Max == 0 || cast.Max > 0.5 || cast.Mean > 0.05 || cast.Mean > emulated.Mean {
		t.Errorf("autocast's |Δ log p|: mean %g, max %g; want a rounding difference in (0, 0.5], mean at most 0.05 and %g (the emulation's)",
			cast.Mean, cast.Max, emulated.Mean)
	}
	// The cached step is built with autocast too: what it generates, the model scores the same.
	gen, err := m.Generate(ids, GenerateOptions{MaxNew: 16, Temperature: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	seq := append(append([]int{}, ids...), gen.Tokens...)
	own, err := m.LogProbs(seq[:len(seq)-1], seq[1:])
	if err != nil {
		t.Fatal(err)
	}
	for i, lp := range gen.LogProbs {
		if d := math.Abs(float64(lp - own[len(ids)-1+i])); d > 1e-4 {
			t.Errorf("autocast token %d: generated with log-prob %g, scored %g", i, lp, own[len(ids)-1+i])
		}
	}
	if err := m.SetAutocast(dtypes.Float32); err != nil {
		t.Fatal(err)
	}
	after, err := m.Logits(ids)
	if err != nil {
		t.Fatal(err)
	}
	for i := range before {
		for j := range before[i] {
			if before[i][j] != after[i][j] {
				t.Fatalf("logit [%d][%d] is %v after autocast on and off, %v before", i, j, after[i][j], before[i][j])
			}
		}
	}
}

// TestAutocastOnAnEngineCopy: a WithDType(BFloat16) copy with autocast on computes what the
// emulation imitates: the same bits on the pure-Go backend, whose autocast is float32
// arithmetic, and elsewhere the same up to the order of the sums, far less than the rounding
// itself moves the log-probs.
func TestAutocastOnAnEngineCopy(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 4, VocabSize: testVocab})
	engine, err := m.WithDType(dtypes.BFloat16)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetAutocast(dtypes.BFloat16); err != nil {
		t.Fatal(err)
	}
	native, err := m.WithDType(dtypes.BFloat16) // keeps m's autocast
	if err != nil {
		t.Fatal(err)
	}
	if native.Autocast() != dtypes.BFloat16 {
		t.Fatalf("an engine copy of a model with bf16 autocast has autocast %s", native.Autocast())
	}
	rounding, err := Mismatch(m, engine, testStreams())
	if err != nil {
		t.Fatal(err)
	}
	gap, err := Mismatch(engine, native, testStreams())
	if err != nil {
		t.Fatal(err)
	}
	limit := rounding.Max / 4
	if m.Backend().String() == gobackend.BackendName {
		limit = 0
	}
	if rounding.Max == 0 || gap.Max > limit {
		t.Errorf("engine copy with autocast against the emulation: |Δ log p| up to %g, want at most %g (the rounding's %g)",
			gap.Max, limit, rounding.Max)
	}
}

// TestCastDot runs castDot, the accelerators' autocast product, on the pure-Go backend at sizes
// its small half-precision kernels handle correctly: values and gradients agree with roundedDot
// to within one bf16 rounding (the sums may run in another order), and the float32 operands get
// float32 gradients.
func TestCastDot(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 4, VocabSize: testVocab})
	// Attention's shapes: q [B, T, KV, G, D] against k [B, S, KV, D].
	wave := func(phase int, dims ...int) *tensors.Tensor {
		n := 1
		for _, d := range dims {
			n *= d
		}
		flat := make([]float32, n)
		for j := range flat {
			flat[j] = 3 * float32(math.Sin(float64(7*j+phase)))
		}
		return tensors.FromFlatDataAndDimensions(flat, dims...)
	}
	q, k := wave(0, 2, 8, 2, 2, 16), wave(1, 2, 8, 2, 16)
	outs, err := ExecOnceN(m.Backend(), func(q, k *Node) []*Node {
		var res []*Node
		for _, dot := range []func(dtypes.DType, *Node, []int, []int, *Node, []int, []int) *Node{castDot, roundedDot} {
			y := dot(dtypes.BFloat16, q, []int{4}, []int{0, 2}, k, []int{3}, []int{0, 2})
			loss := ReduceAllSum(Mul(y, Sin(y)))
			res = append(res, y)
			res = append(res, Gradient(loss, q, k)...)
		}
		return res
	}, q, k)
	if err != nil {
		t.Fatal(err)
	}
	for i, what := range []string{"product", "gradient of q", "gradient of k"} {
		got, want := outs[i], outs[i+3]
		if got.DType() != dtypes.Float32 {
			t.Errorf("castDot's %s is %s, want Float32", what, got.DType())
		}
		g, w := tensors.MustCopyFlatData[float32](got), tensors.MustCopyFlatData[float32](want)
		for j := range w {
			if d := math.Abs(float64(g[j] - w[j])); d > math.Abs(float64(w[j]))/128+1e-6 {
				t.Fatalf("%s [%d]: castDot %g, roundedDot %g", what, j, g[j], w[j])
			}
		}
	}
}
