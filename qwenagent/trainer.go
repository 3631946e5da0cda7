package qwenagent

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/qwen3/model"
)

// TrainOptions are the settings of a Trainer.
type TrainOptions struct {
	LR         float64 // Adam's learning rate
	Clip       float64 // the surrogate's clip range ε: the ratio stays in [1−ε, 1+ε]
	ScaleByStd bool    // GRPO's advantages (divided by the group's standard deviation); false: Dr. GRPO's
	// TrainEmbeddings also trains the embedding matrix. Off by default: with Qwen3's 151,936
	// tokens its gradient dominates a small model's step, and an agent's format is learned in the
	// layers.
	TrainEmbeddings bool
	// Loss is the loss of an update, built from the same functions and wrappers as TinyAgent's
	// (agentrl.LossFn: agentrl.PPOLoss, agentrl.WithMismatch, the GRPO family, ...). Nil is
	// agentrl.PPOLoss with the clip range Clip on both sides. It sees one row per episode: its
	// agent tokens' log-probs under the weights being trained (LogProbs) and as sampled
	// (SamplingLogProbs), its advantage on every token, the mask, and Episode as the identity;
	// RefLogProbs are zeros (no reference policy), and Entropy is not computed (nil): a loss that
	// reads it fails to build, with an error.
	Loss agentrl.LossFn `json:"-"` // code, not a setting: a run folder's run.json leaves it out
}

// DefaultTrainOptions are the settings of the course's runs.
func DefaultTrainOptions() TrainOptions { return TrainOptions{LR: 1e-3, Clip: 0.2} }

// Trainer updates a model's weights in place from groups of episodes.
type Trainer struct {
	Model   *model.Model
	Opts    TrainOptions
	Updates int // updates applied so far (restored with the checkpoint)
	step    *mlmodel.Exec
	score   *mlmodel.Exec
	metrics []string // the loss's metric names, in the order step returns them after the loss and log-probs
	// autocast is m's autocast when the trainer was made: its graphs are built with it.
	autocast dtypes.DType
}

// NewTrainer makes a trainer for m. The update follows m's autocast setting (model.SetAutocast):
// with bf16 autocast its matrix products, forward and backward, run in bf16 as torch.autocast
// runs them, while the weights, their gradients and Adam's moments stay float32. Set it before
// NewTrainer: the trainer compiles its graphs as shapes come and refuses to run once the setting
// has changed, since they would otherwise mix both.
func NewTrainer(m *model.Model, o TrainOptions) (*Trainer, error) {
	if o.LR <= 0 || o.Clip <= 0 {
		return nil, fmt.Errorf("qwenagent: learning rate (%g) and clip (%g) must be positive", o.LR, o.Clip)
	}
	m.Store.GetVariable(model.VariablePath("model.embed_tokens.weight")).SetTrainable(o.TrainEmbeddings)
	loss := o.Loss
	if loss == nil {
		loss = agentrl.PPOLoss(agentrl.PPOConfig{ClipLow: o.Clip, ClipHigh: o.Clip})
	}
	t := &Trainer{Model: m, Opts: o, autocast: m.Autocast()}
	opt := optimizer.Adam().LearningRate(o.LR).Done()
	var err error
	t.step, err = mlmodel.NewExec(m.Backend(), m.Store, func(scope *mlmodel.Scope, ids, at, targets, sampling, adv, mask *graph.Node) []*graph.Node {
		g := ids.Graph()
		m.Store.SetTraining(g, true) // weights as parameters, not constants: they change
		lp := m.LogProbsAtGraph(ids, at, targets)
		rows := ids.Shape().Dimensions[0]
		episode := graph.OneHot(graph.Iota(g, shapes.Make(dtypes.Int32, rows), 0), rows, lp.DType())
		value, metrics := loss(agentrl.LossInputs{LogProbs: lp, SamplingLogProbs: sampling, RefLogProbs: graph.ZerosLike(lp),
			Advantages: adv, Mask: mask, Episode: episode})
		opt.UpdateGraph(scope, g, value)
		t.metrics = t.metrics[:0]
		out := []*graph.Node{value, lp}
		for _, mt := range metrics {
			t.metrics = append(t.metrics, mt.Name)
			out = append(out, mt.Value)
		}
		return out
	})
	if err != nil {
		return nil, err
	}
	t.score, err = mlmodel.NewExec(m.Backend(), m.Store, func(_ *mlmodel.Scope, ids, at, targets *graph.Node) *graph.Node {
		m.Store.SetTraining(ids.Graph(), true)
		return m.LogProbsAtGraph(ids, at, targets)
	})
	if err != nil {
		return nil, err
	}
	t.step.SetMaxCache(8)
	t.score.SetMaxCache(8)
	return t, nil
}

