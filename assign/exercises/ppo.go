package exercises

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/backend"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func init() { register(Exercise{Name: "ppo-clip", Cases: ppoCases}) }

// ppoInput is one batch for PPOPolicyLoss: ratios chosen away from the clip's kinks.
type ppoInput struct {
	cfg             agentrl.PPOConfig
	lp, old, adv, m [][]float32
}

// ppoRun evaluates PPOPolicyLoss (which calls the submission's ppoTokenLoss) and its gradient
// with respect to the log-probs, old log-probs and advantages.
func ppoRun(in ppoInput) any {
	b, err := backend.Default()
	if err != nil {
		panic(err)
	}
	exec, err := graph.NewExec(b, func(lp, old, adv, mask *graph.Node) []*graph.Node {
		loss := agentrl.PPOPolicyLoss(lp, old, adv, mask, in.cfg)
		return append([]*graph.Node{loss}, graph.Gradient(loss, lp, old, adv)...)
	})
	if err != nil {
		panic(err)
	}
	out, err := exec.Call(in.lp, in.old, in.adv, in.m)
	if err != nil {
		panic(err)
	}
	v := []float64{float64(tensors.ToScalar[float32](out[0]))}
	for _, g := range out[1:] {
		for _, x := range tensors.MustCopyFlatData[float32](g) {
			v = append(v, float64(x))
		}
	}
	return Floats(v)
}

// ppoWant is the loss and gradients by PPO's formula, written out token by token: the loss
// −min(r·A, clip(r)·A), bounded by c·|A| for A < 0 under dual clipping; its derivative in log π
// is −r·A where the unclipped term is the one kept and 0 where a clip binds; no gradient reaches
// the old log-probs or the advantages; the mean runs over the tokens with mask 1.
func ppoWant(in ppoInput) []float64 {
	n, loss := 0.0, 0.0
	var grad []float64
	for i := range in.lp {
		for j := range in.lp[i] {
			n += float64(in.m[i][j])
		}
	}
	n = math.Max(n, 1)
	for i := range in.lp {
		for j := range in.lp[i] {
			r := math.Exp(float64(in.lp[i][j] - in.old[i][j]))
			a, m := float64(in.adv[i][j]), float64(in.m[i][j])
			c := math.Min(math.Max(r, 1-in.cfg.ClipLow), 1+in.cfg.ClipHigh)
			l, g := -r*a, -r*a
			if -c*a > l {
				l, g = -c*a, 0
			}
			if in.cfg.DualClip > 0 && a < 0 && l > -in.cfg.DualClip*a {
				l, g = -in.cfg.DualClip*a, 0
			}
			loss += m * l / n
			grad = append(grad, m*g/n)
		}
	}
	zeros := make([]float64, 2*len(grad))
	return append(append([]float64{loss}, grad...), zeros...)
}

func ppoCases(seed uint64) []Case {
	r := rng(seed, 8)
	ratios := []float64{0.5, 0.7, 0.95, 1.05, 1.1, 1.5, 2, 4}
	batch := func(cfg agentrl.PPOConfig) ppoInput {
		in := ppoInput{cfg: cfg}
		for i := 0; i < 2; i++ {
			var lp, old, adv, m []float32
			for j := 0; j < 4; j++ {
				o := float32(-0.5 - 2*r.Float64())
				old = append(old, o)
				lp = append(lp, o+float32(math.Log(ratios[r.IntN(len(ratios))])))
				adv = append(adv, float32(math.Round((r.Float64()*4-2)*100)/100))
				m = append(m, float32(map[bool]int{true: 1, false: 0}[i == 0 || j < 2]))
			}
			in.lp, in.old, in.adv, in.m = append(in.lp, lp), append(in.old, old), append(in.adv, adv), append(in.m, m)
		}
		return in
	}
	one := func(cfg agentrl.PPOConfig, ratio, adv float64) ppoInput {
		return ppoInput{cfg: cfg, lp: [][]float32{{float32(-1 + math.Log(ratio))}}, old: [][]float32{{-1}}, adv: [][]float32{{float32(adv)}}, m: [][]float32{{1}}}
	}
	sym := agentrl.PPOConfig{ClipLow: 0.2, ClipHigh: 0.2}
	dual := agentrl.PPOConfig{ClipLow: 0.2, ClipHigh: 0.2, DualClip: 3}
	asym := agentrl.PPOConfig{ClipLow: 0.2, ClipHigh: 0.28}
	c := func(name string, in ppoInput) Case {
		return Case{Name: name, Run: func() any { return ppoRun(in) }, Check: func(out json.RawMessage) error {
			err := same(out, ppoWant(in), 2e-5)
			if err != nil {
				return fmt.Errorf("[loss, ∂/∂logp..., ∂/∂old..., ∂/∂A...]: %w", err)
			}
			return nil
		}}
	}
	return []Case{
		c("one token inside the band, A>0", one(sym, 1.1, 2)),
		c("one token above the band, A>0: clipped", one(sym, 1.5, 2)),
		c("one token below the band, A<0: clipped", one(sym, 0.5, -1)),
		c("one token far above, A<0, no dual clip", one(sym, 5, -1)),
		c("one token far above, A<0, dual clip 3", one(dual, 5, -1)),
		c("asymmetric band", one(asym, 1.25, 1)),
		c("random masked batch", batch(sym)),
		c("random masked batch, dual clip", batch(dual)),
		expectPanic("a dual clip of at most 1 is refused", func() { ppoRun(one(agentrl.PPOConfig{ClipLow: 0.2, ClipHigh: 0.2, DualClip: 0.5}, 1, -1)) },
			func() { ppoRun(one(dual, 1, -1)) }),
	}
}
