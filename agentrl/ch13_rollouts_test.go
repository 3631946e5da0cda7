package agentrl

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/study"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// isExample is the worked example of Section 13.4: three calls of two tokens, the first two in
// episode 0 and the third in episode 1, plus a padding row that must get weight 0.
var isExample = struct{ behav, prox, mask, episode [][]float32 }{
	behav:   [][]float32{{-1.0, -0.5}, {-2.0, -0.1}, {-0.3, -1.2}, {0, 0}},
	prox:    [][]float32{{-0.2, -0.5}, {-2.5, -0.1}, {-0.3, -3.0}, {-9, 9}},
	mask:    [][]float32{{1, 1}, {1, 1}, {1, 1}, {0, 0}},
	episode: [][]float32{{1, 0}, {1, 0}, {0, 1}, {0, 0}},
}

func TestImportanceWeights(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	e8, e5, e18, e3 := math.Exp(0.8), math.Exp(-0.5), math.Exp(-1.8), math.Exp(0.3) // token and episode ratios
	for _, c := range []struct {
		name string
		cfg  ISConfig
		want [][]float64
	}{
		{"per token", ISConfig{}, [][]float64{{e8, 1}, {e5, 1}, {1, e18}, {0, 0}}},
		{"TIS", ISConfig{Truncate: 2}, [][]float64{{2, 1}, {e5, 1}, {1, e18}, {0, 0}}},
		{"MIS", ISConfig{Low: 0.5, High: 2}, [][]float64{{0, 1}, {e5, 1}, {1, 0}, {0, 0}}},
		{"episode TIS", ISConfig{Sequence: true, Truncate: 2}, [][]float64{{e3, e3}, {e3, e3}, {e18, e18}, {0, 0}}},
		{"episode MIS", ISConfig{Sequence: true, Low: 0.5, High: 2}, [][]float64{{e3, e3}, {e3, e3}, {0, 0}, {0, 0}}},
		{"episode, truncated below its weight", ISConfig{Sequence: true, Truncate: 1.2}, [][]float64{{1.2, 1.2}, {1.2, 1.2}, {e18, e18}, {0, 0}}},
	} {
		got := graph.MustExecOnce(be, func(p, b, m, e *graph.Node) *graph.Node {
			return ImportanceWeights(p, b, m, e, c.cfg)
		}, isExample.prox, isExample.behav, isExample.mask, isExample.episode).Value().([][]float32)
		for r := range c.want {
			for j := range c.want[r] {
				if math.Abs(float64(got[r][j])-c.want[r][j]) > 1e-5 {
					t.Errorf("%s: weight [%d][%d] = %g, want %g", c.name, r, j, got[r][j], c.want[r][j])
				}
			}
		}
	}
}

// TestDecoupled: the wrapped loss sees π_prox as its old log-probs and ρ·A as its advantages,
// whether π_prox comes as the named input or, without it, as the detached log-probs.
func TestDecoupled(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	adv := [][]float32{{1, 1}, {-1, -1}, {2, 2}, {0, 0}}
	// base is the mean over real tokens of ratio·A, so the loss shows both substitutions.
	base := func(in LossInputs) (*graph.Node, []Metric) {
		ratio := graph.Exp(graph.Sub(in.LogProbs, in.SamplingLogProbs))
		return MaskedMean(graph.Mul(ratio, in.Advantages), in.Mask), nil
	}
	loss := Decoupled(base, ISConfig{Truncate: 2})
	run := func(named bool) []float64 {
		res := graph.MustExecOnceN(be, func(inputs []*graph.Node) []*graph.Node {
			in := LossInputs{LogProbs: graph.AddScalar(inputs[0], 0.1), SamplingLogProbs: inputs[1], Mask: inputs[2],
				Episode: inputs[3], Advantages: inputs[4], Named: map[string]*graph.Node{}}
			if !named {
				in.LogProbs = inputs[0]
			} else {
				in.Named[ProxInput] = inputs[0]
			}
			l, metrics := loss(in)
			out := []*graph.Node{l}
			for _, m := range metrics {
				out = append(out, m.Value)
			}
			return out
		}, isExample.prox, isExample.behav, isExample.mask, isExample.episode, adv)
		var vals []float64
		for _, r := range res {
			vals = append(vals, float64(tensors.ToScalar[float32](r)))
		}
		return vals
	}
	// Weights (TIS, C = 2) of the six real tokens: 2, 1, e^-0.5, 1, 1, e^-1.8.
	w := []float64{2, 1, math.Exp(-0.5), 1, 1, math.Exp(-1.8)}
	a := []float64{1, 1, -1, -1, 2, 2}
	gaps := []float64{0.8, 0, -0.5, 0, 0, -1.8}
	wa, wMean, gap := 0.0, 0.0, 0.0
	for i := range w {
		wa += w[i] * a[i] / 6
		wMean += w[i] / 6
		gap += gaps[i] / 6
	}
	for _, c := range []struct {
		named bool
		ratio float64 // π_θ/π_prox
	}{{true, math.Exp(0.1)}, {false, 1}} {
		got := run(c.named)
		want := []float64{c.ratio * wa, wMean, 0, gap}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-5 {
				t.Errorf("named π_prox %v: value %d (loss, is_weight, is_zero, behav_gap) = %g, want %g", c.named, i, got[i], want[i])
			}
		}
	}
}

