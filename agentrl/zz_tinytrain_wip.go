package agentrl

import (
	"encoding/gob"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// TinyEpisode is one episode TinyAgent played in the gym.
type TinyEpisode struct {
	Task    *gym.Task
	Group   int             // episodes with the same Group played the same task in one update
	States  []gym.StructObs // the state each call was sampled in
	Calls   []TinySample
	Rewards []float64 // the gym's reward after each call
	Solved  bool      // the submission passed every hidden test
	Return  float64   // sum of Rewards
	// Advantages[c][j] is the advantage of token j of call c; an advantage function fills it.
	Advantages [][]float64
}

// Tokens counts the call tokens of the episode: its length |o| as a trainer sees it.
func (e *TinyEpisode) Tokens() int {
	n := 0
	for _, c := range e.Calls {
		n += len(c.Tokens)
	}
	return n
}

// TinyRolloutConfig controls TinyRollout.
type TinyRolloutConfig struct {
	Env         gym.Config // the gym's settings for every episode (MaxTurns, Reward, ...)
	Temperature float64
	Unmasked    bool
	Seed        uint64
	// A call the harness cannot parse (possible only when Unmasked) ends the episode with reward
	// Malformed + PrefixCredit × (its leading tokens that the grammar allows): a graded signal,
	// so that a call that is nearly right is worth more than noise.
	Malformed, PrefixCredit float64
}

// TinyRollout plays one episode of agent a on each task, all of them in lockstep: every turn, the calls of all
// episodes still running are sampled as one batch, then the gym steps run in parallel.
func TinyRollout(a *TinyAgent, pool *sandbox.Pool, tasks []*gym.Task, cfg TinyRolloutConfig) ([]*TinyEpisode, error) {
	n := len(tasks)
	eps := make([]*TinyEpisode, n)
	envs := make([]*gym.Env, n)
	state := make([]gym.StructObs, n)
	active := make([]int, 0, n)
	for i, t := range tasks {
		eps[i] = &TinyEpisode{Task: t}
		envs[i] = gym.NewEnv(pool, cfg.Env)
		state[i] = envs[i].Reset(t).Struct
		active = append(active, i)
	}
	for turn := 0; len(active) > 0; turn++ {
		obs := make([]gym.StructObs, len(active))
		for k, i := range active {
			obs[k] = state[i]
		}
		got, err := a.Sample(obs, TinySampleOptions{Temperature: cfg.Temperature, Unmasked: cfg.Unmasked,
			Seed: cfg.Seed*1_000_003 + uint64(turn)})
		if err != nil {
			return nil, err
		}
		steps := make([]gym.Step, len(active))
		errs := make([]error, len(active))
		var wg sync.WaitGroup
		sem := make(chan struct{}, max(pool.Workers(), 1))
		for k, i := range active {
			s := got[k]
			if s.Err != nil { // a malformed call ends the episode: the harness cannot parse it
				steps[k] = gym.Step{Done: true, Reward: cfg.Malformed + cfg.PrefixCredit*float64(ValidPrefix(obs[k], s.Tokens))}
				continue
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				steps[k], errs[k] = envs[i].Step(s.Action)
			}()
		}
		wg.Wait()
		var still []int
		for k, i := range active {
			if errs[k] != nil {
				return nil, errs[k]
			}
			ep, st := eps[i], steps[k]
			ep.States = append(ep.States, obs[k])
			ep.Calls = append(ep.Calls, got[k])
			ep.Rewards = append(ep.Rewards, st.Reward)
			ep.Return += st.Reward
			if st.Outcome != nil && st.Outcome.HiddenAll {
				ep.Solved = true
			}
			if !st.Done {
				state[i] = st.Obs.Struct
				still = append(still, i)
			}
		}
		active = still
	}
	return eps, nil
}

// ValidPrefix counts the leading tokens of a call that TinyAllowed lets through in state obs.
func ValidPrefix(obs gym.StructObs, tokens []int) int {
	for k, t := range tokens {
		if !TinyAllowed(obs, tokens[:k])[t] {
			return k
		}
	}
	return len(tokens)
}

// TinyLossInputs are the graph values a TinyLoss combines. Every [B,A] value has one row per
// call and one column per call token; rows are calls of the update's episodes, in order.
type TinyLossInputs struct {
	LogProbs    *graph.Node // log π_θ of each token, under the weights being trained
	OldLogProbs *graph.Node // log π of each token when it was sampled
	RefLogProbs *graph.Node // log π_ref of each token under the reference policy (zeros if none)
	Entropy     *graph.Node // entropy of the masked policy at each token position
	Advantages  *graph.Node // from the advantage function
	Mask        *graph.Node // 1 for real tokens, 0 for padding
	Episode     *graph.Node // [B,E] one-hot: row b belongs to episode e (all zeros for padding rows)
}

// TinyMetric is a named scalar a loss reports besides its value (clip fraction, approximate KL).
type TinyMetric struct {
	Name  string
	Value *graph.Node
}

// TinyLoss builds a scalar loss from the inputs, and any metrics worth logging.
type TinyLoss func(in TinyLossInputs) (*graph.Node, []TinyMetric)

// TinyAdvantage fills Advantages for every episode of every group.
type TinyAdvantage func(groups [][]*TinyEpisode)

// TinyTrainConfig is a training run of TinyAgent.
type TinyTrainConfig struct {
	Tasks        []*gym.Task // the training tasks
	Env          gym.Config  // gym settings for rollouts
	Groups       int         // tasks per update
	GroupSize    int         // episodes per task
	LR           float64     // Adam's learning rate
	Temperature  float64     // sampling temperature during rollouts (default 1)
	Unmasked     bool        // sample without the grammar mask
	Malformed    float64     // reward of a malformed call (see TinyRolloutConfig)
	PrefixCredit float64     // and its credit per well-formed leading token
	Epochs       int         // gradient steps over each batch of rollouts (default 1)
	DropUniform  bool        // leave out groups whose returns are all equal: they carry no signal
	Advantage    TinyAdvantage
	Loss         TinyLoss
	Reference    *TinyAgent // the reference policy for RefLogProbs (nil: zeros)
	Seed         uint64
}

// TinyStepLog is what one update saw and did.
type TinyStepLog struct {
	Step       int
	Episodes   int
	Solved     float64 // fraction of episodes solved
	Reward     float64 // mean return
	Calls      float64 // mean calls per episode
	Tokens     float64 // mean call tokens per episode
	Tests      float64 // mean test calls per episode
	Malformed  float64 // fraction of calls that were malformed
	Entropy    float64 // mean entropy of the policy over sampled call tokens (first epoch)
	Kept       int     // episodes that entered the loss (after DropUniform)
	Loss       float64 // of the first epoch
	Metrics    map[string]float64
	RolloutSec float64
	TrainSec   float64
}

// TinyTrainer runs updates of a TinyAgent.
type TinyTrainer struct {
	Agent *TinyAgent
	Cfg   TinyTrainConfig
	pool  *sandbox.Pool
	exec  *mlmodel.Exec
	names []string // metric names, in the order exec returns them
	step  int
}

// NewTinyTrainer prepares training; the agent's weights are updated in place by Step.
func NewTinyTrainer(agent *TinyAgent, pool *sandbox.Pool, cfg TinyTrainConfig) (*TinyTrainer, error) {
	if cfg.Groups <= 0 || cfg.GroupSize <= 0 || len(cfg.Tasks) == 0 || cfg.Loss == nil || cfg.Advantage == nil {
		return nil, fmt.Errorf("tinytrain: need Tasks, Groups > 0, GroupSize > 0, a Loss and an Advantage")
	}
	if cfg.Temperature == 0 {
		cfg.Temperature = 1
	}
	if cfg.Epochs <= 0 {
		cfg.Epochs = 1
	}
	backend, err := model.DefaultBackend()
	if err != nil {
		return nil, err
	}
	t := &TinyTrainer{Agent: agent, Cfg: cfg, pool: pool}
	opt := optimizer.Adam().LearningRate(cfg.LR).Done()
	t.exec, err = mlmodel.NewExec(backend, agent.Store, func(scope *mlmodel.Scope, in []*graph.Node) []*graph.Node {
		g := in[0].Graph()
		agent.Store.SetTraining(g, true)
		lp, ent := agent.PolicyGraph(in[0], in[1], in[2], in[3])
		loss, metrics := cfg.Loss(TinyLossInputs{LogProbs: lp, Entropy: ent, OldLogProbs: in[4], RefLogProbs: in[5],
			Advantages: in[6], Mask: in[7], Episode: in[8]})
		opt.UpdateGraph(scope, g, loss)
		out := []*graph.Node{loss, tinyMaskedMean(ent, in[7])}
		t.names = t.names[:0]
		for _, m := range metrics {
			t.names = append(t.names, m.Name)
			out = append(out, m.Value)
		}
		return out
	})
	if err != nil {
		return nil, err
	}
	t.exec.SetMaxCache(16)
	return t, nil
}

// tinyMaskedMean is the mean of x over the entries where mask is 1.
func tinyMaskedMean(x, mask *graph.Node) *graph.Node {
	n := graph.ReduceAllSum(mask)
	return graph.Div(graph.ReduceAllSum(graph.Mul(x, mask)), graph.Max(n, graph.OnesLike(n)))
}

// Steps returns how many updates ran.
func (t *TinyTrainer) Steps() int { return t.step }

// Step runs one update: cfg.Groups tasks drawn for this step, GroupSize episodes each,
// advantages, then Epochs gradient steps over the batch.
func (t *TinyTrainer) Step() (TinyStepLog, error) {
	cfg := t.Cfg
	log := TinyStepLog{Step: t.step, Metrics: map[string]float64{}}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(t.step)))
	var tasks []*gym.Task
	for range cfg.Groups {
		task := cfg.Tasks[rng.IntN(len(cfg.Tasks))]
		for range cfg.GroupSize {
			tasks = append(tasks, task)
		}
	}
	start := time.Now()
	eps, err := TinyRollout(t.Agent, t.pool, tasks, TinyRolloutConfig{Env: cfg.Env, Temperature: cfg.Temperature,
		Unmasked: cfg.Unmasked, Malformed: cfg.Malformed, PrefixCredit: cfg.PrefixCredit, Seed: cfg.Seed<<20 ^ uint64(t.step)})
	if err != nil {
		return log, err
	}
	log.RolloutSec = time.Since(start).Seconds()
	groups := make([][]*TinyEpisode, cfg.Groups)
	calls := 0
	for i, ep := range eps {
		ep.Group = i / cfg.GroupSize
		groups[ep.Group] = append(groups[ep.Group], ep)
		log.Episodes++
		log.Reward += ep.Return
		log.Calls += float64(len(ep.Calls))
		log.Tokens += float64(ep.Tokens())
		if ep.Solved {
			log.Solved++
		}
		for _, c := range ep.Calls {
			calls++
			if c.Err != nil {
				log.Malformed++
			}
			if c.Err == nil && c.Action.Tool == gym.ToolTest {
				log.Tests++
			}
		}
	}
	n := float64(log.Episodes)
	log.Solved, log.Reward, log.Calls, log.Tokens, log.Tests = log.Solved/n, log.Reward/n, log.Calls/n, log.Tokens/n, log.Tests/n
	log.Malformed /= float64(max(calls, 1))
	cfg.Advantage(groups)
	var kept []*TinyEpisode
	for _, g := range groups {
		if cfg.DropUniform && allSameReturn(g) {
			continue
		}
		kept = append(kept, g...)
	}
	log.Kept = len(kept)
	t.step++
	if len(kept) == 0 {
		return log, nil
	}
	start = time.Now()
	fit, err := t.Fit(kept)
	if err != nil {
		return log, fmt.Errorf("tinytrain: update %d: %w", t.step-1, err)
	}
	log.Loss, log.Entropy, log.Metrics = fit.Loss, fit.Entropy, fit.Metrics
	log.TrainSec = time.Since(start).Seconds()
	return log, nil
}

