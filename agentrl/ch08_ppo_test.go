package agentrl

import (
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"

	"github.com/agenticrl/course/qwen3/model"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// ppoExec evaluates PPOPolicyLoss and its gradient with respect to all three differentiable-looking
// inputs (only logProbs may receive one).
func ppoExec(t *testing.T, cfg PPOConfig) func(lp, old, adv, mask [][]float32) (float64, []float32, []float32, []float32) {
	t.Helper()
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	exec, err := graph.NewExec(backend, func(lp, old, adv, mask *graph.Node) []*graph.Node {
		loss := PPOPolicyLoss(lp, old, adv, mask, cfg)
		return append([]*graph.Node{loss}, graph.Gradient(loss, lp, old, adv)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	return func(lp, old, adv, mask [][]float32) (float64, []float32, []float32, []float32) {
		out, err := exec.Call(lp, old, adv, mask)
		if err != nil {
			t.Fatal(err)
		}
		return float64(tensors.ToScalar[float32](out[0])), tensors.MustCopyFlatData[float32](out[1]),
			tensors.MustCopyFlatData[float32](out[2]), tensors.MustCopyFlatData[float32](out[3])
	}
}

func TestPPOPolicyLossOneToken(t *testing.T) {
	sym := PPOConfig{ClipLow: 0.2, ClipHigh: 0.2}
	dual := PPOConfig{ClipLow: 0.2, ClipHigh: 0.2, DualClip: 3}
	asym := PPOConfig{ClipLow: 0.2, ClipHigh: 0.28}
	off := PPOConfig{ClipLow: 1e9, ClipHigh: 1e9}
	// One token with ratio r and advantage A. The loss is −min(r·A, clip(r)·A) and its gradient
	// with respect to log π_θ is −r·A where the unclipped term is the one kept, else 0.
	for _, c := range []struct {
		name       string
		cfg        PPOConfig
		r, a       float64
		loss, grad float64
	}{
		{"inside, A>0", sym, 1.1, 2, -2.2, -2.2},
		{"above, A>0: clipped", sym, 1.5, 2, -2.4, 0},
		{"below, A>0: unclipped term is smaller", sym, 0.5, 2, -1, -1},
		{"inside, A<0", sym, 0.9, -1, 0.9, 0.9},
		{"below, A<0: clipped", sym, 0.5, -1, 0.8, 0},
		{"above, A<0: unclipped term is larger", sym, 1.5, -1, 1.5, 1.5},
		{"far above, A<0, no dual clip", sym, 5, -1, 5, 5},
		{"far above, A<0, dual clip 3", dual, 5, -1, 3, 0},
		{"above, A<0, under the dual bound", dual, 2, -1, 2, 2},
		{"below, A<0, dual clip on", dual, 0.5, -2, 1.6, 0},
		{"far above, A>0, dual clip changes nothing", dual, 5, 1, -1.2, 0},
		{"asymmetric, inside the higher bound", asym, 1.25, 1, -1.25, -1.25},
		{"asymmetric, above the higher bound", asym, 1.3, 1, -1.28, 0},
		{"asymmetric, below the lower bound", asym, 0.75, -1, 0.8, 0},
		{"no clipping", off, 5, 1, -5, -5},
		{"no clipping, A<0", off, 0.01, -1, 0.01, 0.01},
		{"zero advantage", sym, 3, 0, 0, 0},
	} {
		run := ppoExec(t, c.cfg)
		old := float32(-1.3)
		lp := old + float32(math.Log(c.r))
		loss, gLP, gOld, gAdv := run([][]float32{{lp}}, [][]float32{{old}}, [][]float32{{float32(c.a)}}, [][]float32{{1}})
		if !near(loss, c.loss, 1e-5) || !near(float64(gLP[0]), c.grad, 1e-5) {
			t.Errorf("%s: r=%g A=%g: loss %.6f grad %.6f, want %g and %g", c.name, c.r, c.a, loss, gLP[0], c.loss, c.grad)
		}
		if gOld[0] != 0 || gAdv[0] != 0 {
			t.Errorf("%s: gradient reached old log-probs (%g) or advantages (%g)", c.name, gOld[0], gAdv[0])
		}
	}
}

func TestPPOPolicyLossMaskAndFiniteDifferences(t *testing.T) {
	cfg := PPOConfig{ClipLow: 0.2, ClipHigh: 0.28, DualClip: 3}
	run := ppoExec(t, cfg)
	// Log-ratios chosen away from every kink (1−0.2, 1+0.28, 3) so that finite differences are valid.
	lr := [][]float64{{0.05, 0.5, -0.5}, {1.5, -0.1, 0.0}, {0.3, 0.3, 0.3}}
	adv := [][]float32{{1, 1, -2}, {-0.5, -0.5, 0}, {4, 4, 4}}
	mask := [][]float32{{1, 1, 1}, {1, 1, 0}, {0, 0, 0}} // five real tokens; the last row is padding
	old := [][]float32{{-0.7, -2, -1}, {-3, -0.2, -1}, {-1, -1, -1}}
	lp := make([][]float32, 3)
	for b := range lp {
		lp[b] = make([]float32, 3)
		for j := range lp[b] {
			lp[b][j] = old[b][j] + float32(lr[b][j])
		}
	}
	// Per real token: r=e^0.05 inside, A=1: −1.0513; r=e^0.5 above 1.28, A=1: −1.28;
	// r=e^−0.5 below 0.8, A=−2: −(−2·0.8) = 1.6; r=e^1.5 = 4.48 above the dual bound, A=−0.5:
	// min(2.24, 1.5) = 1.5; r=e^−0.1 inside, A=−0.5: 0.4524. Mean over 5 tokens.
	want := (-math.Exp(0.05) - 1.28 + 1.6 + 1.5 + 0.5*math.Exp(-0.1)) / 5
	loss, g, _, _ := run(lp, old, adv, mask)
	if !near(loss, want, 1e-5) {
		t.Errorf("loss %.6f, want %.6f", loss, want)
	}
	wantG := []float64{-math.Exp(0.05) / 5, 0, 0, 0, 0.5 * math.Exp(-0.1) / 5, 0, 0, 0, 0}
	for i := range wantG {
		if !near(float64(g[i]), wantG[i], 1e-5) {
			t.Errorf("∂loss/∂logProbs = %v, want %v", g, wantG)
			break
		}
	}
	const h = 1e-2
	for b := range lp {
		for j := range lp[b] {
			up, down := cloneRows(lp), cloneRows(lp)
			up[b][j] += h
			down[b][j] -= h
			lu, _, _, _ := run(up, old, adv, mask)
			ld, _, _, _ := run(down, old, adv, mask)
			if fd := (lu - ld) / (2 * h); !near(fd, float64(g[b*3+j]), 2e-3) {
				t.Errorf("logProbs[%d][%d]: gradient %.5f, finite difference %.5f", b, j, g[b*3+j], fd)
			}
		}
	}
	if l, _, _, _ := run(lp, old, adv, [][]float32{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}); l != 0 {
		t.Errorf("loss with an empty mask = %v, want 0", l)
	}
}

func TestPPOPolicyLossOnPolicyIsREINFORCE(t *testing.T) {
	// At θ = θ_old every ratio is 1, clipping is inactive, and the gradient is the token-mean
	// REINFORCE gradient −A·mask/N whatever the clip range.
	lp := [][]float32{{-0.5, -1, -2}, {-0.25, -3, 0}}
	adv := [][]float32{{2, 2, 2}, {-1, -1, -1}}
	mask := [][]float32{{1, 1, 0}, {1, 0, 0}}
	for _, cfg := range []PPOConfig{{ClipLow: 0.2, ClipHigh: 0.2}, {ClipLow: 0.01, ClipHigh: 0.01, DualClip: 1.5}} {
		loss, g, _, _ := ppoExec(t, cfg)(lp, lp, adv, mask)
		if !near(loss, -(2+2-1)/3.0, 1e-6) {
			t.Errorf("%+v: loss %.6f, want −1", cfg, loss)
		}
		want := []float32{-2.0 / 3, -2.0 / 3, 0, 1.0 / 3, 0, 0}
		for i := range want {
			if !near(float64(g[i]), float64(want[i]), 1e-6) {
				t.Errorf("%+v: gradient %v, want %v", cfg, g, want)
				break
			}
		}
	}
}

func TestPPOPolicyLossRejectsDualClipAtMostOne(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("DualClip = 0.5 did not panic")
		}
	}()
	ppoExec(t, PPOConfig{ClipLow: 0.2, ClipHigh: 0.2, DualClip: 0.5})([][]float32{{0}}, [][]float32{{0}}, [][]float32{{1}}, [][]float32{{1}})
}

func TestPPOLossMetrics(t *testing.T) {
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	cfg := PPOConfig{ClipLow: 0.2, ClipHigh: 0.2, DualClip: 3}
	var names []string
	exec, err := graph.NewExec(backend, func(lp, old, adv, mask *graph.Node) []*graph.Node {
		loss, metrics := PPOLoss(cfg)(LossInputs{LogProbs: lp, SamplingLogProbs: old, Advantages: adv, Mask: mask})
		return withMetrics(&names, metrics, loss, PPOPolicyLoss(lp, old, adv, mask, cfg))
	})
	if err != nil {
		t.Fatal(err)
	}
	ratios := []float64{1.5, 0.5, 0.5, 1.1, 4, 9}
	advs := []float32{2, 2, -1, 1, -1, -1}
	mask := []float32{1, 1, 1, 1, 1, 0} // the ratio 9 is padding: it counts nowhere
	lp, old := make([][]float32, 1), [][]float32{make([]float32, len(ratios))}
	lp[0] = make([]float32, len(ratios))
	for i, r := range ratios {
		old[0][i] = -1
		lp[0][i] = -1 + float32(math.Log(r))
	}
	out, err := exec.Call(lp, old, [][]float32{advs}, [][]float32{mask})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for k, name := range names {
		got[name] = float64(tensors.ToScalar[float32](out[2+k]))
	}
	if !slices.Equal(names, []string{"clip_frac", "approx_kl", "approx_kl_k1", "ratio_max", "dual_clip_frac"}) {
		t.Fatalf("metric names %v", names)
	}
	if a, b := tensors.ToScalar[float32](out[0]), tensors.ToScalar[float32](out[1]); a != b {
		t.Errorf("PPOLoss %v differs from PPOPolicyLoss %v", a, b)
	}
	k3, k1 := 0.0, 0.0
	for _, r := range ratios[:5] {
		k3 += (r - 1) - math.Log(r)
		k1 -= math.Log(r)
	}
	// Clipped: 1.5 with A>0 (above) and 0.5 with A<0 (below); 0.5 with A>0 and 4 with A<0 are
	// outside the range on the side where the unclipped term is kept. Dual clip binds on 4 (A<0, r>3).
	for name, want := range map[string]float64{"clip_frac": 2.0 / 5, "approx_kl": k3 / 5, "approx_kl_k1": k1 / 5,
		"ratio_max": 4, "dual_clip_frac": 1.0 / 5} {
		if !near(got[name], want, 1e-5) {
			t.Errorf("%s = %.6f, want %.6f", name, got[name], want)
		}
	}
}

func TestPPOValueLoss(t *testing.T) {
	backend, err := model.DefaultBackend()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		clip        float64
		v, old, ret float64
		loss, grad  float64
	}{
		// V jumped from 0.5 to the return 1.0: the clipped prediction 0.7 still errs by 0.3, the
		// max keeps that error, and its gradient is 0: the jump earns nothing beyond the clip.
		{"jump past the clip towards the return", 0.2, 1, 0.5, 1, 0.5 * 0.09, 0},
		{"move inside the clip", 0.2, 0.6, 0.5, 1, 0.5 * 0.16, -0.4},
		// Moving away from the return is never clipped: the unclipped error is the larger one.
		{"move away from the return", 0.2, 0, 0.5, 1, 0.5, -1},
		{"overshoot past the return", 0.2, 2, 0.5, 1, 0.5, 1},
		{"no clipping", 0, 1, 0.5, 1, 0, 0},
		{"no clipping, plain squared error", 0, 0.6, 0.5, 1, 0.08, -0.4},
	} {
		exec, err := graph.NewExec(backend, func(v, old, ret, mask *graph.Node) []*graph.Node {
			loss := PPOValueLoss(v, old, ret, mask, c.clip)
			return append([]*graph.Node{loss}, graph.Gradient(loss, v, old, ret)...)
		})
		if err != nil {
			t.Fatal(err)
		}
		// The same value in two real tokens and a padding token with a huge error.
		row := func(x float64) [][]float32 { return [][]float32{{float32(x), float32(x), 100}} }
		out, err := exec.Call(row(c.v), row(c.old), [][]float32{{float32(c.ret), float32(c.ret), -100}}, [][]float32{{1, 1, 0}})
		if err != nil {
			t.Fatal(err)
		}
		loss := float64(tensors.ToScalar[float32](out[0]))
		gv := tensors.MustCopyFlatData[float32](out[1])
		if !near(loss, c.loss, 1e-6) || !near(float64(gv[0]), c.grad/2, 1e-6) || !near(float64(gv[1]), c.grad/2, 1e-6) || gv[2] != 0 {
			t.Errorf("%s: loss %.6f ∂/∂V %v, want %.6f and %g per real token", c.name, loss, gv, c.loss, c.grad/2)
		}
		for k, g := range [][]float32{tensors.MustCopyFlatData[float32](out[2]), tensors.MustCopyFlatData[float32](out[3])} {
			if slices.ContainsFunc(g, func(x float32) bool { return x != 0 }) {
				t.Errorf("%s: gradient reached input %d: %v", c.name, k+2, g)
			}
		}
	}
}

// TestNormalizeAdvantages checks the batch standardization against hand-computed values: the
// tokens' advantages 1, 1, 3 (one episode of two calls) and 5 (another episode, another group)
// have mean 2.5 and standard deviation √2.75, and a batch of equal advantages becomes all zeros.
func TestNormalizeAdvantages(t *testing.T) {
	set := func(a [][][]float64) TinyAdvantage {
		return func(groups [][]*TinyEpisode) {
			k := 0
			for _, g := range groups {
				for _, ep := range g {
					ep.Advantages, k = a[k], k+1
				}
			}
		}
	}
	groups := [][]*TinyEpisode{{{}}, {{}}}
	NormalizeAdvantages(set([][][]float64{{{1, 1}, {3}}, {{5}}}))(groups)
	sd := math.Sqrt(2.75)
	want := [][][]float64{{{-1.5 / sd, -1.5 / sd}, {0.5 / sd}}, {{2.5 / sd}}}
	for e, ep := range []*TinyEpisode{groups[0][0], groups[1][0]} {
		for c, call := range ep.Advantages {
			for j, a := range call {
				if math.Abs(a-want[e][c][j]) > 1e-7 { // the 1e-8 in the divisor moves them by about 5e-9
					t.Fatalf("episode %d call %d token %d: %v, want %v", e, c, j, a, want[e][c][j])
				}
			}
		}
	}
	flat := [][]*TinyEpisode{{{}, {}}}
	NormalizeAdvantages(set([][][]float64{{{0.3}}, {{0.3, 0.3}}}))(flat)
	for _, ep := range flat[0] {
		for _, call := range ep.Advantages {
			for _, a := range call {
				if a != 0 {
					t.Fatalf("equal advantages became %v, want 0", a)
				}
			}
		}
	}
}

// TestKLStop checks the rule against hand-picked KLs (the limit for a target of 0.02 is 0.03)
// and that a loss without approx_kl is refused.
func TestKLStop(t *testing.T) {
	stop := KLStop(0.02)
	for _, c := range []struct {
		kl   float64
		want bool
	}{{0, false}, {0.029, false}, {0.03, false}, {0.031, true}, {0.5, true}} {
		if got := stop(map[string]float64{"approx_kl": c.kl, "clip_frac": 1}); got != c.want {
			t.Errorf("approx_kl %v: stop %v, want %v", c.kl, got, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("metrics without approx_kl: want a panic")
		}
	}()
	stop(map[string]float64{"approx_kl_k1": 1})
}

// TestPassesMinibatches checks the parts (sizes within one of each other, every episode once) and
// that a pass of Passes with 2 minibatches is the two Adam steps on those parts, in order: weight
// for weight what Chapter 6's one-step trainer ends with after fitting the parts one after the
// other, and not what one step on the whole batch gives.
func TestPassesMinibatches(t *testing.T) {
	eps := make([]*TinyEpisode, 10)
	for i := range eps {
		eps[i] = &TinyEpisode{Return: float64(i)}
	}
	parts := shuffledParts(eps, 3, rand.New(rand.NewPCG(1, 2)))
	var seen []float64
	for _, p := range parts {
		if len(p) < 3 || len(p) > 4 {
			t.Fatalf("part sizes %d, %d, %d: want 3 or 4 each", len(parts[0]), len(parts[1]), len(parts[2]))
		}
		for _, ep := range p {
			seen = append(seen, ep.Return)
		}
	}
	slices.Sort(seen)
	if !slices.Equal(seen, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("the parts hold %v, want each of 0..9 once", seen)
	}
	if one := shuffledParts(eps, 1, nil); len(one) != 1 || len(one[0]) != 10 || one[0][0] != eps[0] {
		t.Fatal("one part must be the batch itself, in order")
	}

	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")[:4]
	env := gym.Config{MaxTurns: 3}
	newTrainer := func(fit TinyFitter) *TinyTrainer {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: train, Env: env, Groups: 4, GroupSize: 2, LR: 1e-2,
			Advantage: GroupBaseline(false), Loss: PGLoss(0), Seed: 4, Fit: fit})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	mini, seq, whole := newTrainer(Passes(1, 2, nil)), newTrainer(nil), newTrainer(nil)
	rollout := twoEach(t, mini.Agent, pool, train, env)
	if _, err := mini.Fit(rollout); err != nil {
		t.Fatal(err)
	}
	// The parts Fit drew: its stream for a trainer at step 0.
	for _, p := range shuffledParts(rollout, 2, rand.New(rand.NewPCG(4, 1<<62))) {
		if _, err := seq.Fit(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := whole.Fit(rollout); err != nil {
		t.Fatal(err)
	}
	a, b, c := tinyWeights(t, mini.Agent), tinyWeights(t, seq.Agent), tinyWeights(t, whole.Agent)
	differs := false
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("weight %d: two minibatch steps differ from fitting the two parts in turn", i)
		}
		differs = differs || !slices.Equal(a[i], c[i])
	}
	if !differs {
		t.Fatal("two minibatch steps left the weights where one full-batch step does")
	}
}

// TestPassesStop checks that Passes's stop ends the passes over a batch: a trainer told to stop
// after its third of eight passes reports 3 passes, sees every pass's metrics but the last, and
// ends with the weights and last-pass metrics of a trainer that runs 3 passes.
func TestPassesStop(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")[:4]
	env := gym.Config{MaxTurns: 3}
	var seen []map[string]float64
	newTrainer := func(epochs int, stop func(map[string]float64) bool) *TinyTrainer {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: train, Env: env, Groups: 4, GroupSize: 2, LR: 1e-2,
			Advantage: GroupBaseline(false), Loss: PPOLoss(PPOConfig{ClipLow: 0.2, ClipHigh: 0.2}), Seed: 4,
			Fit: Passes(epochs, 2, stop)})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	stopped := newTrainer(8, func(m map[string]float64) bool {
		seen = append(seen, maps.Clone(m))
		return len(seen) == 3
	})
	asked := 0 // how often a trainer of 3 passes asks: after each pass but the last
	three := newTrainer(3, func(map[string]float64) bool { asked++; return false })
	rollout := twoEach(t, stopped.Agent, pool, train, env)
	a, err := stopped.Fit(rollout)
	if err != nil {
		t.Fatal(err)
	}
	b, err := three.Fit(rollout)
	if err != nil {
		t.Fatal(err)
	}
	if a.Passes != 3 || b.Passes != 3 || len(seen) != 3 || asked != 2 {
		t.Fatalf("passes %d and %d, stop asked %d and %d times: want 3, 3, 3 and 2", a.Passes, b.Passes, len(seen), asked)
	}
	if seen[0]["approx_kl"] <= 0 || a.Metrics["approx_kl_last"] != seen[2]["approx_kl"] {
		t.Fatalf("KL by pass %v, last %v: want a KL above 0 (the second part of a pass is off-policy), and the third pass's as approx_kl_last",
			seen, a.Metrics["approx_kl_last"])
	}
	if !maps.Equal(a.Metrics, b.Metrics) {
		t.Fatalf("metrics %v, want those of 3 passes %v", a.Metrics, b.Metrics)
	}
	wa, wb := tinyWeights(t, stopped.Agent), tinyWeights(t, three.Agent)
	for i := range wa {
		if !slices.Equal(wa[i], wb[i]) {
			t.Fatalf("weight %d differs from 3 passes", i)
		}
	}
}

