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
	// β 0.1 and learning rate 1e-3; the short recipe's 4 calls; fresh seeds 3, 4, 5; 4 evaluation
	// episodes per held-out task.
	if c.Seeds != 3 || c.FirstSeed != 3 || c.SFTEpochs != 3 || c.PairTasks != 16 || c.PairSize != 6 ||
		c.PrefSteps != 5 || c.PrefLR != 1e-3 || c.Preference != (PreferenceConfig{Beta: 0.1}) || c.EvalReps != 4 {
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
	if math.Abs(Mean(out)-ev.Solved) > 1e-12 {
		t.Errorf("solve rate %g, EvalTinyAgent's %g", Mean(out), ev.Solved)
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
	// 24 train tasks keep the test short: SFT passes over one demonstration per task.
	train := gym.Filter(tasks, gym.Train, "")[:24]
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
		before, after = before+Mean(r.Untrained), after+Mean(r.SFT)
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

func TestTaskScores(t *testing.T) {
	// Two seeds, three tasks, two episodes per task: task 0 solved 1+2 of 4, task 1 0 of 4,
	// task 2 4 of 4.
	got := TaskScores([][]float64{{1, 0, 0, 0, 1, 1}, {1, 1, 0, 0, 1, 1}}, 2)
	if want := []float64{0.75, 0, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("TaskScores = %v, want %v", got, want)
	}
}

func TestCapstoneTable(t *testing.T) {
	// Two seeds on four tasks, one episode each. Untrained: 1 of 8 solved; SFT: 4 of 8; final: 7.
	res := CapstoneResult{Config: CapstoneConfig{EvalReps: 1}, Runs: []CapstoneRun{
		{Untrained: []float64{1, 0, 0, 0}, SFT: []float64{1, 1, 0, 0}, Final: []float64{1, 1, 1, 0}},
		{Untrained: []float64{0, 0, 0, 0}, SFT: []float64{1, 0, 1, 0}, Final: []float64{1, 1, 1, 1}},
	}}
	rows := CapstoneTable(res, 1000, 1)
	if len(rows) != 3 || rows[0].Agent != "untrained" || rows[2].Agent != "SFT, then DPO" {
		t.Fatalf("rows %+v", rows)
	}
	for i, want := range [][3]float64{{0.25, 0, 1}, {0.5, 0.5, 4}, {0.75, 1, 7}} {
		r := rows[i]
		if r.Rates[0] != want[0] || r.Rates[1] != want[1] || r.Solved != int(want[2]) || r.Episodes != 8 {
			t.Errorf("%s: rates %v, solved %d of %d; want %v", r.Agent, r.Rates, r.Solved, r.Episodes, want)
		}
		lo, hi := Wilson(r.Solved, 8, 1.96)
		if r.WilsonLo != lo || r.WilsonHi != hi || r.TaskLo > r.TaskHi {
			t.Errorf("%s: intervals [%g, %g] and [%g, %g]", r.Agent, r.WilsonLo, r.WilsonHi, r.TaskLo, r.TaskHi)
		}
	}
	// Per-task scores: untrained (0.5, 0, 0, 0), SFT (1, 0.5, 0.5, 0), final (1, 1, 1, 0.5).
	// Final against untrained: differences 0.5, 1, 1, 0.5, mean 0.75, all four of one sign: of
	// the 16 sign patterns, only these and their mirror image are as extreme, p = 2/16.
	if p := rows[2].VsUntrained; p.N != 4 || math.Abs(p.Diff-0.75) > 1e-12 || p.Lo < 0.5 || p.Hi > 1 || math.Abs(p.P-0.125) > 1e-12 {
		t.Errorf("final vs untrained %+v, want N 4, diff 0.75 inside [0.5, 1], p 0.125", p)
	}
	// Final against SFT: 0, 0.5, 0.5, 0.5, mean 0.375; SFT against untrained: 0.5, 0.5, 0.5, 0, mean 0.375.
	if d := rows[2].VsBefore.Diff; math.Abs(d-0.375) > 1e-12 {
		t.Errorf("final vs SFT: %g, want 0.375", d)
	}
	if d := rows[1].VsUntrained.Diff; math.Abs(d-0.375) > 1e-12 || rows[1].VsBefore != rows[1].VsUntrained {
		t.Errorf("SFT vs untrained: %+v and %+v, want 0.375 both", rows[1].VsUntrained, rows[1].VsBefore)
	}
	if rows[0].VsUntrained.N != 0 {
		t.Errorf("the untrained row compares with itself: %+v", rows[0].VsUntrained)
	}
	rows[1].VsUntrained.P = 0.0004 // printed as a bound, not as 0.000
	var b bytes.Buffer
	WriteCapstoneTable(&b, rows)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || strings.HasSuffix(lines[2], " ") || !strings.Contains(lines[4], "SFT, then DPO    0.875 ± 0.177      7/8") || !strings.Contains(lines[4], "+0.750 [") ||
		!strings.Contains(lines[3], "+0.375 [+0.125, +0.500] p < 0.001") {
		t.Errorf("WriteCapstoneTable:\n%s", b.String())
	}
}

func TestCapstoneStage(t *testing.T) {
	if testing.Short() {
		t.Skip("trains TinyAgent")
	}
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")[:24]
	held := train[:8]
	if _, _, err := CapstoneStage("ppo", 3, pool, train); err == nil || !strings.Contains(err.Error(), `no stage "ppo"`) {
		t.Errorf("stage ppo: err %v, want no such stage", err)
	}
	// The study's arms are the command's agents: RunCapstone at seed offset 3 evaluates the
	// same untrained, SFT and DPO agents that CapstoneStage returns for seed 3.
	cfg := DefaultCapstoneConfig()
	cfg.Seeds, cfg.EvalReps = 1, 2
	res, err := RunCapstone(cfg, pool, train, held, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	if run.Pairs == 0 {
		t.Fatal("seed 3 sampled no preference pair on these tasks: DPO is not tested")
	}
	curves := map[string]map[string][]float64{}
	for stage, want := range map[string][]float64{"untrained": run.Untrained, "sft": run.SFT, "dpo": run.Final, "rl": nil} {
		a, c, err := CapstoneStage(stage, 3, pool, train)
		if err != nil {
			t.Fatalf("stage %s: %v", stage, err)
		}
		curves[stage] = c
		got, err := HeldOutOutcomes(a, pool, held, cfg.EvalReps, cfg.Recipe.Env(), cfg.EvalSeed)
		if err != nil {
			t.Fatal(err)
		}
		if want != nil && !reflect.DeepEqual(got, want) {
			t.Errorf("stage %s: held-out outcomes %v, RunCapstone's %v", stage, got, want)
		}
	}
	if curves["untrained"] != nil || len(curves["sft"]["sft_loss"]) != 3 || len(curves["dpo"]["dpo_loss"]) != 5 {
		t.Errorf("curves %v, want none untrained, 3 SFT passes, 5 DPO steps", curves)
	}
	// RL spends the 96 sampled episodes of DPO's pairs in 4 updates of 4 tasks × 6, after the same SFT.
	if rl := curves["rl"]; len(rl["rl_loss"]) != 4 || len(rl["rl_solved"]) != 4 || !reflect.DeepEqual(rl["sft_loss"], curves["sft"]["sft_loss"]) {
		t.Errorf("rl curves %v, want 4 updates after the same SFT", rl)
	}
}
