package agentrl

import (
	"errors"
	"math"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// tinyWeights copies every weight of the agent, in a fixed order.
func tinyWeights(t *testing.T, a *TinyAgent) [][]float32 {
	t.Helper()
	names, _ := a.Config.tinyShapes()
	var out [][]float32
	for _, n := range names {
		v, err := a.Store.GetVariable("/tiny/" + n).Value()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tensors.MustCopyFlatData[float32](v))
	}
	return out
}

func TestTinyTrainerResumesExactly(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	cfg := TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:6], Env: gym.Config{MaxTurns: 3},
		Groups: 2, GroupSize: 4, LR: 1e-2, Advantage: GroupBaseline(true), Loss: PGLoss(0.01), Seed: 3}
	newTrainer := func() *TinyTrainer {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	run := func(tr *TinyTrainer, n int) {
		for range n {
			if _, err := tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	straight := newTrainer()
	run(straight, 3)

	first := newTrainer()
	run(first, 1)
	path := filepath.Join(t.TempDir(), "ck")
	if err := first.Save(path); err != nil {
		t.Fatal(err)
	}
	resumed := newTrainer()
	if err := resumed.Load(path); err != nil {
		t.Fatal(err)
	}
	if resumed.Steps() != 1 {
		t.Fatalf("resumed at step %d, want 1", resumed.Steps())
	}
	run(resumed, 2)
	a, b := tinyWeights(t, straight.Agent), tinyWeights(t, resumed.Agent)
	changed := false
	init := tinyWeights(t, newTrainer().Agent)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("weight %d differs after resuming", i)
		}
		changed = changed || !slices.Equal(a[i], init[i])
	}
	if !changed {
		t.Fatal("three updates left every weight as it was: the test would pass without training")
	}
}

func TestTinyTrainerStopsAtNaN(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	nan := func(in LossInputs) (*graph.Node, []Metric) {
		loss, _ := PGLoss(0)(in)
		return graph.Add(loss, graph.Log(graph.Neg(graph.OnesLike(loss)))), nil // log(−1)
	}
	tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:2],
		Env: gym.Config{MaxTurns: 2}, Groups: 1, GroupSize: 2, LR: 1e-3,
		Advantage: GroupBaseline(false), Loss: nan, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Step()
	var bad NonFiniteLoss
	if !errors.Is(err, ErrNonFiniteLoss) || !errors.As(err, &bad) || !math.IsNaN(bad.Loss) || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("got %v, want an error that is ErrNonFiniteLoss and names the NaN loss", err)
	}
}

// cycleAdvantages gives every token of episode i the advantage (i mod 3) − 1: −1, 0 and 1 in turn.
func cycleAdvantages(eps []*TinyEpisode) {
	for i, ep := range eps {
		ep.Advantages = make([][]float64, len(ep.Calls))
		for c, s := range ep.Calls {
			ep.Advantages[c] = make([]float64, len(s.Tokens))
			for j := range s.Tokens {
				ep.Advantages[c][j] = float64(i%3) - 1
			}
		}
	}
}

