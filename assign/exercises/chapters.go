package exercises

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/agenticrl/course/agentrl"
)

func init() {
	register(Exercise{Name: "returns", Cases: returnsCases})
	register(Exercise{Name: "reinforce", Cases: reinforceCases})
	register(Exercise{Name: "baselines", Cases: baselineCases})
	register(Exercise{Name: "gae", Cases: gaeCases})
	register(Exercise{Name: "group-advantages", Cases: groupCases})
	register(Exercise{Name: "kl-estimators", Cases: klCases})
}

// Chapter 2: DiscountedReturn and ReturnsToGo.
func returnsCases(seed uint64) []Case {
	r := rng(seed, 2)
	rewards, gamma := vec(r, 7, 1), 0.5+0.5*r.Float64()
	return []Case{
		vector("returns-to-go by hand, γ=0.9", func() []float64 { return agentrl.ReturnsToGo([]float64{1, 1, 1}, 0.9) },
			func() []float64 { return []float64{2.71, 1.9, 1} }, 1e-9),
		vector("γ=0 leaves each reward alone", func() []float64 { return agentrl.ReturnsToGo([]float64{3, -1, 2}, 0) },
			func() []float64 { return []float64{3, -1, 2} }, 1e-12),
		vector("γ=1 sums what is left", func() []float64 { return agentrl.ReturnsToGo([]float64{1, 2, 3, 4}, 1) },
			func() []float64 { return []float64{10, 9, 7, 4} }, 1e-12),
		vector("an empty episode", func() []float64 { return agentrl.ReturnsToGo(nil, 0.9) }, func() []float64 { return []float64{} }, 0),
		vector("random episode", func() []float64 { return agentrl.ReturnsToGo(rewards, gamma) },
			func() []float64 { return agentrl.ReturnsToGo(rewards, gamma) }, 1e-9),
		vector("discounted return by hand", func() []float64 { return []float64{agentrl.DiscountedReturn([]float64{0, 0, 1}, 0.5)} },
			func() []float64 { return []float64{0.25} }, 1e-12),
		vector("discounted return is the first return-to-go", func() []float64 { return []float64{agentrl.DiscountedReturn(rewards, gamma)} },
			func() []float64 { return []float64{agentrl.ReturnsToGo(rewards, gamma)[0]} }, 1e-9),
		expectPanic("γ above 1 is refused", func() { agentrl.ReturnsToGo([]float64{1}, 1.5) }, func() { agentrl.ReturnsToGo([]float64{1}, 1) }),
		expectPanic("a negative γ is refused", func() { agentrl.DiscountedReturn([]float64{1}, -0.1) }, func() { agentrl.DiscountedReturn([]float64{1}, 0) }),
	}
}

// Chapter 6: SoftmaxScore (against finite differences of log-softmax) and REINFORCEEstimate.
func reinforceCases(seed uint64) []Case {
	r := rng(seed, 6)
	logits := vec(r, 4, 2)
	actions := []int{r.IntN(4), r.IntN(4), r.IntN(4), r.IntN(4), r.IntN(4)}
	adv := vec(r, 5, 1)
	fd := func(z []float64, a int) []float64 { // ∂ log softmax(z)[a] / ∂z_k by central differences
		g := make([]float64, len(z))
		for k := range z {
			up, down := append([]float64(nil), z...), append([]float64(nil), z...)
			up[k] += 1e-5
			down[k] -= 1e-5
			g[k] = (agentrl.LogSoftmax(up)[a] - agentrl.LogSoftmax(down)[a]) / 2e-5
		}
		return g
	}
	return []Case{
		vector("score of a uniform policy, by hand", func() []float64 { return agentrl.SoftmaxScore([]float64{0, 0, 0, 0}, 1) },
			func() []float64 { return []float64{-0.25, 0.75, -0.25, -0.25} }, 1e-9),
		vector("score against finite differences", func() []float64 { return agentrl.SoftmaxScore(logits, actions[0]) },
			func() []float64 { return fd(logits, actions[0]) }, 1e-6),
		vector("score with large logits stays finite", func() []float64 { return agentrl.SoftmaxScore([]float64{800, 0, -800}, 0) },
			func() []float64 { return []float64{0, 0, 0} }, 1e-9),
		vector("estimate with one action is A times its score", func() []float64 { return agentrl.REINFORCEEstimate(logits, actions[:1], []float64{2}) },
			func() []float64 {
				s := fd(logits, actions[0])
				for i := range s {
					s[i] *= 2
				}
				return s
			}, 1e-6),
		vector("estimate over a batch", func() []float64 { return agentrl.REINFORCEEstimate(logits, actions, adv) },
			func() []float64 { return agentrl.REINFORCEEstimate(logits, actions, adv) }, 1e-9),
		expectPanic("mismatched actions and advantages are refused", func() { agentrl.REINFORCEEstimate(logits, actions, adv[:2]) },
			func() { agentrl.REINFORCEEstimate(logits, actions, adv) }),
	}
}