// TinyFit is what the gradient steps on one batch reported.
type TinyFit struct {
	Loss    float64            // of the first epoch
	Entropy float64            // mean policy entropy over the batch's tokens, first epoch
	Metrics map[string]float64 // the loss's metrics: first epoch, and name+"_last" for the last one
}

// Fit runs cfg.Epochs Adam steps of the loss on the calls of eps, whose Advantages must be set.
// It stops at a loss that is NaN or infinite; the weights in memory have then taken that step
// and must not be used.
func (t *TinyTrainer) Fit(eps []*TinyEpisode) (TinyFit, error) {
	fit := TinyFit{Metrics: map[string]float64{}}
	in, err := t.batch(eps)
	if err != nil {
		return fit, err
	}
	epochs := t.Cfg.Epochs
	for epoch := range epochs {
		res, err := t.exec.Call(in...)
		if err != nil {
			return fit, err
		}
		loss := float64(tensors.ToScalar[float32](res[0]))
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return fit, fmt.Errorf("epoch %d: the loss is %v: training stopped (the weights in memory are spoiled; the last checkpoint is not)", epoch, loss)
		}
		if epoch == 0 {
			fit.Loss = loss
			fit.Entropy = float64(tensors.ToScalar[float32](res[1]))
		}
		for k, name := range t.names {
			switch {
			case epoch == 0:
				fit.Metrics[name] = float64(tensors.ToScalar[float32](res[2+k]))
			case epoch == epochs-1:
				fit.Metrics[name+"_last"] = float64(tensors.ToScalar[float32](res[2+k]))
			}
		}
		for _, r := range res {
			r.FinalizeAll()
		}
	}
	return fit, nil
}

