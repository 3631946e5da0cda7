package agentrl

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"
)

func TestDefaultCapstoneConfig(t *testing.T) {
	c := DefaultCapstoneConfig()
	// Section 15.5's pipeline: 3 SFT passes, pairs from 16 tasks × 6 episodes, 5 DPO steps at
	// β 0.1 and learning rate 1e-3; the short recipe's 4 calls; fresh seeds 3, 4, 5.
	if c.Seeds != 3 || c.FirstSeed != 3 || c.SFTEpochs != 3 || c.PairTasks != 16 || c.PairSize != 6 ||
		c.PrefSteps != 5 || c.PrefLR != 1e-3 || c.Preference != (PreferenceConfig{Beta: 0.1}) || c.EvalReps != 1 {
		t.Errorf("DefaultCapstoneConfig = %+v", c)
	}
	if r := c.Recipe; r.Groups != 4 || r.Size != 6 || r.Turns != 4 || r.Refill != 0 || !r.Patches {
		t.Errorf("recipe %+v, want the short recipe (4 × 6, 4 calls, patches, no refill)", r)
	}
}

func TestBatchLog(t *testing.T) {
	// Two episodes: a solved one of 2 calls (an edit of 3 tokens, a submit of 1) with return 1,
	// and a failed one of 3 calls (a test, a malformed call, a submit) with return -0.5.
	eps := []*TinyEpisode{
		{Solved: true, Return: 1, Calls: []TinySample{
			{Action: gym.Action{Tool: gym.ToolEdit}, Tokens: []int{1, 2, 3}}, {Action: gym.Action{Tool: gym.ToolSubmit}, Tokens: []int{4}}}},
		{Return: -0.5, Calls: []TinySample{
			{Action: gym.Action{Tool: gym.ToolTest}, Tokens: []int{5}}, {Err: errors.New("bad"), Tokens: []int{6, 7}},
			{Action: gym.Action{Tool: gym.ToolSubmit}, Tokens: []int{4}}}},
	}
	fit := TinyFit{Loss: 0.7, Entropy: 0.3, Passes: 1, Metrics: map[string]float64{"accuracy": 0.5}}
	l := BatchLog(4, eps, 2, fit)
	want := TinyStepLog{Step: 4, Episodes: 2, Kept: 2, Passes: 1, Rounds: 1, Loss: 0.7, Entropy: 0.3,
		Solved: 0.5, Reward: 0.25, Calls: 2.5, Tokens: 4, Tests: 0.5, Malformed: 0.2, Metrics: map[string]float64{"accuracy": 0.5}}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("BatchLog =\n %+v, want\n %+v", l, want)
	}
	l.Metrics["zero_var"] = 1 // the log's metrics are a copy: the fit's stay as they were
	if len(fit.Metrics) != 1 {
		t.Errorf("BatchLog shares the fit's metrics map")
	}
}

func TestSolveRate(t *testing.T) {
	if got := SolveRate([]float64{1, 0, 0, 1, 1}); got != 0.6 {
		t.Errorf("SolveRate = %g, want 0.6", got)
	}
	if got := SolveRate(nil); got != 0 {
		t.Errorf("SolveRate(nil) = %g, want 0", got)
	}
}

func TestHeldOutOutcomes(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	held := gym.Filter(tasks, gym.Test, "")[:6]
	a, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	env := DefaultCapstoneConfig().Recipe.Env()
	out, err := HeldOutOutcomes(a, pool, held, 2, env, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 12 {
		t.Fatalf("%d outcomes, want 6 tasks × 2", len(out))
	}
	for _, x := range out {
		if x != 0 && x != 1 {
			t.Fatalf("outcome %g, want 0 or 1", x)
		}
	}
	// The same episodes as EvalTinyAgent with the same arguments.
	ev, err := EvalTinyAgent(a, pool, held, 2, env, false, 7)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(SolveRate(out)-ev.Solved) > 1e-12 {
		t.Errorf("solve rate %g, EvalTinyAgent's %g", SolveRate(out), ev.Solved)
	}
}

// TestRunCapstone runs a small pipeline end to end twice and checks what it must hold: one log
// per SFT pass and per preference step, outcomes per seed of the right length, SFT that lifts
// the rate on the oracle's own tasks above the untrained agent's, pairs counted from the logs,
// and a run that depends on its seed alone: seed 1 run by itself is seed 1 of the two.
func TestRunCapstone(t *testing.T) {
	if testing.Short() {
		t.Skip("trains TinyAgent")
	}
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")
	held := train[:12] // tasks the oracle demonstrates: SFT must raise their rate
	cfg := DefaultCapstoneConfig()
	cfg.Seeds, cfg.FirstSeed, cfg.SFTEpochs, cfg.PairTasks, cfg.PrefSteps, cfg.EvalReps = 2, 0, 2, 8, 2, 2
	var progress bytes.Buffer
	res, err := RunCapstone(cfg, pool, train, held, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || res.Runs[0].Seed != 0 || res.Runs[1].Seed != 1 {
		t.Fatalf("runs %d, want seeds 0 and 1", len(res.Runs))
	}
	if n := strings.Count(progress.String(), "\n"); n != 6 {
		t.Errorf("%d progress lines, want 3 stages × 2 seeds:\n%s", n, progress.String())
	}
	var before, after float64
	for _, r := range res.Runs {
		if r.Demos != len(train) {
			t.Errorf("seed %d: %d demonstrations, want one per train task (%d)", r.Seed, r.Demos, len(train))
		}
		for _, o := range [][]float64{r.Untrained, r.SFT, r.Final} {
			if len(o) != 24 {
				t.Errorf("seed %d: %d outcomes, want 12 tasks × 2", r.Seed, len(o))
			}
		}
		if len(r.SFTLogs) != 2 || r.SFTLogs[1].Loss >= r.SFTLogs[0].Loss || r.SFTLogs[0].Metrics["grad_norm"] <= 0 {
			t.Errorf("seed %d: SFT logs %+v, want 2 passes, the loss falling, a gradient norm", r.Seed, r.SFTLogs)
		}
		if r.Pairs == 0 || len(r.PrefLogs) != 2 || r.PrefLogs[0].Kept != 2*r.Pairs || r.PrefLogs[0].Episodes != 48 {
			t.Errorf("seed %d: %d pairs, preference logs %+v", r.Seed, r.Pairs, r.PrefLogs)
		}
		for _, l := range r.PrefLogs {
			if z := l.Metrics["zero_var"]; z < 0 || z > 1 || l.Metrics["accuracy"] < 0 || l.Metrics["accuracy"] > 1 {
				t.Errorf("seed %d: zero_var %g, accuracy %g", r.Seed, z, l.Metrics["accuracy"])
			}
		}
		before, after = before+SolveRate(r.Untrained), after+SolveRate(r.SFT)
	}
	if after <= before {
		t.Errorf("SFT on the oracle's demonstrations of these tasks: solve rate %g, untrained %g", after/2, before/2)
	}
	cfg.Seeds, cfg.FirstSeed = 1, 1
	again, err := RunCapstone(cfg, pool, train, held, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Runs[0], res.Runs[1]) {
		t.Errorf("seed 1 alone: %+v\nseed 1 of two: %+v", again.Runs[0], res.Runs[1])
	}
}