// Chapter 6: MeanBaseline and LeaveOneOutBaseline.
func baselineCases(seed uint64) []Case {
	r := rng(seed, 7)
	rewards := vec(r, 6, 1)
	return []Case{
		vector("mean baseline by hand", func() []float64 { return agentrl.MeanBaseline([]float64{1, 0, 0, 1}) },
			func() []float64 { return []float64{0.5, -0.5, -0.5, 0.5} }, 1e-12),
		vector("leave-one-out by hand", func() []float64 { return agentrl.LeaveOneOutBaseline([]float64{1, 0, 0, 1}) },
			func() []float64 { return []float64{2.0 / 3, -2.0 / 3, -2.0 / 3, 2.0 / 3} }, 1e-9),
		vector("mean baseline, random", func() []float64 { return agentrl.MeanBaseline(rewards) },
			func() []float64 { return agentrl.MeanBaseline(rewards) }, 1e-9),
		vector("leave-one-out is N/(N−1) times the mean baseline", func() []float64 { return agentrl.LeaveOneOutBaseline(rewards) },
			func() []float64 {
				a := agentrl.MeanBaseline(rewards)
				for i := range a {
					a[i] *= 6.0 / 5
				}
				return a
			}, 1e-9),
		expectPanic("leave-one-out refuses one reward", func() { agentrl.LeaveOneOutBaseline([]float64{1}) }, func() { agentrl.LeaveOneOutBaseline([]float64{1, 2}) }),
	}
}

// Chapter 7: TDErrors and GAE, by hand and at the limits λ = 0 and λ = 1.
func gaeCases(seed uint64) []Case {
	r := rng(seed, 7)
	rewards, values := vec(r, 6, 1), vec(r, 7, 1)
	values[6] = 0
	gamma, lambda := 0.9+0.1*r.Float64(), r.Float64()
	both := func(a, b []float64) []float64 { return append(append([]float64(nil), a...), b...) }
	return []Case{
		vector("TD errors by hand", func() []float64 { return agentrl.TDErrors([]float64{1, 0}, []float64{0.5, 0.25, 0}, 0.5) },
			func() []float64 { return []float64{0.625, -0.25} }, 1e-12),
		vector("λ=0: advantages are the TD errors", func() []float64 { a, _ := agentrl.GAE(rewards, values, gamma, 0); return a },
			func() []float64 { return agentrl.TDErrors(rewards, values, gamma) }, 1e-9),
		vector("λ=1: advantages are returns-to-go minus values", func() []float64 { a, _ := agentrl.GAE(rewards, values, gamma, 1); return a },
			func() []float64 {
				g := agentrl.ReturnsToGo(rewards, gamma)
				for i := range g {
					g[i] -= values[i]
				}
				return g
			}, 1e-9),
		vector("random: advantages and returns", func() []float64 { a, ret := agentrl.GAE(rewards, values, gamma, lambda); return both(a, ret) },
			func() []float64 { a, ret := agentrl.GAE(rewards, values, gamma, lambda); return both(a, ret) }, 1e-9),
		expectPanic("values must be one longer than rewards", func() { agentrl.TDErrors(rewards, values[:6], gamma) }, func() { agentrl.TDErrors(rewards, values, gamma) }),
		expectPanic("λ above 1 is refused", func() { agentrl.GAE(rewards, values, gamma, 1.5) }, func() { agentrl.GAE(rewards, values, gamma, 1) }),
	}
}