// agentBatch lays trajectories out for LogProbsAtGraph: ids [B,T] right-padded, and for every
// agent token of a row the position that predicts it (at), the token (target), its recorded
// log-probability (sampling) and 1 in mask; T and K are rounded up to multiples of 64 and 16 so that
// a few compiled shapes serve a whole run.
type agentBatch struct {
	rows, t, k          int
	ids, at, targets    []int32
	sampling, adv, mask []float32
	counts              []int // agent tokens of each row
}

func roundUp(n, m int) int { return max(m, (n+m-1)/m*m) }

func newAgentBatch(trs []agentrl.Trajectory, adv []float64) (*agentBatch, error) {
	flats := make([]agentrl.Flat, len(trs))
	b := &agentBatch{rows: len(trs), counts: make([]int, len(trs))}
	for i, tr := range trs {
		f, err := agentrl.Flatten(tr)
		if err != nil {
			return nil, err
		}
		flats[i] = f
		for j := 1; j < len(f.IDs); j++ {
			b.counts[i] += int(f.Mask[j])
		}
		b.t, b.k = max(b.t, len(f.IDs)), max(b.k, b.counts[i])
	}
	b.t, b.k = roundUp(b.t, 64), roundUp(b.k, 16)
	b.ids = make([]int32, b.rows*b.t)
	b.at, b.targets = make([]int32, b.rows*b.k), make([]int32, b.rows*b.k)
	b.sampling, b.adv, b.mask = make([]float32, b.rows*b.k), make([]float32, b.rows*b.k), make([]float32, b.rows*b.k)
	for i, f := range flats {
		copy(b.ids[i*b.t:], f.IDs)
		k := i * b.k
		for j := 1; j < len(f.IDs); j++ { // the first token is the prompt's: nothing predicts it
			if f.Mask[j] == 0 {
				continue
			}
			b.at[k], b.targets[k], b.sampling[k], b.mask[k] = int32(j-1), f.IDs[j], f.SamplingLogProbs[j], 1
			if adv != nil {
				b.adv[k] = float32(adv[i])
			}
			k++
		}
	}
	return b, nil
}

func (b *agentBatch) tensor32(v []int32, n int) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(v, b.rows, n)
}

func (b *agentBatch) tensorF(v []float32) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(v, b.rows, b.k)
}

// split cuts a [B,K] output into each row's agent tokens.
func (b *agentBatch) split(out *tensors.Tensor) [][]float32 {
	flat := tensors.MustCopyFlatData[float32](out)
	rows := make([][]float32, b.rows)
	for i := range rows {
		rows[i] = flat[i*b.k : i*b.k+b.counts[i]]
	}
	return rows
}

// LogProbs returns, for each trajectory, the current log-probability of each of its agent tokens
// in order: the number a trainer recomputes, and what an update moves.
func (t *Trainer) LogProbs(trs []agentrl.Trajectory) ([][]float32, error) {
	if err := t.sameAutocast(); err != nil {
		return nil, err
	}
	b, err := newAgentBatch(trs, nil)
	if err != nil {
		return nil, err
	}
	out, err := t.score.Call1(b.tensor32(b.ids, b.t), b.tensor32(b.at, b.k), b.tensor32(b.targets, b.k))
	if err != nil {
		return nil, err
	}
	defer out.FinalizeAll()
	return b.split(out), nil
}