// allSameReturn reports whether every episode of a group got the same return: its advantages
// are then all 0 and it teaches nothing.
func allSameReturn(g []*TinyEpisode) bool {
	for _, ep := range g {
		if ep.Return != g[0].Return {
			return false
		}
	}
	return true
}

// batch builds the exec's inputs for the calls of eps.
func (t *TinyTrainer) batch(eps []*TinyEpisode) ([]any, error) {
	var samples []TinySample
	var owner []int
	var advs [][]float64
	for e, ep := range eps {
		if len(ep.Advantages) != len(ep.Calls) {
			return nil, fmt.Errorf("tinytrain: episode %d has %d calls and %d advantage rows", e, len(ep.Calls), len(ep.Advantages))
		}
		for c, s := range ep.Calls {
			samples = append(samples, s)
			owner = append(owner, e)
			advs = append(advs, ep.Advantages[c])
		}
	}
	b, err := t.Agent.Batch(samples)
	if err != nil {
		return nil, err
	}
	rows := b.IDs.Shape().Dimensions[0]
	nEps := 8
	for nEps < len(eps) {
		nEps *= 2
	}
	old, ref, adv, mask := trainMatrix(rows), trainMatrix(rows), trainMatrix(rows), trainMatrix(rows)
	episode := make([][]float32, rows)
	for r := range rows {
		episode[r] = make([]float32, nEps)
		if r >= len(samples) {
			continue
		}
		episode[r][owner[r]] = 1
		s := samples[r]
		for j := range s.Tokens {
			old[r][j], mask[r][j] = float32(s.LogProbs[j]), 1
			if j < len(advs[r]) {
				adv[r][j] = float32(advs[r][j])
			}
		}
	}
	if t.Cfg.Reference != nil {
		lps, err := t.Cfg.Reference.LogProbs(samples)
		if err != nil {
			return nil, err
		}
		for r, lp := range lps {
			for j, x := range lp {
				ref[r][j] = float32(x)
			}
		}
	}
	return []any{b.IDs, b.At, b.Targets, b.Allowed, old, ref, adv, mask, episode}, nil
}

