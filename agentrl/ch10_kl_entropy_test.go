package agentrl

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestKLEstimatorsByHand(t *testing.T) {
	ln2, ln3 := math.Ln2, math.Log(3)
	for _, c := range []struct {
		name           string
		p, ref         float64 // π(x), π_ref(x)
		k1, k2, k3     float64
		nonNegative123 [3]bool
	}{
		// r = 1/2: k1 = ln 2, k2 = (ln 2)²/2, k3 = (1/2 − 1) + ln 2.
		{"r=1/2", 0.5, 0.25, ln2, ln2 * ln2 / 2, ln2 - 0.5, [3]bool{true, true, true}},
		// r = 3: k1 = −ln 3 (negative), k2 = (ln 3)²/2, k3 = 2 − ln 3.
		{"r=3", 0.2, 0.6, -ln3, ln3 * ln3 / 2, 2 - ln3, [3]bool{false, true, true}},
		{"r=1", 0.3, 0.3, 0, 0, 0, [3]bool{true, true, true}},
	} {
		lp, lr := math.Log(c.p), math.Log(c.ref)
		got := []float64{KLK1(lp, lr), KLK2(lp, lr), KLK3(lp, lr)}
		for i, want := range []float64{c.k1, c.k2, c.k3} {
			if !near(got[i], want, 1e-12) {
				t.Errorf("%s: k%d = %.12f, want %.12f", c.name, i+1, got[i], want)
			}
			if (got[i] >= 0) != c.nonNegative123[i] {
				t.Errorf("%s: k%d = %g has the wrong sign", c.name, i+1, got[i])
			}
		}
	}
}

func TestKLEstimatorString(t *testing.T) {
	for e, want := range map[KLEstimator]string{K1: "k1", K2: "k2", K3: "k3", 7: "KLEstimator(7)"} {
		if e.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(e), e.String(), want)
		}
	}
}

// klCategorical is a pair of small categoricals: the policy π = softmax(logits) and the reference.
type klCategorical struct {
	name        string
	logits, ref []float64
}

var klPairs = []klCategorical{
	{"close", []float64{0.2, -0.1, 0.4, 0}, []float64{0.3, 0.2, 0.3, 0.2}},
	{"far", []float64{2, -1, 0.5, -2}, []float64{0.1, 0.4, 0.2, 0.3}},
}

func klProbs(logits []float64) []float64 {
	p := LogSoftmax(logits)
	for i := range p {
		p[i] = math.Exp(p[i])
	}
	return p
}

// klExact is KL(π‖π_ref) summed over the categories.
func klExact(logits, ref []float64) float64 {
	kl := 0.0
	for i, p := range klProbs(logits) {
		kl += p * math.Log(p/ref[i])
	}
	return kl
}

// klDraw samples n categories from p with a seeded generator.
func klDraw(p []float64, n int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 10))
	xs := make([]int, n)
	for i := range xs {
		u, k := rng.Float64(), 0
		for k < len(p)-1 && u >= p[k] {
			u -= p[k]
			k++
		}
		xs[i] = k
	}
	return xs
}