// Step is what one update reports.
type Step struct {
	Loss        float64
	Metrics     map[string]float64 // the loss's metrics (PPOLoss: clip_frac, approx_kl, ...), before the step
	Advantages  []float64          // per episode
	AgentTokens int                // tokens the loss counted
	Before      [][]float32        // each episode's agent-token log-probs under the weights before the update
}

// Update applies one GRPO-family step to a group of episodes of one task: group-relative
// advantages of their rewards, then one Adam step on the clipped token-level surrogate over
// their agent tokens. An episode whose agent segments carry no log-probabilities (a scripted
// one) is scored first, so every ratio starts at 1.
func (t *Trainer) Update(group []*Episode) (Step, error) {
	if len(group) == 0 {
		return Step{}, fmt.Errorf("qwenagent: an update needs a group of episodes")
	}
	trs := make([]agentrl.Trajectory, len(group))
	rewards := make([]float64, len(group))
	for i, ep := range group {
		trs[i], rewards[i] = ep.Trajectory, ep.Reward()
	}
	adv := agentrl.GroupAdvantages(rewards, t.Opts.ScaleByStd, false)
	return t.UpdateWith(trs, adv)
}

// UpdateWith is Update with the advantages given, one per trajectory.
func (t *Trainer) UpdateWith(trs []agentrl.Trajectory, adv []float64) (Step, error) {
	if len(adv) != len(trs) {
		return Step{}, fmt.Errorf("qwenagent: %d advantages for %d trajectories", len(adv), len(trs))
	}
	if err := t.sameAutocast(); err != nil {
		return Step{}, err
	}
	b, err := newAgentBatch(trs, adv)
	if err != nil {
		return Step{}, err
	}
	if unscored(trs) {
		cur, err := t.LogProbs(trs)
		if err != nil {
			return Step{}, err
		}
		for i, row := range cur {
			copy(b.sampling[i*b.k:], row)
		}
	}
	out, err := t.call(b)
	if err != nil {
		return Step{}, err
	}
	defer func() {
		for _, o := range out {
			o.FinalizeAll()
		}
	}()
	t.Updates++
	s := Step{Loss: float64(tensors.ToScalar[float32](out[0])), Metrics: map[string]float64{}, Advantages: adv, Before: b.split(out[1])}
	for k, name := range t.metrics {
		s.Metrics[name] = float64(tensors.ToScalar[float32](out[2+k]))
	}
	for _, c := range b.counts {
		s.AgentTokens += c
	}
	return s, nil
}

// sameAutocast refuses to run after the model's autocast setting changed under the trainer.
// call runs the update's graph on b. GoMLX reports a graph it cannot build (a loss that reads
// the Entropy this trainer does not compute) by panicking; call returns it as an error.
func (t *Trainer) call(b *agentBatch) (out []*tensors.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("qwenagent: building the update: %v", r)
		}
	}()
	return t.step.Call(b.tensor32(b.ids, b.t), b.tensor32(b.at, b.k), b.tensor32(b.targets, b.k),
		b.tensorF(b.sampling), b.tensorF(b.adv), b.tensorF(b.mask))
}

func (t *Trainer) sameAutocast() error {
	if now := t.Model.Autocast(); now != t.autocast {
		return fmt.Errorf("qwenagent: the model's autocast changed from %s to %s after NewTrainer; make a new trainer", t.autocast, now)
	}
	return nil
}

// unscored reports whether some agent segment has log-probabilities of exactly 0 throughout.
func unscored(trs []agentrl.Trajectory) bool {
	for _, tr := range trs {
		for _, s := range tr.Segments {
			if s.Role != agentrl.RoleAgent {
				continue
			}
			zero := true
			for _, lp := range s.LogProbs {
				zero = zero && lp == 0
			}
			if zero && len(s.IDs) > 0 {
				return true
			}
		}
	}
	return false
}