func trainMatrix(rows int) [][]float32 {
	m := make([][]float32, rows)
	for i := range m {
		m[i] = make([]float32, TinyMaxCall)
	}
	return m
}

// WIPGroupAdvantage: (R − mean of group) / (std + eps), same for every token.
func GroupBaseline(scale bool) TinyAdvantage {
	return func(groups [][]*TinyEpisode) {
		for _, g := range groups {
			mean, sq := 0.0, 0.0
			for _, ep := range g {
				mean += ep.Return
			}
			mean /= float64(len(g))
			for _, ep := range g {
				sq += (ep.Return - mean) * (ep.Return - mean)
			}
			std := math.Sqrt(sq / float64(len(g)))
			for _, ep := range g {
				a := ep.Return - mean
				if scale {
					a /= std + 1e-4
				}
				ep.Advantages = make([][]float64, len(ep.Calls))
				for c, s := range ep.Calls {
					ep.Advantages[c] = make([]float64, len(s.Tokens))
					for j := range s.Tokens {
						ep.Advantages[c][j] = a
					}
				}
			}
		}
	}
}

// WIPPGLoss: −Σ A·ratio·mask / Σ mask with ratio = exp(lp − old) (gradient = REINFORCE on-policy),
// minus an entropy bonus.
func PGLoss(entropyCoef float64) TinyLoss {
	return func(in TinyLossInputs) (*graph.Node, []TinyMetric) {
		ratio := graph.Exp(graph.Sub(in.LogProbs, graph.StopGradient(in.OldLogProbs)))
		pg := graph.Neg(tinyMaskedMean(graph.Mul(ratio, graph.StopGradient(in.Advantages)), in.Mask))
		ent := tinyMaskedMean(in.Entropy, in.Mask)
		loss := graph.Sub(pg, graph.MulScalar(ent, entropyCoef))
		return loss, []TinyMetric{{"ratio", tinyMaskedMean(ratio, in.Mask)}}
	}
}