// TestKLEstimatorsUnbiased: over 200,000 seeded samples, the means of k1 and k3 lie within five
// standard errors (from their own measured variance) of the exact KL; k2's mean lies within five
// of its own exact expectation, which on the far pair is further than that from the KL: it is
// biased.
func TestKLEstimatorsUnbiased(t *testing.T) {
	const n = 200_000
	ests := []func(lp, lr float64) float64{KLK1, KLK2, KLK3}
	for _, c := range klPairs {
		p := klProbs(c.logits)
		kl := klExact(c.logits, c.ref)
		for i, k := range ests {
			expect := 0.0 // E_π[k], exactly
			for x := range p {
				expect += p[x] * k(math.Log(p[x]), math.Log(c.ref[x]))
			}
			sum, sq := 0.0, 0.0
			for _, x := range klDraw(p, n, uint64(i)) {
				v := k(math.Log(p[x]), math.Log(c.ref[x]))
				sum += v
				sq += v * v
			}
			mean := sum / n
			se := math.Sqrt((sq/n - mean*mean) / n)
			if math.Abs(mean-expect) > 5*se {
				t.Errorf("%s, k%d: sample mean %.5f, exact expectation %.5f (standard error %.5f)", c.name, i+1, mean, expect, se)
			}
			unbiased := i != 1
			if unbiased && !near(expect, kl, 1e-12) {
				t.Errorf("%s, k%d: E[k] = %.9f, KL = %.9f", c.name, i+1, expect, kl)
			}
			if !unbiased && c.name == "far" && math.Abs(expect-kl) < 5*se {
				t.Errorf("far, k2: E[k2] = %.5f is not distinguishable from KL = %.5f", expect, kl)
			}
		}
	}
}

// klFD returns the central finite-difference gradient of f with respect to the logits.
func klFD(logits []float64, f func(z []float64) float64) []float64 {
	const h = 1e-6
	g := make([]float64, len(logits))
	for k := range logits {
		up, down := slices.Clone(logits), slices.Clone(logits)
		up[k] += h
		down[k] -= h
		g[k] = (f(up) - f(down)) / (2 * h)
	}
	return g
}

// klNaiveGradients builds, with the graph, the gradient with respect to the logits of the mean of
// an estimator over fixed samples: the samples are data, the gradient flows through log π_θ(x).
func klNaiveGradients(t *testing.T, logits, ref []float64, xs []int) [3][]float64 {
	t.Helper()
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	var out [3][]float64
	for _, est := range []KLEstimator{K1, K2, K3} {
		exec, err := graph.NewExec(backend, func(z, refLP, x *graph.Node) *graph.Node {
			lp := graph.Gather(graph.LogSoftmax(z), graph.ExpandAxes(x, -1))
			rl := graph.Gather(refLP, graph.ExpandAxes(x, -1))
			loss := graph.ReduceAllMean(KLTokens(lp, rl, est))
			return graph.Gradient(loss, z)[0]
		})
		if err != nil {
			t.Fatal(err)
		}
		z, r := make([]float64, len(logits)), make([]float64, len(ref))
		copy(z, logits)
		for i, p := range ref {
			r[i] = math.Log(p)
		}
		x32 := make([]int32, len(xs))
		for i, x := range xs {
			x32[i] = int32(x)
		}
		res, err := exec.Call(z, r, x32)
		if err != nil {
			t.Fatal(err)
		}
		out[est] = tensors.MustCopyFlatData[float64](res[0])
	}
	return out
}

