package agentrl

import (
	"math"
	"slices"
	"testing"

	"github.com/agenticrl/course/qwen3/model"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestSoftmaxScore(t *testing.T) {
	// π = [1/4, 3/4]: the score of action 0 is [1 − 1/4, −3/4].
	got := SoftmaxScore([]float64{0, math.Log(3)}, 0)
	if !near(got[0], 0.75, 1e-12) || !near(got[1], -0.75, 1e-12) {
		t.Errorf("SoftmaxScore = %v, want [0.75 -0.75]", got)
	}
	// Against central finite differences of LogSoftmax.
	logits := []float64{0.3, -1.2, 2.0, 0.5}
	const h = 1e-6
	for a := range logits {
		score := SoftmaxScore(logits, a)
		for k := range logits {
			up, down := slices.Clone(logits), slices.Clone(logits)
			up[k] += h
			down[k] -= h
			fd := (LogSoftmax(up)[a] - LogSoftmax(down)[a]) / (2 * h)
			if !near(score[k], fd, 1e-7) {
				t.Errorf("action %d, logit %d: score %.9f, finite difference %.9f", a, k, score[k], fd)
			}
		}
	}
}

// exactBanditGradient is ∂/∂z_k Σ_a π(a) r(a) = π(k) (r(k) − J), from the finite differences of J.
func fdBanditGradient(logits, rewards []float64) []float64 {
	j := func(z []float64) float64 {
		s := 0.0
		for a, lp := range LogSoftmax(z) {
			s += math.Exp(lp) * rewards[a]
		}
		return s
	}
	const h = 1e-6
	g := make([]float64, len(logits))
	for k := range logits {
		up, down := slices.Clone(logits), slices.Clone(logits)
		up[k] += h
		down[k] -= h
		g[k] = (j(up) - j(down)) / (2 * h)
	}
	return g
}

func TestREINFORCEEstimate(t *testing.T) {
	// Hand-computed: π = [1/4, 3/4], actions 0 and 1 with advantages 2 and −1:
	// ½(2·[3/4, −3/4] + (−1)·[−1/4, 1/4]) = [7/8, −7/8].
	got := REINFORCEEstimate([]float64{0, math.Log(3)}, []int{0, 1}, []float64{2, -1})
	if !near(got[0], 0.875, 1e-12) || !near(got[1], -0.875, 1e-12) {
		t.Errorf("REINFORCEEstimate = %v, want [0.875 -0.875]", got)
	}
	// Its expectation, each action weighted by π(a), is the exact gradient, with or without a
	// constant baseline: the score has mean zero.
	logits := []float64{0.3, -1.2, 2.0, 0.5}
	rewards := []float64{1, 4, 2, 3}
	want := fdBanditGradient(logits, rewards)
	for _, b := range []float64{0, 2.5, -10} {
		mean := make([]float64, len(logits))
		for a, lp := range LogSoftmax(logits) {
			for k, g := range REINFORCEEstimate(logits, []int{a}, []float64{rewards[a] - b}) {
				mean[k] += math.Exp(lp) * g
			}
		}
		for k := range mean {
			if !near(mean[k], want[k], 1e-6) {
				t.Errorf("baseline %g: E[estimate][%d] = %.7f, exact gradient %.7f", b, k, mean[k], want[k])
			}
		}
	}
}

func TestMeanAndLeaveOneOutBaselines(t *testing.T) {
	for _, c := range []struct {
		name         string
		rewards      []float64
		mean, leave1 []float64
	}{
		{"spread", []float64{1, 2, 3, 6}, []float64{-2, -1, 0, 3}, []float64{1 - 11.0/3, 2 - 10.0/3, 3 - 3, 6 - 2}},
		{"all equal", []float64{-1, -1, -1}, []float64{0, 0, 0}, []float64{0, 0, 0}},
		{"two", []float64{0, 1}, []float64{-0.5, 0.5}, []float64{-1, 1}},
	} {
		m, l := MeanBaseline(c.rewards), LeaveOneOutBaseline(c.rewards)
		n := float64(len(c.rewards))
		for i := range c.rewards {
			if !near(m[i], c.mean[i], 1e-12) || !near(l[i], c.leave1[i], 1e-12) {
				t.Errorf("%s: mean %v want %v; leave-one-out %v want %v", c.name, m, c.mean, l, c.leave1)
				break
			}
			// The two differ exactly by the factor N/(N−1).
			if !near(l[i], m[i]*n/(n-1), 1e-12) {
				t.Errorf("%s: leave-one-out %v is not N/(N−1) × mean-baseline %v", c.name, l, m)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("LeaveOneOutBaseline of one reward did not panic")
		}
	}()
	LeaveOneOutBaseline([]float64{1})
}

func TestREINFORCELoss(t *testing.T) {
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	exec, err := graph.NewExec(backend, func(lp, adv, mask *graph.Node) []*graph.Node {
		loss := REINFORCELoss(lp, adv, mask)
		return append([]*graph.Node{loss}, graph.Gradient(loss, lp, adv)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func(lp, adv, mask [][]float32) (float64, []float32, []float32) {
		out, err := exec.Call(lp, adv, mask)
		if err != nil {
			t.Fatal(err)
		}
		return float64(tensors.ToScalar[float32](out[0])), tensors.MustCopyFlatData[float32](out[1]),
			tensors.MustCopyFlatData[float32](out[2])
	}
	lp := [][]float32{{-0.5, -1, -2}, {-0.25, -3, 0}, {-7, -7, -7}}
	adv := [][]float32{{2, 2, 2}, {-1, -1, -1}, {5, 5, 5}} // one advantage per sequence
	mask := [][]float32{{1, 1, 0}, {1, 0, 0}, {0, 0, 0}}   // the third row is padding
	// Two counted rows: −(2·(−1.5) + (−1)·(−0.25)) / 2 = 1.375.
	loss, gLP, gAdv := run(lp, adv, mask)
	if !near(loss, 1.375, 1e-6) {
		t.Errorf("loss %.6f, want 1.375", loss)
	}
	wantLP := []float32{-1, -1, 0, 0.5, 0, 0, 0, 0, 0} // −A_b · mask / 2
	for i := range wantLP {
		if !near(float64(gLP[i]), float64(wantLP[i]), 1e-6) {
			t.Errorf("∂loss/∂logProbs = %v, want %v", gLP, wantLP)
			break
		}
	}
	if slices.ContainsFunc(gAdv, func(g float32) bool { return g != 0 }) {
		t.Errorf("gradient reached the advantages: %v", gAdv)
	}
	// Finite differences in every log-prob, padding included.
	const h = 1e-2
	for b := range lp {
		for j := range lp[b] {
			up, down := cloneRows(lp), cloneRows(lp)
			up[b][j] += h
			down[b][j] -= h
			lu, _, _ := run(up, adv, mask)
			ld, _, _ := run(down, adv, mask)
			if fd := (lu - ld) / (2 * h); !near(fd, float64(gLP[b*3+j]), 1e-3) {
				t.Errorf("logProbs[%d][%d]: gradient %.5f, finite difference %.5f", b, j, gLP[b*3+j], fd)
			}
		}
	}
	// Per-token advantages: each token is weighted by its own, one row counted.
	if l, g, _ := run([][]float32{{-1, -2, -4}}, [][]float32{{3, -1, 0.5}}, [][]float32{{1, 1, 1}}); !near(l, 3-2+2, 1e-6) ||
		!near(float64(g[0]), -3, 1e-6) || !near(float64(g[1]), 1, 1e-6) || !near(float64(g[2]), -0.5, 1e-6) {
		t.Errorf("per-token advantages: loss %v gradient %v, want 3 and [-3 1 -0.5]", l, g)
	}
	// No counted token at all: the loss is 0, not a division by zero.
	if l, _, _ := run(lp, adv, [][]float32{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}); l != 0 {
		t.Errorf("loss with an empty mask = %v, want 0", l)
	}
}

func cloneRows(x [][]float32) [][]float32 {
	out := make([][]float32, len(x))
	for i := range x {
		out[i] = slices.Clone(x[i])
	}
	return out
}