// tinyCheckpoint is the on-disk form of a training run: every variable of the agent's store
// (weights and the optimizer's moments and step count) and the number of updates done.
type tinyCheckpoint struct {
	Config    TinyAgentConfig
	Vocab     []string
	Step      int
	Paths     []string
	Trainable []bool
	Dims      [][]int
	Values    [][]float32
	Int64s    [][]int64 // for integer variables (the optimizer's step counter)
}

// Save writes a checkpoint: the agent and the optimizer state, so Load continues the run exactly
// where it stopped (every update draws its tasks and samples from the seed and its own number).
func (t *TinyTrainer) Save(path string) error {
	ck := tinyCheckpoint{Config: t.Agent.Config, Vocab: TinyVocab, Step: t.step}
	for v := range t.Agent.Store.IterVariables() {
		val, err := v.Value()
		if err != nil {
			return fmt.Errorf("tinytrain: checkpoint %s: %w", v.Path(), err)
		}
		ck.Paths = append(ck.Paths, v.Path())
		ck.Trainable = append(ck.Trainable, v.Trainable)
		ck.Dims = append(ck.Dims, val.Shape().Dimensions)
		switch val.DType() {
		case dtypes.Float32:
			ck.Values = append(ck.Values, tensors.MustCopyFlatData[float32](val))
			ck.Int64s = append(ck.Int64s, nil)
		case dtypes.Int64:
			ck.Values = append(ck.Values, nil)
			ck.Int64s = append(ck.Int64s, tensors.MustCopyFlatData[int64](val))
		default:
			return fmt.Errorf("tinytrain: checkpoint %s: unsupported dtype %s", v.Path(), val.DType())
		}
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("tinytrain: checkpoint: %w", err)
	}
	if err := gob.NewEncoder(f).Encode(ck); err != nil {
		f.Close()
		return fmt.Errorf("tinytrain: checkpoint %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("tinytrain: checkpoint %s: %w", path, err)
	}
	return os.Rename(tmp, path) // a crash mid-write never leaves a half checkpoint behind
}

// Load restores a checkpoint written by Save into a trainer made with the same configuration.
func (t *TinyTrainer) Load(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("tinytrain: load checkpoint: %w", err)
	}
	defer f.Close()
	var ck tinyCheckpoint
	if err := gob.NewDecoder(f).Decode(&ck); err != nil {
		return fmt.Errorf("tinytrain: load checkpoint %s: %w", path, err)
	}
	if !slices.Equal(ck.Vocab, TinyVocab) || ck.Config != t.Agent.Config {
		return fmt.Errorf("tinytrain: checkpoint %s was written for another agent configuration or vocabulary", path)
	}
	for i, p := range ck.Paths {
		var val *tensors.Tensor
		if ck.Values[i] != nil {
			val = tensors.FromFlatDataAndDimensions(ck.Values[i], ck.Dims[i]...)
		} else {
			val = tensors.FromFlatDataAndDimensions(ck.Int64s[i], ck.Dims[i]...)
		}
		if v := t.Agent.Store.GetVariable(p); v != nil {
			if err := v.SetValue(val); err != nil {
				return fmt.Errorf("tinytrain: load checkpoint %s: %s: %w", path, p, err)
			}
			continue
		}
		v, err := t.Agent.Store.CreateVariable(p, val)
		if err != nil {
			return fmt.Errorf("tinytrain: load checkpoint %s: %s: %w", path, p, err)
		}
		v.Trainable = ck.Trainable[i]
	}
	t.step = ck.Step
	return nil
}