// TestFixedShapeIsInert checks that padding a batch to the fixed shape changes neither the loss
// nor the step: agents with the same weights take one Fit on the same 12 episodes, unpadded,
// padded, and padded by a trainer whose updates hold only 2 episodes (Fit takes more than an
// update samples, as Chapter 15's SFT does), and end with the same weights.
func TestFixedShapeIsInert(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")[:4]
	env := gym.Config{MaxTurns: 3}
	var trainers []*TinyTrainer
	for _, c := range []struct {
		fixed        bool
		groups, size int
	}{{false, 4, 4}, {true, 4, 4}, {true, 1, 2}} {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: train, Env: env, Groups: c.groups, GroupSize: c.size, LR: 1e-2,
			Advantage: GroupBaseline(false), Loss: PGLoss(0.01), Seed: 1, FixedShape: c.fixed})
		if err != nil {
			t.Fatal(err)
		}
		trainers = append(trainers, tr)
	}
	var batch []*gym.Task
	for _, task := range train {
		batch = append(batch, task, task, task)
	}
	eps, err := TinyRollout(trainers[0].Agent, pool, batch, TinyRolloutConfig{Env: env, Temperature: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	cycleAdvantages(eps)
	in, err := trainers[1].Batch(eps, 64)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, ep := range eps {
		calls += len(ep.Calls)
	}
	// Rows round up to a multiple of 64; the width is the one fixed for the tasks, which holds
	// every prompt with a call.
	want := (calls + 63) / 64 * 64
	if rows, width := in[feedIDs].(*tensors.Tensor).Shape().Dimensions[0], in[feedIDs].(*tensors.Tensor).Shape().Dimensions[1]; rows != want || width != trainers[1].width || width%32 != 0 {
		t.Fatalf("fixed batch is %d×%d, want %d rows and the fixed width %d", rows, width, want, trainers[1].width)
	}
	// A fitter may ask for a smaller unit (minibatches are small): rows round up to a multiple of 8.
	if in, err = trainers[1].Batch(eps, 8); err != nil {
		t.Fatal(err)
	}
	if rows := in[feedIDs].(*tensors.Tensor).Shape().Dimensions[0]; rows != (calls+7)/8*8 {
		t.Fatalf("fixed batch for minibatches has %d rows for %d calls, want %d", rows, calls, (calls+7)/8*8)
	}
	var fits []TinyFit
	for _, tr := range trainers {
		fit, err := tr.Fit(eps)
		if err != nil {
			t.Fatal(err)
		}
		fits = append(fits, fit)
	}
	for k := 1; k < len(fits); k++ {
		if d := fits[0].Loss - fits[k].Loss; d > 1e-6 || d < -1e-6 || fits[0].Loss == 0 {
			t.Fatalf("loss %v bucketed vs %v padded (trainer %d)", fits[0].Loss, fits[k].Loss, k)
		}
		// Adam's first step is lr·g/(|g|+ε): where a gradient is near zero, summing the same terms
		// in another order moves the step by a visible fraction of lr (1e-5 has been seen).
		// Padding that leaked into the gradient would move such weights by up to lr = 1e-2.
		a, b := tinyWeights(t, trainers[0].Agent), tinyWeights(t, trainers[k].Agent)
		for i := range a {
			for j := range a[i] {
				if d := a[i][j] - b[i][j]; d > 1e-4 || d < -1e-4 {
					t.Fatalf("weight %d[%d]: %v bucketed vs %v padded (trainer %d)", i, j, a[i][j], b[i][j], k)
				}
			}
		}
	}
}

// withMetrics returns out followed by the metrics' values, and records their names in order:
// the outputs of a test graph that evaluates a LossFn.
func withMetrics(names *[]string, metrics []Metric, out ...*graph.Node) []*graph.Node {
	*names = (*names)[:0]
	for _, m := range metrics {
		*names = append(*names, m.Name)
		out = append(out, m.Value)
	}
	return out
}

// TestEvalCountsPatchUse checks EvalTinyAgent's test-use counts with an untrained agent. Under the
// patch interface with two calls, every episode that opened with a patch makes exactly one more
// call, after a patch that passed or failed; without the interface nothing is counted.
func TestEvalCountsPatchUse(t *testing.T) {
	tasks, pool := gymFixture(t, 250*time.Millisecond)
	dev := gym.Filter(tasks, gym.Dev, "")[:8]
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	ev, err := EvalTinyAgent(agent, pool, dev, 4, gym.Config{MaxTurns: 2, SubmitAtLimit: true, TryPatches: true}, false, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ev.FirstCall[gym.ToolEdit] == 0 || ev.AfterPass+ev.AfterFail != ev.FirstCall[gym.ToolEdit] ||
		ev.EditsAfterPass > ev.AfterPass || ev.EditsAfterFail > ev.AfterFail || ev.EditsAfterFail == 0 {
		t.Errorf("patch interface: first calls %v, after a pass %d (%d edits), after a failure %d (%d edits)",
			ev.FirstCall, ev.AfterPass, ev.EditsAfterPass, ev.AfterFail, ev.EditsAfterFail)
	}
	ev, err = EvalTinyAgent(agent, pool, dev, 4, gym.Config{MaxTurns: 2, SubmitAtLimit: true}, false, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ev.AfterPass+ev.AfterFail+ev.EditsAfterPass+ev.EditsAfterFail != 0 {
		t.Errorf("plain interface: counted %+v", ev)
	}
}

// TestNamedInputs: an input a later chapter adds by name reaches the loss with the values its
// Build returned, row by row; a loss that reads an input nobody provides, and an input of the
// wrong shape, fail with errors that name them.
func TestNamedInputs(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	train := gym.Filter(tasks, gym.Train, "")[:2]
	eps, err := TinyRollout(agent, pool, []*gym.Task{train[0], train[0], train[1], train[1]}, TinyRolloutConfig{Env: gym.Config{MaxTurns: 3}, Temperature: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	GroupBaseline(false)([][]*TinyEpisode{eps[:2], eps[2:]})
	// "owner" holds 1 + the index of each row's episode on every token of its call: the
	// mean over real tokens is then known in advance.
	episodeInput := TinyInput{Name: "owner", Build: func(b TinyInputBatch) ([][]float32, error) {
		m := make([][]float32, b.Rows)
		for r := range m {
			m[r] = make([]float32, TinyMaxCall)
			if r < len(b.Samples) {
				for j := range b.Samples[r].Tokens {
					m[r][j] = float32(1 + b.Owner[r])
				}
			}
		}
		return m, nil
	}}
	want, tokens := 0.0, 0
	for e, ep := range eps {
		for _, c := range ep.Calls {
			want += float64(len(c.Tokens) * (1 + e))
			tokens += len(c.Tokens)
		}
	}
	want /= float64(tokens)
	reads := func(name string) LossFn {
		return func(in LossInputs) (*graph.Node, []Metric) {
			return MaskedMean(in.Input(name), in.Mask), nil
		}
	}
	fit := func(inputs []TinyInput, loss LossFn) (TinyFit, error) {
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: train, Env: gym.Config{MaxTurns: 3}, Groups: 2, GroupSize: 2,
			LR: 1e-3, Advantage: GroupBaseline(false), Loss: loss, Inputs: inputs})
		if err != nil {
			return TinyFit{}, err
		}
		return tr.Fit(eps)
	}
	got, err := fit([]TinyInput{episodeInput}, reads("owner"))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Loss-want) > 1e-5 {
		t.Errorf("loss reading the named input: %g, want %g", got.Loss, want)
	}
	if _, err := fit([]TinyInput{episodeInput}, reads("teacher")); err == nil || !strings.Contains(err.Error(), `"teacher"`) {
		t.Errorf("a loss reading a missing input: %v", err)
	}
	short := TinyInput{Name: "short", Build: func(b TinyInputBatch) ([][]float32, error) { return make([][]float32, 1), nil }}
	if _, err := fit([]TinyInput{short}, reads("short")); err == nil || !strings.Contains(err.Error(), `"short"`) {
		t.Errorf("an input of the wrong shape: %v", err)
	}
	if _, err := fit([]TinyInput{episodeInput, episodeInput}, reads("owner")); err == nil {
		t.Error("two inputs of the same name: no error")
	}
	taken := TinyInput{Name: "mask", Build: episodeInput.Build}
	if _, err := fit([]TinyInput{taken}, reads("mask")); err == nil || !strings.Contains(err.Error(), `"mask"`) {
		t.Errorf("an input named as a value of every batch: %v", err)
	}
}

// twoEach rolls agent out twice on each task (sampling seed 9) and gives the episodes
// cycleAdvantages.
func twoEach(t *testing.T, agent *TinyAgent, pool *sandbox.Pool, tasks []*gym.Task, env gym.Config) []*TinyEpisode {
	t.Helper()
	var batch []*gym.Task
	for _, task := range tasks {
		batch = append(batch, task, task)
	}
	rollout, err := TinyRollout(agent, pool, batch, TinyRolloutConfig{Env: env, Temperature: 1, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	cycleAdvantages(rollout)
	return rollout
}

// TestTrainerStepsAtItsOwnLearningRate checks that a trainer steps at its configured rate when
// the agent's store already holds another one: GoMLX's optimizer reuses the learning-rate
// variable an earlier trainer created, and Load restores it from the checkpoint. The reference
// deletes that variable before the second trainer's first step, so the optimizer creates it
// afresh with the second trainer's rate; the two other ways to get there (a second trainer on the
// same agent, a trainer that loads the first one's checkpoint) must match it weight for weight.
func TestTrainerStepsAtItsOwnLearningRate(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	tasks = gym.Filter(tasks, gym.Train, "")[:3]
	env := gym.Config{MaxTurns: 2}
	cfg := func(lr float64) TinyTrainConfig {
		return TinyTrainConfig{Tasks: tasks, Env: env, Groups: 1, GroupSize: 2, LR: lr,
			Advantage: GroupBaseline(false), Loss: PGLoss(0), Seed: 1}
	}
	trainer := func(agent *TinyAgent, lr float64) *TinyTrainer {
		if agent == nil {
			var err error
			if agent, err = NewTinyAgent(DefaultTinyAgentConfig()); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := NewTinyTrainer(agent, pool, cfg(lr))
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	fit := func(tr *TinyTrainer, eps []*TinyEpisode) {
		if _, err := tr.Fit(eps); err != nil {
			t.Fatal(err)
		}
	}
	first := trainer(nil, 1e-2)
	x := twoEach(t, first.Agent, pool, tasks, env)
	y := twoEach(t, first.Agent, pool, tasks[1:], env)
	fit(first, x)
	path := filepath.Join(t.TempDir(), "first")
	if err := first.Save(path); err != nil {
		t.Fatal(err)
	}

	ref := trainer(nil, 1e-2)
	fit(ref, x)
	if err := ref.Agent.Store.DeleteVariable(tinyLRPath); err != nil {
		t.Fatal(err)
	}
	fit(trainer(ref.Agent, 1e-3), y)
	want := tinyWeights(t, ref.Agent)

	second := trainer(first.Agent, 1e-3)
	fit(second, y)
	loaded := trainer(nil, 1e-3)
	if err := loaded.Load(path); err != nil {
		t.Fatal(err)
	}
	fit(loaded, y)
	fast := trainer(nil, 1e-2)
	if err := fast.Load(path); err != nil {
		t.Fatal(err)
	}
	fit(fast, y)
	for i, w := range want {
		if !slices.Equal(tinyWeights(t, second.Agent)[i], w) {
			t.Fatalf("weight %d: a second trainer on the same agent did not step at its own rate", i)
		}
		if !slices.Equal(tinyWeights(t, loaded.Agent)[i], w) {
			t.Fatalf("weight %d: a trainer that loaded a checkpoint did not step at its own rate", i)
		}
	}
	if slices.EqualFunc(tinyWeights(t, fast.Agent), want, slices.Equal) {
		t.Fatal("a step at 1e-2 left the weights where one at 1e-3 does: the test cannot tell the rates apart")
	}
}

// TestEvalIndependentOfLoad: one checkpoint, evaluated on an idle machine and again with every
// core kept busy by other processes, gets the same evaluation in every count. The sandbox grades
// a test run on the CPU time it used, not the wall-clock time the machine let it have; each
// evaluation has a fresh pool with no memo, so every verdict is computed both times. This is the
// whole path, model and gym included; the untrained agent's test runs take a few milliseconds,
// far from the limit, so it is gym/sandbox's TestVerdictsIndependentOfLoad, with a run near the
// limit, that fails under a wall-clock rule.
func TestEvalIndependentOfLoad(t *testing.T) {
	tasks, _ := gymFixture(t, 200*time.Millisecond)
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "agent")
	if err := agent.Save(path); err != nil {
		t.Fatal(err)
	}
	ckpt, err := LoadTinyAgent(path)
	if err != nil {
		t.Fatal(err)
	}
	dev := gym.Filter(tasks, gym.Dev, "")[:12]
	env := gym.Config{MaxTurns: 4, SubmitAtLimit: true, TryPatches: true}
	eval := func() TinyEval {
		pool, err := sandbox.New(sandbox.Options{Workers: 2, Timeout: 200 * time.Millisecond, CacheEntries: -1, MemoDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		ev, err := EvalTinyAgent(ckpt, pool, dev, 2, env, false, 5)
		if err != nil {
			t.Fatal(err)
		}
		if st := pool.Stats(); st.Runs == 0 || st.Cached != 0 {
			t.Fatalf("the evaluation ran %d test runs and took %d from a memo", st.Runs, st.Cached)
		}
		return ev
	}
	idle := eval()
	var busy []*exec.Cmd // two per core, for the few seconds the second evaluation takes
	for range 2 * runtime.NumCPU() {
		c := exec.Command("/usr/bin/python3", "-c", "while True: pass")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		busy = append(busy, c)
	}
	loaded := eval()
	for _, c := range busy {
		c.Process.Kill()
		c.Wait()
	}
	if idle.Episodes != 24 || idle.AfterPass+idle.AfterFail == 0 {
		t.Fatalf("the evaluation played %d episodes and tested %d patches", idle.Episodes, idle.AfterPass+idle.AfterFail)
	}
	if !reflect.DeepEqual(idle, loaded) {
		t.Errorf("one checkpoint, idle: %+v\nunder load: %+v", idle, loaded)
	}
}

// TestTrainerCheckpointIsAnAgent: a trainer's checkpoint records the agent as TinyAgent.Save
// does, its own vocabulary included (EXPLOIT here), so LoadTinyAgent reads the trained agent
// from it, weight for weight, and the trainer still resumes from it.
func TestTrainerCheckpointIsAnAgent(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	acfg := DefaultTinyAgentConfig()
	acfg.Exploit = true
	agent, err := NewTinyAgent(acfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:4],
		Env: gym.Config{MaxTurns: 2, AllowExploit: true}, Groups: 2, GroupSize: 2, LR: 1e-2,
		Advantage: GroupBaseline(false), Loss: PGLoss(0), Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "checkpoint")
	if err := tr.Save(dir); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadTinyAgent(dir)
	if err != nil {
		t.Fatalf("LoadTinyAgent of a trainer's checkpoint: %v", err)
	}
	if loaded.Config != acfg || !reflect.DeepEqual(tinyWeights(t, loaded), tinyWeights(t, agent)) {
		t.Errorf("LoadTinyAgent: config %+v, or weights differ from the trained agent's", loaded.Config)
	}
	if err := tr.Load(dir); err != nil || tr.Steps() != 1 {
		t.Errorf("trainer Load: %v, at update %d; want 1", err, tr.Steps())
	}
}
