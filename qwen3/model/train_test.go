package model

import (
	"math"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// setWeight replaces one element of a weight in the Store.
func setWeight(t *testing.T, m *Model, name string, index int, value float32) {
	t.Helper()
	v := m.Store.GetVariable(VariablePath(name))
	flat := tensors.MustCopyFlatData[float32](v.MustValue())
	flat[index] = value
	v.MustSetValue(tensors.FromFlatDataAndDimensions(flat, v.Shape().Dimensions...))
}

func getWeight(m *Model, name string, index int) float32 {
	return tensors.MustCopyFlatData[float32](m.Store.GetVariable(VariablePath(name)).MustValue())[index]
}

// TestWeightUpdatesReachCompiledGraphs guards against executors that bake the weights into
// their compiled graphs as constants: a trainer that updates Store must see the new weights in
// Logits, LogProbs and Generate without reloading.
func TestWeightUpdatesReachCompiledGraphs(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 4, VocabSize: testVocab})
	ids, targets := []int{1, 2, 3}, []int{2, 3, 4}
	before, err := m.LogProbs(ids, targets)
	if err != nil {
		t.Fatal(err)
	}
	genBefore, err := m.Generate(ids, GenerateOptions{MaxNew: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Zeroing the final norm's weight zeroes every logit: uniform log-probs, and greedy decoding
	// falls back to the lowest id.
	for i := range m.Config.HiddenSize {
		setWeight(t, m, finalNormName, i, 0)
	}
	after, _ := m.LogProbs(ids, targets)
	logits, _ := m.Logits(ids)
	genAfter, _ := m.Generate(ids, GenerateOptions{MaxNew: 1})
	uniform := -math.Log(testVocab)
	if math.Abs(float64(before[0])-uniform) < 1e-3 {
		t.Fatalf("log-prob %g was uniform before the update: the test proves nothing", before[0])
	}
	if math.Abs(float64(after[0])-uniform) > 1e-4 {
		t.Errorf("LogProbs after zeroing the final norm: %g, want %g", after[0], uniform)
	}
	if logits[2][5] != 0 {
		t.Errorf("Logits after zeroing the final norm: %g, want 0", logits[2][5])
	}
	if genBefore.Tokens[0] == 0 || genAfter.Tokens[0] != 0 {
		t.Errorf("greedy token %d before, %d after zeroing the final norm (want 0)", genBefore.Tokens[0], genAfter.Tokens[0])
	}
}

// TestLogProbsGradient differentiates the mean log-probability through LogProbsGraph, the way a
// policy-gradient trainer does, and checks a few entries against central finite differences.
func TestLogProbsGradient(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 5, VocabSize: 64, Tied: false})
	ids, targets := []int{1, 2, 3, 4, 5}, []int{2, 3, 4, 5, 6}
	names := []string{
		"model.embed_tokens.weight",
		layerName(0, "self_attn.q_norm.weight"),
		layerName(1, "self_attn.k_proj.weight"),
		layerName(0, "mlp.down_proj.weight"),
		layerName(1, "input_layernorm.weight"),
		lmHeadName,
	}
	exec, err := model.NewExec(m.Backend(), m.Store, func(_ *model.Scope, idsN, targetsN *Node) []*Node {
		loss := ReduceAllMean(m.LogProbsGraph(idsN, targetsN))
		ws := make([]*Node, len(names))
		for i, n := range names {
			ws[i] = m.weight(loss.Graph(), n)
		}
		return Gradient(loss, ws...)
	})
	if err != nil {
		t.Fatal(err)
	}
	grads, err := exec.Call(padRowsTo([][]int{ids}, len(ids)), padRowsTo([][]int{targets}, len(ids)))
	if err != nil {
		t.Fatal(err)
	}
	meanLogProb := func() float64 {
		lps, err := m.LogProbs(ids, targets)
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, lp := range lps {
			s += float64(lp)
		}
		return s / float64(len(lps))
	}
	for k, name := range names {
		g := tensors.MustCopyFlatData[float32](grads[k])
		i := 0 // the entry with the largest gradient: finite differences resolve it best
		for j := range g {
			if math.Abs(float64(g[j])) > math.Abs(float64(g[i])) {
				i = j
			}
		}
		w := getWeight(m, name, i)
		const h = 1e-2
		setWeight(t, m, name, i, w+h)
		up := meanLogProb()
		setWeight(t, m, name, i, w-h)
		down := meanLogProb()
		setWeight(t, m, name, i, w)
		fd := (up - down) / (2 * h)
		if math.Abs(fd-float64(g[i])) > 2e-2*math.Abs(fd)+1e-3 {
			t.Errorf("%s[%d]: gradient %g, finite difference %g", name, i, g[i], fd)
		}
	}
}