// TinyEval summarizes TinyAgent's episodes on a set of tasks.
type TinyEval struct {
	Episodes  int
	Solved    float64 // fraction of episodes solved
	Malformed float64 // fraction of calls that were malformed
	Calls     float64 // mean calls per episode
	Tests     float64 // mean test calls per episode
	FirstCall map[string]int
}

// EvalTinyAgent plays reps episodes of the agent on every task, sampling at temperature 1 with
// a fixed seed (the same agent always gets the same result) and with the grammar mask unless
// unmasked.
func EvalTinyAgent(a *TinyAgent, pool *sandbox.Pool, tasks []*gym.Task, reps int, env gym.Config, unmasked bool, seed uint64) (TinyEval, error) {
	var ts []*gym.Task
	for _, t := range tasks {
		for range reps {
			ts = append(ts, t)
		}
	}
	eps, err := TinyRollout(a, pool, ts, TinyRolloutConfig{Env: env, Temperature: 1, Unmasked: unmasked, Seed: seed})
	if err != nil {
		return TinyEval{}, err
	}
	ev := TinyEval{Episodes: len(eps), FirstCall: map[string]int{}}
	calls := 0
	for _, ep := range eps {
		if ep.Solved {
			ev.Solved++
		}
		for c, s := range ep.Calls {
			calls++
			name := "malformed"
			if s.Err == nil {
				name = s.Action.Tool
			} else {
				ev.Malformed++
			}
			if c == 0 {
				ev.FirstCall[name]++
			}
			if name == gym.ToolTest {
				ev.Tests++
			}
		}
	}
	n := float64(max(len(eps), 1))
	ev.Malformed /= float64(max(calls, 1))
	ev.Solved, ev.Calls, ev.Tests = ev.Solved/n, float64(calls)/n, ev.Tests/n
	return ev, nil
}