// TestKLGradientsAsLosses checks the three gradient facts of Section 10.3 on two categoricals.
// With samples from π_θ and the gradient taken through log π_θ(x) only, the expected gradient of
// k1 is 0, of k2 the gradient of KL(π_θ‖π_ref), of k3 the gradient of KL(π_ref‖π_θ). Exactly, by
// summing over the categories, and by the graph over 100,000 seeded samples, within five standard
// errors of the per-sample gradients.
func TestKLGradientsAsLosses(t *testing.T) {
	const n = 100_000
	for _, c := range klPairs {
		p := klProbs(c.logits)
		reverse := klFD(c.logits, func(z []float64) float64 { return klExact(z, c.ref) })
		forward := klFD(c.logits, func(z []float64) float64 {
			kl := 0.0
			for i, lp := range LogSoftmax(z) {
				kl += c.ref[i] * (math.Log(c.ref[i]) - lp)
			}
			return kl
		})
		want := [3][]float64{make([]float64, len(p)), reverse, forward}
		// The per-sample naive gradient: dk/dlog π(x) times the score e_x − π.
		perSample := func(est, x int) []float64 {
			lr, lp := math.Log(c.ref[x]), math.Log(p[x])
			w := [3]float64{1, lp - lr, 1 - math.Exp(lr-lp)}[est]
			g := make([]float64, len(p))
			for k := range g {
				g[k] = -w * p[k]
			}
			g[x] += w
			return g
		}
		for est := range 3 {
			exact := make([]float64, len(p))
			for x := range p {
				for k, g := range perSample(est, x) {
					exact[k] += p[x] * g
				}
			}
			for k := range exact {
				if !near(exact[k], want[est][k], 1e-6) {
					t.Errorf("%s, k%d: exact expected gradient[%d] = %.7f, want %.7f", c.name, est+1, k, exact[k], want[est][k])
				}
			}
		}
		xs := klDraw(p, n, 3)
		got := klNaiveGradients(t, c.logits, c.ref, xs)
		for est := range 3 {
			sum, sq := make([]float64, len(p)), make([]float64, len(p))
			for _, x := range xs {
				for k, g := range perSample(est, x) {
					sum[k] += g
					sq[k] += g * g
				}
			}
			for k := range p {
				mean := sum[k] / n
				se := math.Sqrt((sq[k]/n - mean*mean) / n)
				if !near(got[est][k], mean, 1e-9) {
					t.Errorf("%s, k%d: graph gradient[%d] = %.9f, per-sample formula %.9f", c.name, est+1, k, got[est][k], mean)
				}
				if math.Abs(got[est][k]-want[est][k]) > 5*se+1e-9 {
					t.Errorf("%s, k%d: mean naive gradient[%d] = %.5f, want %.5f (standard error %.5f)",
						c.name, est+1, k, got[est][k], want[est][k], se)
				}
			}
		}
	}
}

// klInputs is a hand-made batch of two calls of three token slots, the last slot of the second
// row padding.
func klInputs(g *graph.Graph) LossInputs {
	c := func(x [][]float64) *graph.Node { return graph.Const(g, x) }
	return LossInputs{
		LogProbs:         c([][]float64{{-0.5, -1, -2}, {-0.25, -3, -9}}),
		SamplingLogProbs: c([][]float64{{-0.5, -1, -2}, {-0.25, -3, -9}}),
		RefLogProbs:      c([][]float64{{-1, -1, -0.5}, {-0.5, -2, -1}}),
		Entropy:          c([][]float64{{1.5, 0.5, 0.25}, {2, 1, 7}}),
		Advantages:       c([][]float64{{1, 1, 1}, {-1, -1, -1}}),
		Mask:             c([][]float64{{1, 1, 1}, {1, 1, 0}}),
		Episode:          c([][]float64{{1}, {1}}),
	}
}

var (
	klLP   = []float64{-0.5, -1, -2, -0.25, -3}
	klRef  = []float64{-1, -1, -0.5, -0.5, -2}
	klEnt  = []float64{1.5, 0.5, 0.25, 2, 1}
	klBase = func(in LossInputs) (*graph.Node, []Metric) {
		// Σ masked log-probs: any loss with a gradient will do.
		s := graph.ReduceAllSum(graph.Mul(in.LogProbs, in.Mask))
		return s, []Metric{{Name: "base", Value: s}}
	}
)