func TestWithMismatch(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	res := graph.MustExecOnceN(be, func(lp, old, mask *graph.Node) []*graph.Node {
		loss, metrics := WithMismatch(func(in LossInputs) (*graph.Node, []Metric) {
			return graph.ReduceAllSum(in.LogProbs), nil
		})(LossInputs{LogProbs: lp, SamplingLogProbs: old, Mask: mask})
		return []*graph.Node{loss, metrics[0].Value, metrics[1].Value}
	}, isExample.prox, isExample.behav, isExample.mask)
	// |Δ| per real token: 0.8, 0, 0.5, 0, 0, 1.8 (the padding row's 9s are masked); three of six
	// lie outside log 0.8 ≈ −0.223 and log 1.25 ≈ 0.223.
	want := []float64{-6.6, 1.8, 0.5}
	for i, r := range res {
		if got := float64(tensors.ToScalar[float32](r)); math.Abs(got-want[i]) > 1e-5 {
			t.Errorf("value %d (loss, mismatch_max, mismatch_out) = %g, want %g", i, got, want[i])
		}
	}
}

func TestRolloutQueueAssignsVersions(t *testing.T) {
	if _, err := NewRolloutQueue(-1, nil); err == nil {
		t.Error("a negative staleness was accepted")
	}
	v0, v1 := &TinyAgent{}, &TinyAgent{}
	q, err := NewRolloutQueue(1, v0)
	if err != nil {
		t.Fatal(err)
	}
	for u, want := range []int{0, 0} { // updates 0 and 1 sample with version 0 at staleness 1
		if p, v := q.PolicyFor(u); p != v0 || v != want {
			t.Errorf("update %d: version %d, want %d", u, v, want)
		}
	}
	got := make(chan int)
	go func() {
		p, v := q.PolicyFor(2) // needs version 1, not published yet
		if p != v1 {
			v = -1
		}
		got <- v
	}()
	select {
	case v := <-got:
		t.Fatalf("update 2 got version %d before it was published", v)
	case <-time.After(50 * time.Millisecond):
	}
	q.Publish(v1)
	if v := <-got; v != 1 {
		t.Errorf("update 2 sampled with version %d, want 1", v)
	}
	if !q.Put(RolloutBatch{Update: 0}) {
		t.Fatal("Put into an open queue failed")
	}
	if b := q.Get(); b.Update != 0 {
		t.Errorf("Get returned update %d", b.Update)
	}
	go func() { _, v := q.PolicyFor(5); got <- v }() // waits for version 4
	q.Close()
	if v := <-got; v != 4 {
		t.Errorf("a waiting engine was released with version %d, want 4", v)
	}
	if q.Put(RolloutBatch{}) && q.Put(RolloutBatch{}) {
		t.Error("Put kept accepting batches after Close")
	}
}