// TestPassesOnceIsOneStep checks that one pass without minibatches is Chapter 6's own fit, bit for
// bit: the same report and the same weights (Chapter 10's recipe fits through Passes whatever its
// number of epochs).
func TestPassesOnceIsOneStep(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")[:4]
	env := gym.Config{MaxTurns: 3}
	var fits []TinyFit
	var weights [][][]float32
	for _, fitter := range []TinyFitter{nil, Passes(1, 0, nil)} {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: train, Env: env, Groups: 4, GroupSize: 2, LR: 1e-2,
			Advantage: GroupBaseline(false), Loss: PPOLoss(PPOConfig{ClipLow: 0.2, ClipHigh: 0.2}), Seed: 4, Fit: fitter})
		if err != nil {
			t.Fatal(err)
		}
		fit, err := tr.Fit(twoEach(t, agent, pool, train, env))
		if err != nil {
			t.Fatal(err)
		}
		fits, weights = append(fits, fit), append(weights, tinyWeights(t, agent))
	}
	if !reflect.DeepEqual(fits[0], fits[1]) || fits[0].Passes != 1 || len(fits[0].Metrics) == 0 {
		t.Fatalf("OneStep reported %+v, Passes(1, 0, nil) %+v: want the same, one pass, with metrics", fits[0], fits[1])
	}
	for i := range weights[0] {
		if !slices.Equal(weights[0][i], weights[1][i]) {
			t.Fatalf("weight %d differs between OneStep and one pass", i)
		}
	}
}