// klRun evaluates a loss on klInputs: its value, its metrics, and its gradient with respect to
// LogProbs and RefLogProbs.
func klRun(t *testing.T, loss LossFn) (value float64, metrics map[string]float64, names []string, dLP, dRef []float64) {
	t.Helper()
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	var metricNames []string
	exec, err := graph.NewExec(backend, func(g *graph.Graph) []*graph.Node {
		in := klInputs(g)
		l, ms := loss(in)
		grads := graph.Gradient(l, in.LogProbs, in.RefLogProbs)
		return withMetrics(&metricNames, ms, l, grads[0], grads[1])
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Call()
	if err != nil {
		t.Fatal(err)
	}
	metrics = map[string]float64{}
	for i, name := range metricNames {
		metrics[name] = tensors.ToScalar[float64](res[3+i])
	}
	flat := func(x *tensors.Tensor) []float64 {
		v := tensors.MustCopyFlatData[float64](x)
		return append(v[:3:3], v[3:5]...) // the five real tokens
	}
	return tensors.ToScalar[float64](res[0]), metrics, metricNames, flat(res[1]), flat(res[2])
}

func TestWithKLPenalty(t *testing.T) {
	base := 0.0
	for _, x := range klLP {
		base += x
	}
	for _, c := range []struct {
		est  KLEstimator
		k    func(lp, lr float64) float64
		dk   func(lp, lr float64) float64 // ∂k/∂log π
		beta float64
	}{
		{K1, KLK1, func(lp, lr float64) float64 { return 1 }, 0.1},
		{K2, KLK2, func(lp, lr float64) float64 { return lp - lr }, 0.5},
		{K3, KLK3, func(lp, lr float64) float64 { return 1 - math.Exp(lr-lp) }, 2},
	} {
		mean := 0.0
		for i := range klLP {
			mean += c.k(klLP[i], klRef[i]) / 5
		}
		v, m, names, dLP, dRef := klRun(t, WithKLPenalty(klBase, c.beta, c.est))
		if !near(v, base+c.beta*mean, 1e-9) {
			t.Errorf("%v: loss %.9f, want %.9f + %g × %.9f", c.est, v, base, c.beta, mean)
		}
		if !near(m["kl"], mean, 1e-9) || !near(m["base"], base, 1e-9) || !slices.Equal(names, []string{"base", "kl"}) {
			t.Errorf("%v: metrics %v (%v), want base %.6f and kl %.6f", c.est, m, names, base, mean)
		}
		for i := range klLP {
			want := 1 + c.beta*c.dk(klLP[i], klRef[i])/5
			if !near(dLP[i], want, 1e-9) {
				t.Errorf("%v: ∂loss/∂logProbs[%d] = %.9f, want %.9f", c.est, i, dLP[i], want)
			}
			if dRef[i] != 0 {
				t.Errorf("%v: a gradient %g reached the reference's log-probs", c.est, dRef[i])
			}
		}
	}
}

func TestWithEntropyBonus(t *testing.T) {
	base, ent := 0.0, 0.0
	for i := range klLP {
		base += klLP[i]
		ent += klEnt[i] / 5 // the padding slot's entropy of 7 must not count
	}
	const coef = 0.3
	v, m, names, dLP, _ := klRun(t, WithEntropyBonus(WithKLPenalty(klBase, 0, K3), coef))
	if !near(v, base-coef*ent, 1e-9) {
		t.Errorf("loss %.9f, want %.9f − %g × %.9f", v, base, coef, ent)
	}
	if !near(m["entropy"], ent, 1e-9) || !slices.Equal(names, []string{"base", "kl", "entropy"}) {
		t.Errorf("metrics %v (%v), want entropy %.6f after base and kl", m, names, ent)
	}
	for i, d := range dLP { // β = 0 and a constant entropy: only the base's gradient remains
		if !near(d, 1, 1e-9) {
			t.Errorf("∂loss/∂logProbs[%d] = %.9f, want 1", i, d)
		}
	}
}

// TestWithKLReward: every call's reward drops by β Σ_j (log π − log π_ref) over its tokens before
// the base advantage runs, and the base sees the penalized returns. Against the sampling policy
// itself as the reference, the penalty vanishes.
func TestWithKLReward(t *testing.T) {
	agent := newTestAgent(t, 1)
	ref, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	obs, _ := realObs(t, 3)
	samples, err := agent.Sample(obs, TinySampleOptions{Temperature: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	episodes := func() [][]*TinyEpisode {
		return [][]*TinyEpisode{
			{{Calls: samples[:2], Rewards: []float64{0, 1}, Return: 1}},
			{{Calls: samples[2:], Rewards: []float64{0.5}, Return: 0.5}},
		}
	}
	for _, c := range []struct {
		name string
		ref  *TinyAgent
		tol  float64
	}{{"other reference", ref, 1e-9}, {"itself", agent, 1e-4}} {
		const beta = 0.25
		refLP, err := c.ref.LogProbs(samples)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{0, 1, 0.5}
		for i, s := range samples {
			for j, lp := range s.LogProbs {
				if c.ref != agent {
					want[i] -= beta * (lp - refLP[i][j])
				}
			}
		}
		groups := episodes()
		var seen []float64
		WithKLReward(func(gs [][]*TinyEpisode) {
			for _, g := range gs {
				for _, ep := range g {
					seen = append(seen, ep.Return)
				}
			}
		}, beta, c.ref)(groups)
		got := append(slices.Clone(groups[0][0].Rewards), groups[1][0].Rewards...)
		for i := range want {
			if !near(got[i], want[i], c.tol) {
				t.Errorf("%s: call %d reward %.9f, want %.9f", c.name, i, got[i], want[i])
			}
		}
		if !near(seen[0], got[0]+got[1], 1e-12) || !near(seen[1], got[2], 1e-12) {
			t.Errorf("%s: the base saw returns %v, want %v", c.name, seen, []float64{got[0] + got[1], got[2]})
		}
		if c.ref != agent && near(got[0]+got[1]+got[2], 1.5, 1e-3) {
			t.Errorf("%s: the penalty did not change the rewards", c.name)
		}
	}
}

// TestTinyRecipe: the default recipe validates and configures the trainer it describes; every
// bad field is refused with an error that names it.
func TestTinyRecipe(t *testing.T) {
	r := DefaultTinyRecipe()
	tasks, _ := gymFixture(t, 200*time.Millisecond)
	cfg, err := r.Config(DefaultTinyAgentConfig(), tasks)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Env.MaxTurns != r.Turns || !cfg.Env.TryPatches || cfg.Groups != r.Groups || cfg.GroupSize != r.Size ||
		len(cfg.Hooks) != 1 || cfg.Fit == nil || !cfg.DropUniform || cfg.Reference != nil || cfg.Advantage == nil || cfg.Loss == nil || !cfg.FixedShape {
		t.Errorf("default recipe's configuration: %+v", cfg)
	}
	r.KL = 0.1
	if cfg, err = r.Config(DefaultTinyAgentConfig(), tasks); err != nil || cfg.Reference == nil {
		t.Errorf("a KL penalty needs a reference policy: %v, %v", cfg.Reference, err)
	}
	for _, c := range []struct {
		change func(*TinyRecipe)
		want   string
	}{
		{func(r *TinyRecipe) { r.Algo = "nope" }, "algorithm"},
		{func(r *TinyRecipe) { r.Credit = "nope" }, "credit"},
		{func(r *TinyRecipe) { r.Steps = 0 }, "positive"},
		{func(r *TinyRecipe) { r.LR = 0 }, "positive"},
		{func(r *TinyRecipe) { r.Gamma = 1.5 }, "gamma"},
		{func(r *TinyRecipe) { r.Refill = -1 }, "negative"},
		{func(r *TinyRecipe) { r.PassBonus = -1 }, "negative"},
	} {
		r := DefaultTinyRecipe()
		c.change(&r)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error about %s", r, err, c.want)
		}
		if _, err := r.Config(DefaultTinyAgentConfig(), tasks); err == nil {
			t.Errorf("%+v: Config accepted it", r)
		}
	}
	names, summaries := TinyAlgorithms()
	if len(names) != 7 || len(summaries) != 7 || !slices.IsSorted(names) {
		t.Errorf("algorithms %v", names)
	}
}

func TestAdaptiveKL(t *testing.T) {
	c := &AdaptiveKL{Beta: 1, Target: 0.1, Horizon: 10}
	for i, s := range []struct {
		kl   float64
		n    int
		want float64
	}{
		{0.15, 5, 1.1},   // error +0.5, clipped to +0.2, times 5/10: ×1.1
		{0.09, 10, 0.99}, // error −0.1: ×0.9
		{0, 10, 0.792},   // error −1, clipped to −0.2: ×0.8
		{0.1, 10, 0.792}, // on target: unchanged
		{0.11, 20, 0.9504},
	} {
		if got := c.Update(s.kl, s.n); !near(got, s.want, 1e-12) {
			t.Fatalf("update %d (KL %g over %d samples): β = %.12f, want %.12f", i, s.kl, s.n, got, s.want)
		}
	}

	// Input gives every slot of every row, padding rows included, the current β.
	c.Beta = 2
	rows, err := c.Input().Build(TinyInputBatch{Rows: 3})
	if err != nil || len(rows) != 3 {
		t.Fatalf("Input: %d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if len(r) != TinyMaxCall || slices.IndexFunc(r, func(v float32) bool { return v != 2 }) >= 0 {
			t.Fatalf("Input row %v, want %d values of 2", r, TinyMaxCall)
		}
	}

	// With β = 2 carried as an input, the loss, its metrics and its gradient are WithKLPenalty's.
	adaptive := func(in LossInputs) (*graph.Node, []Metric) {
		in.Named = map[string]*graph.Node{adaptiveKLInput: graph.MulScalar(graph.OnesLike(in.LogProbs), c.Beta)}
		return c.Loss(klBase, K3)(in)
	}
	v, m, names, dLP, dRef := klRun(t, adaptive)
	wv, wm, _, wLP, _ := klRun(t, WithKLPenalty(klBase, 2, K3))
	if !near(v, wv, 1e-12) || !near(m["kl"], wm["kl"], 1e-12) || !near(m["kl_beta"], 2, 1e-12) ||
		!slices.Equal(names, []string{"base", "kl", "kl_beta"}) {
		t.Errorf("adaptive loss %.9f, metrics %v (%v); WithKLPenalty: %.9f, %v", v, m, names, wv, wm)
	}
	for i := range dLP {
		if !near(dLP[i], wLP[i], 1e-12) || dRef[i] != 0 {
			t.Errorf("∂loss/∂logProbs[%d] = %.9f (reference %g), want %.9f (reference 0)", i, dLP[i], dRef[i], wLP[i])
		}
	}
}

// TestAdaptiveKLHook trains through the controller's hook, as Section 10.4 plugs it in: after
// every update Beta moves by Update's rule, from the KL and the episodes of that update's log,
// and the next update's loss reads the moved Beta (its kl_beta metric).
func TestAdaptiveKLHook(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	cfg := DefaultTinyAgentConfig()
	agent, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seed++
	ref, err := NewTinyAgent(cfg) // other weights: a KL well above the target
	if err != nil {
		t.Fatal(err)
	}
	c := &AdaptiveKL{Beta: 0.5, Target: 1e-4, Horizon: 8}
	tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: tasks[:4], Env: gym.Config{MaxTurns: 1},
		Groups: 2, GroupSize: 2, LR: 1e-3, Advantage: GroupBaseline(false), Loss: c.Loss(PGLoss(0), K3),
		Reference: ref, Inputs: []TinyInput{c.Input()}, Hooks: []TinyHook{c.Hook()}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		before := c.Beta
		log, err := tr.Step()
		if err != nil {
			t.Fatal(err)
		}
		kl, ok := log.Metrics["kl"]
		if !ok || kl <= 0 || !near(log.Metrics["kl_beta"], before, 1e-6) {
			t.Fatalf("update %d: metrics %v; want a positive kl and kl_beta %g", i, log.Metrics, before)
		}
		e := math.Max(-0.2, math.Min(0.2, kl/c.Target-1))
		if want := before * (1 + e*float64(log.Episodes)/c.Horizon); c.Beta == before || !near(c.Beta, want, 1e-12) {
			t.Fatalf("update %d (KL %g, %d episodes): β %g → %g, want %g", i, kl, log.Episodes, before, c.Beta, want)
		}
	}
}