func TestSnapshotTinyAgent(t *testing.T) {
	cfg := DefaultTinyAgentConfig()
	cfg.Seed = 5
	a, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := SnapshotTinyAgent(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	rounded, err := SnapshotTinyAgent(a, RoundBF16)
	if err != nil {
		t.Fatal(err)
	}
	orig, same, bf := tinyWeights(t, a), tinyWeights(t, exact), tinyWeights(t, rounded)
	changed := 0
	for i := range orig {
		if !slices.Equal(orig[i], same[i]) {
			t.Errorf("weight %d: the exact copy differs", i)
		}
		for j, x := range orig[i] {
			if d := math.Abs(float64(bf[i][j] - x)); d > math.Abs(float64(x))/256 || math.Float32bits(bf[i][j])&0xffff != 0 {
				t.Fatalf("weight %d[%d]: %g rounded to %g, not the nearest bf16", i, j, x, bf[i][j])
			}
			if bf[i][j] != x {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("rounding to bf16 changed no weight")
	}
	if RoundBF16(1+1.0/512) != 1 || RoundBF16(1+3.0/512) != 1+1.0/128 {
		t.Error("RoundBF16 does not round to nearest even")
	}
}

// TestAsyncTrainIsReproducible: every batch is sampled by version max(0, u − staleness), and the
// same seed gives the same run however the goroutines interleave.
func TestAsyncTrainIsReproducible(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	run := func(staleness int) []AsyncLog {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:6],
			Env: gym.Config{MaxTurns: 2}, Groups: 2, GroupSize: 2, LR: 1e-2, Advantage: GroupBaseline(false),
			Loss: WithMismatch(PGLoss(0.05)), Seed: 3}) // the entropy term moves the weights even without a reward signal
		if err != nil {
			t.Fatal(err)
		}
		logs, err := AsyncTrain(tr, pool, 3, staleness, func(a *TinyAgent) (*TinyAgent, error) { return SnapshotTinyAgent(a, nil) })
		if err != nil {
			t.Fatal(err)
		}
		return logs
	}
	for _, c := range []struct {
		staleness int
		versions  []int
	}{{0, []int{0, 1, 2}}, {1, []int{0, 0, 1}}} {
		first, again := run(c.staleness), run(c.staleness)
		for u, l := range first {
			if l.Update != u || l.Version != c.versions[u] {
				t.Errorf("staleness %d, update %d: sampled by version %d, want %d", c.staleness, l.Update, l.Version, c.versions[u])
			}
			if l.Solved != again[u].Solved || l.Fit.Loss != again[u].Fit.Loss {
				t.Errorf("staleness %d, update %d: a second run differs (loss %g, then %g)", c.staleness, u, l.Fit.Loss, again[u].Fit.Loss)
			}
		}
		// Sampled by the version being trained, a batch's log-probs agree with the trainer's
		// to float32 rounding; a version behind, they do not.
		if gap := first[1].Fit.Metrics["mismatch_max"]; (c.staleness == 0) != (gap < 1e-3) {
			t.Errorf("staleness %d: largest |Δ log p| at update 1 is %g", c.staleness, gap)
		}
	}
}

// TestProxLogProbs: the input holds the agent's own log-prob of every call token (the sampler's,
// to float32 rounding, since the agent sampled them), and 0 in padding slots and rows.
func TestProxLogProbs(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	eps, err := TinyRollout(agent, pool, gym.Filter(tasks, gym.Train, "")[:3],
		TinyRolloutConfig{Env: gym.Config{MaxTurns: 2}, Temperature: 1, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	var samples []TinySample
	for _, ep := range eps {
		samples = append(samples, ep.Calls...)
	}
	rows := len(samples) + 2
	m, err := ProxLogProbs(agent).Build(TinyInputBatch{Samples: samples, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != rows {
		t.Fatalf("%d rows, want %d", len(m), rows)
	}
	for r, row := range m {
		if len(row) != TinyMaxCall {
			t.Fatalf("row %d has %d values, want %d", r, len(row), TinyMaxCall)
		}
		for j, x := range row {
			want := 0.0
			if r < len(samples) && j < len(samples[r].Tokens) {
				want = samples[r].LogProbs[j]
			}
			if math.Abs(float64(x)-want) > 1e-4 {
				t.Errorf("row %d, token %d: %g, want %g", r, j, x, want)
			}
		}
	}
}

// TestEvalStudy: task i of seed s is played on sampling seed 1000·s + i, one value per task.
func TestEvalStudy(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	a, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	held, env := gym.Filter(tasks, gym.Train, "")[:3], ShortRecipe().Env()
	res := &study.Result{Outcomes: map[string][][]float64{}}
	done := 0
	err = EvalStudy(a, pool, held, env, 2, 5, res, func(ev TinyEval) map[string]float64 {
		return map[string]float64{"calls": ev.Calls}
	}, func(d int) { done = d })
	if err != nil || done != 3 || len(res.Tasks) != 3 || len(res.Outcomes["calls"]) != 3 {
		t.Fatalf("%v: %d reported, tasks %v, outcomes %v", err, done, res.Tasks, res.Outcomes)
	}
	for i, task := range held {
		eps, err := TinyRollout(a, pool, []*gym.Task{task, task}, TinyRolloutConfig{Env: env, Temperature: 1, Seed: 5000 + uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		want := float64(len(eps[0].Calls)+len(eps[1].Calls)) / 2
		if got := res.Outcomes["calls"][i]; res.Tasks[i] != task.ID || len(got) != 1 || got[0] != want {
			t.Errorf("task %d (%s): %v calls, want [%g] from stream %d", i, res.Tasks[i], got, want, 5000+i)
		}
	}
}

// TestCorrectionsLoss: every arm of CorrectionsStudy has a loss and a staleness, the synchronous
// arm alone samples with the current policy, and an unknown arm is an error.
func TestCorrectionsLoss(t *testing.T) {
	base := PGLoss(0)
	for _, a := range CorrectionsStudy.Arms {
		loss, staleness, err := correctionsLoss(a.Name, base)
		if err != nil || loss == nil || (staleness == 0) != (a.Name == "sync") {
			t.Errorf("arm %s: loss %v, staleness %d, %v", a.Name, loss != nil, staleness, err)
		}
	}
	if _, _, err := correctionsLoss("nope", base); err == nil {
		t.Error("an unknown arm gave no error")
	}
}