// Chapter 9: GroupAdvantages and RLOOAdvantages.
func groupCases(seed uint64) []Case {
	r := rng(seed, 9)
	rewards := make([]float64, 8)
	for i := range rewards {
		rewards[i] = float64(r.IntN(2))
	}
	rewards[0], rewards[1] = 0, 1 // never uniform
	sum := func(v []float64) []float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return []float64{s}
	}
	// Every combination of scaling and std estimator: the submission's in the jail, the
	// reference's in the grader.
	variants := func() []float64 {
		var v []float64
		for _, sc := range []bool{false, true} {
			for _, ss := range []bool{false, true} {
				v = append(v, agentrl.GroupAdvantages(rewards, sc, ss)...)
			}
		}
		return v
	}
	return []Case{
		vector("GRPO, scaled by the population std, by hand", func() []float64 { return agentrl.GroupAdvantages([]float64{1, 0, 0, 0}, true, false) },
			func() []float64 {
				s := math.Sqrt(3.0/16) + 1e-6
				return []float64{0.75 / s, -0.25 / s, -0.25 / s, -0.25 / s}
			}, 1e-6),
		vector("a uniform group has zero advantages", func() []float64 { return agentrl.GroupAdvantages([]float64{1, 1, 1}, true, true) },
			func() []float64 { return []float64{0, 0, 0} }, 0),
		vector("random group, each variant", variants, variants, 1e-6),
		vector("GRPO advantages sum to zero", func() []float64 { return sum(agentrl.GroupAdvantages(rewards, true, false)) },
			func() []float64 { return []float64{0} }, 1e-9),
		vector("RLOO by hand", func() []float64 { return agentrl.RLOOAdvantages([]float64{1, 0, 0}) },
			func() []float64 { return []float64{1, -0.5, -0.5} }, 1e-12),
		vector("RLOO of one sample is zero", func() []float64 { return agentrl.RLOOAdvantages([]float64{1}) },
			func() []float64 { return []float64{0} }, 0),
		vector("RLOO, random group", func() []float64 { return agentrl.RLOOAdvantages(rewards) },
			func() []float64 { return agentrl.RLOOAdvantages(rewards) }, 1e-9),
	}
}

// Chapter 10: the k1, k2 and k3 estimators, by their formulas and signs.
func klCases(seed uint64) []Case {
	r := rng(seed, 10)
	lp, ref := vec(r, 8, 3), vec(r, 8, 3)
	each := func(f func(a, b float64) float64) []float64 {
		v := make([]float64, len(lp))
		for i := range lp {
			v[i] = f(lp[i], ref[i])
		}
		return v
	}
	formula := map[string]func(a, b float64) float64{
		"k1": func(a, b float64) float64 { return a - b },
		"k2": func(a, b float64) float64 { return (b - a) * (b - a) / 2 },
		"k3": func(a, b float64) float64 { return math.Exp(b-a) - 1 - (b - a) },
	}
	est := map[string]func(a, b float64) float64{"k1": agentrl.KLK1, "k2": agentrl.KLK2, "k3": agentrl.KLK3}
	var cs []Case
	for _, k := range []string{"k1", "k2", "k3"} {
		cs = append(cs, vector(k+" against its formula", func() []float64 { return each(est[k]) }, func() []float64 { return each(formula[k]) }, 1e-9))
	}
	cs = append(cs,
		Case{Name: "k2 and k3 are never negative", Run: func() any { return Floats(append(each(agentrl.KLK2), each(agentrl.KLK3)...)) },
			Check: func(out json.RawMessage) error {
				v, err := decode(out)
				if err != nil {
					return err
				}
				if len(v) != 2*len(lp) {
					return fmt.Errorf("returned %d values, want %d", len(v), 2*len(lp))
				}
				for i, x := range v {
					if x < 0 {
						return fmt.Errorf("value %d is %.6g < 0", i, x)
					}
				}
				return nil
			}})
	return cs
}
