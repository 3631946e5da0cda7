package agentrl

import (
	"math"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"

	"github.com/agenticrl/course/qwen3/model"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestGroupAdvantages(t *testing.T) {
	// [1,1,1,0]: mean 0.75, deviations [0.25 0.25 0.25 −0.75], Σ squares 0.75;
	// sample std √(0.75/3) = 0.5, population std √(0.75/4) = √3/4.
	pop := math.Sqrt(3) / 4
	for _, c := range []struct {
		name          string
		rewards       []float64
		scale, sample bool
		want          []float64
		tol           float64
	}{
		{"sample std", []float64{1, 1, 1, 0}, true, true, []float64{0.5, 0.5, 0.5, -1.5}, 1e-5},
		{"population std", []float64{1, 1, 1, 0}, true, false, []float64{0.25 / pop, 0.25 / pop, 0.25 / pop, -0.75 / pop}, 1e-5},
		{"no std (Dr. GRPO)", []float64{1, 1, 1, 0}, false, true, []float64{0.25, 0.25, 0.25, -0.75}, 1e-12},
		// A spread of 0.01 is scaled to the same advantages as a spread of 1.
		{"near-uniform, inflated", []float64{1, 1, 1, 0.99}, true, true, []float64{0.5, 0.5, 0.5, -1.5}, 1e-3},
		{"near-uniform, unscaled", []float64{1, 1, 1, 0.99}, false, true, []float64{0.0025, 0.0025, 0.0025, -0.0075}, 1e-12},
		{"all equal, sample", []float64{0.1, 0.1, 0.1}, true, true, []float64{0, 0, 0}, 0},
		{"all equal, population", []float64{0.1, 0.1, 0.1}, true, false, []float64{0, 0, 0}, 0},
		{"all equal, no std", []float64{0.1, 0.1, 0.1}, false, false, []float64{0, 0, 0}, 0},
		{"one sample", []float64{3}, true, true, []float64{0}, 0},
	} {
		got := GroupAdvantages(c.rewards, c.scale, c.sample)
		if len(got) != len(c.want) {
			t.Fatalf("%s: %d advantages, want %d", c.name, len(got), len(c.want))
		}
		for i := range got {
			if math.IsNaN(got[i]) || !near(got[i], c.want[i], c.tol) {
				t.Errorf("%s: GroupAdvantages(%v) = %v, want %v", c.name, c.rewards, got, c.want)
				break
			}
		}
	}
	if got := GroupAdvantages(nil, true, true); len(got) != 0 {
		t.Errorf("GroupAdvantages(nil) = %v, want empty", got)
	}
}

func TestRLOOAdvantages(t *testing.T) {
	for _, c := range []struct {
		rewards, want []float64
	}{
		{[]float64{1, 1, 1, 0}, []float64{1 - 2.0/3, 1 - 2.0/3, 1 - 2.0/3, -1}},
		{[]float64{1, 2, 3, 6}, []float64{1 - 11.0/3, 2 - 10.0/3, 0, 4}},
		{[]float64{0, 0}, []float64{0, 0}},
		{[]float64{7}, []float64{0}},
	} {
		got := RLOOAdvantages(c.rewards)
		for i := range c.want {
			if !near(got[i], c.want[i], 1e-12) {
				t.Errorf("RLOOAdvantages(%v) = %v, want %v", c.rewards, got, c.want)
				break
			}
		}
		// RLOO is the unscaled group advantage times N/(N−1).
		if n := float64(len(c.rewards)); n > 1 {
			for i, g := range GroupAdvantages(c.rewards, false, false) {
				if !near(got[i], g*n/(n-1), 1e-12) {
					t.Errorf("RLOOAdvantages(%v) = %v is not N/(N−1) × %v", c.rewards, got, g)
				}
			}
		}
	}
}

func TestAggregationWeights(t *testing.T) {
	for _, c := range []struct {
		mode    Aggregation
		lengths []int
		maxLen  int
		want    []float64
	}{
		{SeqMeanTokenMean, []int{10, 100}, 0, []float64{1.0 / 20, 1.0 / 200}},
		{TokenMean, []int{10, 100}, 0, []float64{1.0 / 110, 1.0 / 110}},
		{SeqMeanTokenSum, []int{10, 100}, 0, []float64{0.5, 0.5}},
		{SeqMeanTokenSumNorm, []int{10, 100}, 200, []float64{1.0 / 400, 1.0 / 400}},
		// An empty sequence gets no weight and is not counted among the N sequences.
		{SeqMeanTokenMean, []int{10, 0, 100}, 0, []float64{1.0 / 20, 0, 1.0 / 200}},
		{SeqMeanTokenSum, []int{3, 0, 1}, 0, []float64{0.5, 0, 0.5}},
		{TokenMean, []int{0, 0}, 0, []float64{0, 0}},
	} {
		got := AggregationWeights(c.lengths, c.mode, c.maxLen)
		for i := range c.want {
			if !near(got[i], c.want[i], 1e-15) {
				t.Errorf("%v %v: weights %v, want %v", c.mode, c.lengths, got, c.want)
				break
			}
		}
	}
	// The ratio of per-token weights between lengths 10 and 100.
	for mode, want := range map[Aggregation]float64{TokenMean: 1, SeqMeanTokenMean: 10, SeqMeanTokenSum: 1, SeqMeanTokenSumNorm: 1} {
		w := AggregationWeights([]int{10, 100}, mode, 128)
		if !near(w[0]/w[1], want, 1e-12) {
			t.Errorf("%v: weight ratio %v for lengths 10:100, want %v", mode, w[0]/w[1], want)
		}
	}
	// Totals: 1 for the means, the mean length for the sum, mean length / maxLen for the norm.
	lengths := []int{3, 7, 20}
	for mode, want := range map[Aggregation]float64{TokenMean: 1, SeqMeanTokenMean: 1, SeqMeanTokenSum: 10, SeqMeanTokenSumNorm: 0.25} {
		total := 0.0
		for i, w := range AggregationWeights(lengths, mode, 40) {
			total += w * float64(lengths[i])
		}
		if !near(total, want, 1e-12) {
			t.Errorf("%v: weights sum to %v over all tokens, want %v", mode, total, want)
		}
	}
	for name, f := range map[string]func(){
		"norm without maxLen": func() { AggregationWeights([]int{1}, SeqMeanTokenSumNorm, 0) },
		"negative length":     func() { AggregationWeights([]int{-1}, TokenMean, 0) },
		"unknown mode":        func() { AggregationWeights([]int{1}, Aggregation(9), 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
	if s := SeqMeanTokenSumNorm.String(); s != "seq-mean-token-sum-norm" {
		t.Errorf("String() = %q", s)
	}
}

// grpoBatch is a hand-made batch of two episodes: episode 0 is two calls (rows 0 and 1, with 2
// and 1 tokens), episode 1 one call of 1 token (row 2); row 3 and episode column 2 are padding.
var grpoBatch = struct {
	mask, episode, adv [][]float32
	lengths            []int
}{
	mask:    [][]float32{{1, 1, 0}, {1, 0, 0}, {1, 0, 0}, {0, 0, 0}},
	episode: [][]float32{{1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}},
	adv:     [][]float32{{1, 1, 0}, {1, 0, 0}, {-0.5, 0, 0}, {0, 0, 0}},
	lengths: []int{3, 1},
}

// grpoLossExec evaluates GRPOLoss(cfg) on (logProbs, oldLogProbs, advantages, mask, episode) and
// returns the loss, the metrics by name and ∂loss/∂logProbs.
func grpoLossExec(t *testing.T, cfg GRPOConfig) func(lp, old, adv, mask, episode [][]float32) (float64, map[string]float64, [][]float64) {
	t.Helper()
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	exec, err := graph.NewExec(backend, func(lp, old, adv, mask, episode *graph.Node) []*graph.Node {
		loss, metrics := GRPOLoss(cfg)(LossInputs{LogProbs: lp, SamplingLogProbs: old, Advantages: adv, Mask: mask,
			Episode: episode, RefLogProbs: graph.ZerosLike(lp), Entropy: graph.ZerosLike(lp)})
		return withMetrics(&names, metrics, loss, graph.Gradient(loss, lp)[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	return func(lp, old, adv, mask, episode [][]float32) (float64, map[string]float64, [][]float64) {
		out, err := exec.Call(lp, old, adv, mask, episode)
		if err != nil {
			t.Fatal(err)
		}
		metrics := map[string]float64{}
		for k, n := range names {
			metrics[n] = float64(tensors.ToScalar[float32](out[2+k]))
		}
		flat := tensors.MustCopyFlatData[float32](out[1])
		cols := len(lp[0])
		grad := make([][]float64, len(lp))
		for b := range grad {
			grad[b] = make([]float64, cols)
			for j := range grad[b] {
				grad[b][j] = float64(flat[b*cols+j])
			}
		}
		return float64(tensors.ToScalar[float32](out[0])), metrics, grad
	}
}

// logRatios returns log-probs lp = old + log(ratio) for old log-probs of −1.
func logRatios(ratios [][]float64) (lp, old [][]float32) {
	for _, row := range ratios {
		l, o := make([]float32, len(row)), make([]float32, len(row))
		for j, r := range row {
			o[j] = -1
			l[j] = float32(-1 + math.Log(r))
		}
		lp, old = append(lp, l), append(old, o)
	}
	return lp, old
}

func TestGRPOLossOnPolicyGradientIsTheWeights(t *testing.T) {
	b := grpoBatch
	ones := [][]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}
	lp, old := logRatios(ones)
	// With ratio 1 every term is its advantage: Σ_i w_i |o_i| A_i, with |o| = (3, 1), A = (1, −0.5).
	for _, c := range []struct {
		mode Aggregation
		want float64
	}{
		{TokenMean, -(3 - 0.5) / 4.0},
		{SeqMeanTokenMean, -(1 - 0.5) / 2.0},
		{SeqMeanTokenSum, -(3 - 0.5) / 2.0},
		{SeqMeanTokenSumNorm, -(3 - 0.5) / 2.0 / 5},
	} {
		run := grpoLossExec(t, GRPOConfig{ClipLow: 0.2, ClipHigh: 0.2, Aggregation: c.mode, MaxLen: 5})
		loss, metrics, grad := run(lp, old, b.adv, b.mask, b.episode)
		if !near(loss, c.want, 1e-6) {
			t.Errorf("%v: loss %.6f, want %.6f", c.mode, loss, c.want)
		}
		if metrics["clip_frac"] != 0 || !near(metrics["ratio"], 1, 1e-6) {
			t.Errorf("%v: on-policy metrics %v, want no clipping and ratio 1", c.mode, metrics)
		}
		// ∂loss/∂log π of a token is −A·w of its sequence: exactly AggregationWeights.
		w := AggregationWeights(b.lengths, c.mode, 5)
		rowEp := []int{0, 0, 1, -1}
		for r := range grad {
			for j := range grad[r] {
				want := 0.0
				if b.mask[r][j] == 1 {
					want = -float64(b.adv[r][j]) * w[rowEp[r]]
				}
				if !near(grad[r][j], want, 1e-6) {
					t.Errorf("%v: ∂loss/∂lp[%d][%d] = %.6f, want −A·w = %.6f", c.mode, r, j, grad[r][j], want)
				}
			}
		}
	}
}

func TestGRPOLossClipping(t *testing.T) {
	b := grpoBatch
	// Token ratios: episode 0 (A = +1) 1.5, 0.9 | 1.1; episode 1 (A = −0.5) 0.5.
	lp, old := logRatios([][]float64{{1.5, 0.9, 1}, {1.1, 1, 1}, {0.5, 1, 1}, {1, 1, 1}})
	// ε = 0.2: 1.5·1 is clipped to 1.2; 0.5·(−0.5) = −0.25 is clipped to 0.8·(−0.5) = −0.4.
	sum0, sum1 := 1.2+0.9+1.1, -0.4
	for _, c := range []struct {
		mode Aggregation
		want float64
	}{
		{TokenMean, -(sum0 + sum1) / 4},
		{SeqMeanTokenMean, -(sum0/3 + sum1) / 2},
		{SeqMeanTokenSum, -(sum0 + sum1) / 2},
		{SeqMeanTokenSumNorm, -(sum0 + sum1) / 2 / 5},
	} {
		run := grpoLossExec(t, GRPOConfig{ClipLow: 0.2, ClipHigh: 0.2, Aggregation: c.mode, MaxLen: 5})
		loss, metrics, grad := run(lp, old, b.adv, b.mask, b.episode)
		if !near(loss, c.want, 1e-5) {
			t.Errorf("%v: loss %.6f, want %.6f", c.mode, loss, c.want)
		}
		want := map[string]float64{"clip_frac": 0.5, "clip_high_frac": 0.25, "clip_low_frac": 0.25, "ratio": 1}
		for k, v := range want {
			if !near(metrics[k], v, 1e-5) {
				t.Errorf("%v: metric %s = %.5f, want %.5f", c.mode, k, metrics[k], v)
			}
		}
		// Clipped terms pass no gradient; the others pass −w·A·r.
		w := AggregationWeights(b.lengths, c.mode, 5)
		if grad[0][0] != 0 || grad[2][0] != 0 {
			t.Errorf("%v: gradient through clipped tokens: %v, %v", c.mode, grad[0][0], grad[2][0])
		}
		if !near(grad[0][1], -w[0]*0.9, 1e-5) || !near(grad[1][0], -w[0]*1.1, 1e-5) {
			t.Errorf("%v: gradients %v, %v, want %v, %v", c.mode, grad[0][1], grad[1][0], -w[0]*0.9, -w[0]*1.1)
		}
	}
	// Clip-higher (DAPO): ε_high = 0.28 lets the ratio 1.5 count up to 1.28.
	run := grpoLossExec(t, GRPOConfig{ClipLow: 0.2, ClipHigh: 0.28, Aggregation: TokenMean})
	if loss, _, _ := run(lp, old, b.adv, b.mask, b.episode); !near(loss, -(1.28+0.9+1.1-0.4)/4, 1e-5) {
		t.Errorf("clip-higher: loss %.6f, want %.6f", loss, -(1.28+0.9+1.1-0.4)/4)
	}
}

func TestGSPOSequenceRatio(t *testing.T) {
	// Two sequences: episode 0 is one call whose tokens have log-ratios 0.1 and 0.3 (A = +1),
	// episode 1 one token of log-ratio −0.2 (A = −1). Sequence ratios: e^0.2 and e^−0.2.
	lp := [][]float32{{-0.9, -0.7}, {-1.2, 0}}
	old := [][]float32{{-1, -1}, {-1, 0}}
	adv := [][]float32{{1, 1}, {-1, 0}}
	mask := [][]float32{{1, 1}, {1, 0}}
	episode := [][]float32{{1, 0}, {0, 1}}
	s0, s1 := math.Exp(0.2), math.Exp(-0.2)

	run := grpoLossExec(t, GRPOConfig{ClipLow: 0.5, ClipHigh: 0.5, Aggregation: SeqMeanTokenMean, SequenceRatio: true})
	loss, metrics, grad := run(lp, old, adv, mask, episode)
	if want := -(s0 - s1) / 2; !near(loss, want, 1e-5) {
		t.Errorf("GSPO loss %.6f, want %.6f", loss, want)
	}
	if want := (2*s0 + s1) / 3; !near(metrics["ratio"], want, 1e-5) {
		t.Errorf("mean ratio %.6f, want %.6f", metrics["ratio"], want)
	}
	// The gradient reaches the tokens of a sequence through its mean log-ratio: the same for
	// both tokens of episode 0 (−½·A·s0·½), although their own ratios differ.
	if !near(grad[0][0], -s0/4, 1e-5) || !near(grad[0][1], -s0/4, 1e-5) || !near(grad[1][0], s1/2, 1e-5) || grad[1][1] != 0 {
		t.Errorf("GSPO gradient %v, want [[%.5f %.5f] [%.5f 0]]", grad, -s0/4, -s0/4, s1/2)
	}
	// ε = 0.12 clips both sequences as wholes (1.2214 > 1.12 with A > 0; 0.8187 < 0.88 with
	// A < 0); token by token, e^0.1 = 1.105 would not be clipped, e^0.3 and e^−0.2 would.
	run = grpoLossExec(t, GRPOConfig{ClipLow: 0.12, ClipHigh: 0.12, Aggregation: SeqMeanTokenMean, SequenceRatio: true})
	loss, metrics, grad = run(lp, old, adv, mask, episode)
	if !near(loss, -(1.12-0.88)/2, 1e-5) || !near(metrics["clip_frac"], 1, 1e-6) {
		t.Errorf("clipped GSPO: loss %.6f clip_frac %.3f, want %.6f and 1", loss, metrics["clip_frac"], -(1.12-0.88)/2)
	}
	for _, row := range grad {
		for _, g := range row {
			if g != 0 {
				t.Errorf("clipped GSPO passes a gradient: %v", grad)
			}
		}
	}
	run = grpoLossExec(t, GRPOConfig{ClipLow: 0.12, ClipHigh: 0.12, Aggregation: SeqMeanTokenMean})
	if _, m, _ := run(lp, old, adv, mask, episode); !near(m["clip_frac"], 2.0/3, 1e-6) {
		t.Errorf("token-level clip_frac %.4f, want 2/3", m["clip_frac"])
	}
}

func TestGRPOLossFiniteDifferences(t *testing.T) {
	b := grpoBatch
	lp, old := logRatios([][]float64{{1.05, 0.93, 1}, {1.12, 1, 1}, {0.97, 1, 1}, {1, 1, 1}})
	const h = 1e-2
	for _, seq := range []bool{false, true} {
		for _, mode := range []Aggregation{TokenMean, SeqMeanTokenMean, SeqMeanTokenSum, SeqMeanTokenSumNorm} {
			run := grpoLossExec(t, GRPOConfig{ClipLow: 0.3, ClipHigh: 0.3, Aggregation: mode, MaxLen: 5, SequenceRatio: seq})
			_, _, grad := run(lp, old, b.adv, b.mask, b.episode)
			for r := range lp {
				for j := range lp[r] {
					up, down := cloneRows(lp), cloneRows(lp)
					up[r][j] += h
					down[r][j] -= h
					lu, _, _ := run(up, old, b.adv, b.mask, b.episode)
					ld, _, _ := run(down, old, b.adv, b.mask, b.episode)
					if fd := (lu - ld) / (2 * h); !near(fd, grad[r][j], 2e-4) {
						t.Errorf("%v sequence=%v: ∂loss/∂lp[%d][%d] = %.6f, finite difference %.6f", mode, seq, r, j, grad[r][j], fd)
					}
				}
			}
		}
	}
}

func TestGRPOLossNeedsMaxLen(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("GRPOLoss with SeqMeanTokenSumNorm and MaxLen 0 did not panic")
		}
	}()
	GRPOLoss(GRPOConfig{Aggregation: SeqMeanTokenSumNorm})
}

func TestOverlongPenalty(t *testing.T) {
	for _, c := range []struct {
		length, maxLen, buffer int
		want                   float64
	}{
		{10, 20, 5, 0}, {15, 20, 5, 0}, {16, 20, 5, -0.2}, {18, 20, 5, -0.6}, {20, 20, 5, -1}, {25, 20, 5, -1},
		{20, 20, 0, 0}, {21, 20, 0, -1},
	} {
		if got := OverlongPenalty(c.length, c.maxLen, c.buffer); !near(got, c.want, 1e-12) {
			t.Errorf("OverlongPenalty(%d, %d, %d) = %v, want %v", c.length, c.maxLen, c.buffer, got, c.want)
		}
	}
}

// grpoEpisodes makes a group of episodes with the given returns and call lengths.
func grpoEpisodes(returns []float64, calls [][]int) []*TinyEpisode {
	var g []*TinyEpisode
	for i, r := range returns {
		ep := &TinyEpisode{Return: r}
		for _, n := range calls[i] {
			ep.Calls = append(ep.Calls, TinySample{Tokens: make([]int, n)})
		}
		g = append(g, ep)
	}
	return g
}

func TestSequenceAdvantagesFillEveryToken(t *testing.T) {
	calls := [][]int{{3, 5}, {3}, {5, 5, 3}, {3}}
	returns := []float64{1, 1, 1, 0}
	for _, c := range []struct {
		name string
		adv  TinyAdvantage
		want []float64
	}{
		{"GRPO", GRPOAdvantage(true), GroupAdvantages(returns, true, true)},
		{"Dr. GRPO", GRPOAdvantage(false), []float64{0.25, 0.25, 0.25, -0.75}},
		{"RLOO", RLOOAdvantage(), RLOOAdvantages(returns)},
	} {
		groups := [][]*TinyEpisode{grpoEpisodes(returns, calls), grpoEpisodes([]float64{2, 2}, [][]int{{3}, {5}})}
		c.adv(groups)
		for i, ep := range groups[0] {
			if len(ep.Advantages) != len(ep.Calls) {
				t.Fatalf("%s: episode %d has %d advantage rows for %d calls", c.name, i, len(ep.Advantages), len(ep.Calls))
			}
			for k, row := range ep.Advantages {
				if len(row) != len(ep.Calls[k].Tokens) {
					t.Fatalf("%s: call %d has %d advantages for %d tokens", c.name, k, len(row), len(ep.Calls[k].Tokens))
				}
				for _, a := range row {
					if !near(a, c.want[i], 1e-12) {
						t.Errorf("%s: episode %d token advantage %v, want %v", c.name, i, a, c.want[i])
					}
				}
			}
		}
		for _, ep := range groups[1] { // a uniform group: zeros
			if ep.Advantages[0][0] != 0 {
				t.Errorf("%s: uniform group advantage %v, want 0", c.name, ep.Advantages[0][0])
			}
		}
	}
}

func TestShapedAdvantage(t *testing.T) {
	// The bonus −0.1 per call makes the all-failed group [0 0] non-uniform: 2 calls vs 1 call.
	g := grpoEpisodes([]float64{0, 0}, [][]int{{3, 3}, {3}})
	ShapedAdvantage(GRPOAdvantage(false), func(ep *TinyEpisode) float64 { return -0.1 * float64(len(ep.Calls)) })([][]*TinyEpisode{g})
	if !near(g[0].Advantages[0][0], -0.05, 1e-12) || !near(g[1].Advantages[0][0], 0.05, 1e-12) {
		t.Errorf("shaped advantages %v, %v, want −0.05, 0.05", g[0].Advantages[0][0], g[1].Advantages[0][0])
	}
	if g[0].Return != 0 || g[1].Return != 0 {
		t.Errorf("returns after shaping %v, %v, want them restored to 0", g[0].Return, g[1].Return)
	}
}

func TestCriticFreeFamily(t *testing.T) {
	family := CriticFreeFamily(40)
	names := []string{"GRPO", "Dr. GRPO", "DAPO", "RLOO", "GSPO"}
	if len(family) != len(names) {
		t.Fatalf("%d members, want %d", len(family), len(names))
	}
	for i, m := range family {
		if m.Name != names[i] {
			t.Errorf("member %d is %q, want %q", i, m.Name, names[i])
		}
		cfg := m.Configure(TinyTrainConfig{Groups: 3})
		if cfg.Advantage == nil || cfg.Loss == nil || cfg.DropUniform != (m.Name == "DAPO") || cfg.Groups != 3 {
			t.Errorf("%s: Configure gave advantage %v, loss %v, DropUniform %v", m.Name, cfg.Advantage != nil, cfg.Loss != nil, cfg.DropUniform)
		}
	}
	if l := family[1].Loss; l.Aggregation != SeqMeanTokenSumNorm || l.MaxLen != 40 {
		t.Errorf("Dr. GRPO loss %+v", l)
	}
	if l := family[2].Loss; l.Aggregation != TokenMean || l.ClipHigh <= l.ClipLow {
		t.Errorf("DAPO loss %+v", l)
	}
	if !family[4].Loss.SequenceRatio {
		t.Error("GSPO without a sequence ratio")
	}
	// DAPO's advantage sees the overlong penalty: 40 tokens (the limit) costs −1, 8 tokens nothing.
	g := grpoEpisodes([]float64{0, 0}, [][]int{{5, 5, 5, 5, 5, 5, 5, 5}, {5, 3}})
	family[2].Advantage([][]*TinyEpisode{g})
	if !(g[0].Advantages[0][0] < 0 && g[1].Advantages[0][0] > 0) {
		t.Errorf("DAPO advantages %v, %v: the overlong episode should be below the short one", g[0].Advantages[0][0], g[1].Advantages[0][0])
	}
}

// TestRefill checks dynamic sampling's accounting where no group can have a signal (one call,
// no submission, every return 0): an update with the hook Refill(2) rolls out 3 rounds, every one
// of them left out; without DropUniform there is nothing to refill.
func TestRefill(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	for _, drop := range []bool{true, false} {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:4],
			Env: gym.Config{MaxTurns: 1}, Groups: 2, GroupSize: 3, LR: 1e-3, DropUniform: drop, Hooks: []TinyHook{Refill(2)},
			Advantage: GroupBaseline(false), Loss: PGLoss(0), Seed: 1, FixedShape: true})
		if err != nil {
			t.Fatal(err)
		}
		log, err := tr.Step()
		if err != nil {
			t.Fatal(err)
		}
		rounds, kept := 3, 0
		if !drop {
			rounds, kept = 1, 6
		}
		if log.Rounds != rounds || log.Episodes != rounds*6 || log.Kept != kept || log.Reward != 0 {
			t.Errorf("DropUniform %v: %d rounds, %d episodes, %d kept, reward %v; want %d rounds, %d episodes, %d kept, 0",
				drop, log.Rounds, log.Episodes, log.Kept, log.Reward, rounds, rounds*6, kept)
		}
	}
}

// TestRefillFillsTheBatch checks the claim of Section 9.5 through the hook: the groups DropUniform
// leaves out are replaced by groups of fresh tasks, round after round, until Groups groups carry a
// signal or the rounds run out, and the update trains on exactly those groups. Only two tasks can
// carry a signal here: the advantage function gives the first episode of their groups return 1.
func TestRefillFillsTheBatch(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")[:6]
	signal := map[*gym.Task]bool{train[0]: true, train[1]: true}
	adv := func(groups [][]*TinyEpisode) {
		for _, g := range groups {
			if signal[g[0].Task] {
				g[0].Return = 1
			}
		}
		GroupBaseline(false)(groups)
	}
	const groups, size, seed, rounds = 3, 2, 5, 6
	// What the update must do, from its task stream alone: each round draws as many tasks as
	// groups are still missing.
	rng, wantRounds, wantKept, wantFirst := TaskStream(seed, 0), 0, 0, 0
	for r := 0; r <= rounds && wantKept < groups; r++ {
		for _, task := range DrawTasks(TinyTrainConfig{Tasks: train, GroupSize: 1}, rng, groups-wantKept) {
			if signal[task] {
				wantKept++
			}
		}
		if wantRounds++; r == 0 {
			wantFirst = wantKept
		}
	}
	if wantKept <= wantFirst {
		t.Fatalf("the seed must leave a group out in the first round and find one later: %d kept, %d at first", wantKept, wantFirst)
	}
	for _, hooks := range [][]TinyHook{nil, {Refill(rounds)}} {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: train, Env: gym.Config{MaxTurns: 1},
			Groups: groups, GroupSize: size, LR: 1e-3, DropUniform: true, Hooks: hooks,
			Advantage: adv, Loss: PGLoss(0), Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		u, err := tr.Update()
		if err != nil {
			t.Fatal(err)
		}
		for _, ep := range u.Kept {
			if !signal[ep.Task] {
				t.Fatalf("an episode of a group without signal entered the loss (task %s)", ep.Task.ID)
			}
		}
		if hooks == nil {
			if u.Rounds != 1 || u.KeptGroups != wantFirst || len(u.Groups) != groups {
				t.Errorf("without Refill: %d rounds, %d groups kept of %d; want 1 round, %d kept of %d", u.Rounds, u.KeptGroups, len(u.Groups), wantFirst, groups)
			}
			continue
		}
		if u.Rounds != wantRounds || u.KeptGroups != wantKept || u.Log.Kept != wantKept*size || u.Log.Rounds != wantRounds {
			t.Errorf("with Refill: %d rounds, %d groups kept (log: %d episodes, %d rounds); want %d rounds, %d groups",
				u.Rounds, u.KeptGroups, u.Log.Kept, u.Log.Rounds, wantRounds, wantKept)
		}
		for i, g := range u.Groups {
			if g[0].Group != i {
				t.Fatalf("group %d is numbered %d: refill rounds must continue the numbering", i, g[0].Group)
			}
		}
	}
}
