package agentrl

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/agenticrl/course/gym"
)

func TestGAEHandComputed(t *testing.T) {
	// Three steps, γ = 0.9, λ = 0.5, values V = [0.5, 1, 2] and 0 after the terminal step:
	// δ = [0 + 0.9·1 − 0.5, 0 + 0.9·2 − 1, 1 + 0 − 2] = [0.4, 0.8, −1];
	// Â_2 = −1, Â_1 = 0.8 + 0.45·(−1) = 0.35, Â_0 = 0.4 + 0.45·0.35 = 0.5575;
	// returns = Â + V = [1.0575, 1.35, 1].
	adv, ret := GAE([]float64{0, 0, 1}, []float64{0.5, 1, 2, 0}, 0.9, 0.5)
	wantAdv, wantRet := []float64{0.5575, 0.35, -1}, []float64{1.0575, 1.35, 1}
	for i := range wantAdv {
		if !near(adv[i], wantAdv[i], 1e-12) || !near(ret[i], wantRet[i], 1e-12) {
			t.Fatalf("GAE = %v, %v; want %v, %v", adv, ret, wantAdv, wantRet)
		}
	}
	// A non-zero bootstrap value counts: one step, V(s_1) = 2, γ = 0.5: δ = 1 + 1 − 0 = 2.
	adv, ret = GAE([]float64{1}, []float64{0, 2}, 0.5, 0.7)
	if !near(adv[0], 2, 1e-12) || !near(ret[0], 2, 1e-12) {
		t.Errorf("bootstrapped GAE = %v, %v; want [2], [2]", adv, ret)
	}
}

func TestGAELimits(t *testing.T) {
	rewards := []float64{0.3, -0.1, 0, 2, -0.5}
	values := []float64{1.2, -0.4, 0.7, 0.1, 0.9, 0.6}
	for _, gamma := range []float64{0, 0.5, 0.97, 1} {
		// λ = 0: the TD errors themselves.
		adv, _ := GAE(rewards, values, gamma, 0)
		for i, d := range TDErrors(rewards, values, gamma) {
			if !near(adv[i], d, 1e-12) {
				t.Errorf("γ=%v λ=0: Â_%d = %v, δ_%d = %v", gamma, i, adv[i], i, d)
			}
		}
		// λ = 1: the return-to-go (bootstrapped with the last value) minus the value.
		adv, ret := GAE(rewards, values, gamma, 1)
		last := len(rewards)
		boot := append(append([]float64{}, rewards...), values[last])
		togo := ReturnsToGo(boot, gamma)
		for i := range rewards {
			if !near(adv[i], togo[i]-values[i], 1e-12) || !near(ret[i], togo[i], 1e-12) {
				t.Errorf("γ=%v λ=1: Â_%d = %v, return %v; want %v, %v", gamma, i, adv[i], ret[i], togo[i]-values[i], togo[i])
			}
		}
	}
	// With a terminal state (bootstrap 0), λ = 1 is ReturnsToGo − V exactly.
	values[len(values)-1] = 0
	adv, _ := GAE(rewards, values, 0.9, 1)
	for i, g := range ReturnsToGo(rewards, 0.9) {
		if !near(adv[i], g-values[i], 1e-12) {
			t.Errorf("terminal λ=1: Â_%d = %v, want %v", i, adv[i], g-values[i])
		}
	}
}

func TestGAEPanics(t *testing.T) {
	cases := []struct {
		name          string
		rewards, vals []float64
		gamma, lambda float64
		want          string
	}{
		{"values as long as rewards", []float64{1, 2}, []float64{0, 0}, 0.9, 0.9, "need 3 values"},
		{"values too long", []float64{1}, []float64{0, 0, 0}, 0.9, 0.9, "need 2 values"},
		{"λ above 1", []float64{1}, []float64{0, 0}, 0.9, 1.5, "λ = 1.5"},
		{"negative λ", []float64{1}, []float64{0, 0}, 0.9, -0.1, "λ = -0.1"},
		{"NaN λ", []float64{1}, []float64{0, 0}, 0.9, math.NaN(), "λ = NaN"},
		{"γ above 1", []float64{1}, []float64{0, 0}, 1.1, 0.9, "γ = 1.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.Contains(msg, c.want) {
					t.Errorf("panic %v, want a message containing %q", r, c.want)
				}
			}()
			GAE(c.rewards, c.vals, c.gamma, c.lambda)
		})
	}
	// An empty episode is valid: one value (the bootstrap), no advantages.
	if adv, ret := GAE(nil, []float64{3}, 0.9, 0.9); len(adv) != 0 || len(ret) != 0 {
		t.Errorf("empty episode: %v, %v", adv, ret)
	}
}

// fakeEpisode is an episode with the given per-call rewards and calls of the given token counts.
func fakeEpisode(rewards []float64, tokens ...int) *TinyEpisode {
	ep := &TinyEpisode{Rewards: rewards}
	for c := range rewards {
		ep.Calls = append(ep.Calls, TinySample{Tokens: make([]int, tokens[c])})
		ep.Return += rewards[c]
	}
	return ep
}

func TestStepCostAndTurnAdvantage(t *testing.T) {
	// One group: episode a makes 3 calls and solves at the last; b submits at once and fails.
	// With a step cost of 0.1 the rewards are a: [−0.1, −0.1, 0.9], b: [−0.1].
	a := fakeEpisode([]float64{0, 0, 1}, 5, 3, 3)
	b := fakeEpisode([]float64{0}, 3)
	StepCost(0.1, TurnAdvantage(1))([][]*TinyEpisode{{a, b}})
	if !near(a.Return, 0.7, 1e-12) || !near(b.Return, -0.1, 1e-12) || !near(a.Rewards[2], 0.9, 1e-12) {
		t.Fatalf("after StepCost: returns %v %v, rewards %v", a.Return, b.Return, a.Rewards)
	}
	// Returns-to-go: a [0.7, 0.8, 0.9], b [−0.1]. Turn 0 baseline (0.7 − 0.1)/2 = 0.3;
	// turns 1 and 2 only a reached: advantage 0.
	want := [][]float64{{0.4, 0, 0}, {-0.4}}
	for e, ep := range []*TinyEpisode{a, b} {
		for c, s := range ep.Calls {
			if len(ep.Advantages[c]) != len(s.Tokens) {
				t.Fatalf("episode %d call %d: %d advantages for %d tokens", e, c, len(ep.Advantages[c]), len(s.Tokens))
			}
			for _, x := range ep.Advantages[c] {
				if !near(x, want[e][c], 1e-12) {
					t.Errorf("episode %d call %d: advantage %v, want %v", e, c, x, want[e][c])
				}
			}
		}
	}
	// Discounting: rewards [0, 1] and [1], γ = 0.5: to-go [0.5, 1] and [1]; turn-0 baseline 0.75.
	c := fakeEpisode([]float64{0, 1}, 3, 3)
	d := fakeEpisode([]float64{1}, 3)
	e := fakeEpisode([]float64{0, 0}, 3, 3)
	TurnAdvantage(0.5)([][]*TinyEpisode{{c, d}, {e}})
	if !near(c.Advantages[0][0], -0.25, 1e-12) || !near(d.Advantages[0][0], 0.25, 1e-12) || !near(c.Advantages[1][0], 0, 1e-12) {
		t.Errorf("discounted: %v %v", c.Advantages, d.Advantages)
	}
	// Groups are separate: e's group holds e alone, so its advantages are 0.
	if e.Advantages[0][0] != 0 || e.Advantages[1][0] != 0 {
		t.Errorf("a group of one: %v", e.Advantages)
	}
}

func TestTinyCriticFits(t *testing.T) {
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	critic, err := NewTinyCritic(agent, TinyCriticConfig{Hidden: 16, LR: 0.02, Steps: 60, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Fixed features, a linear target: 0.5 + x_0 − 0.5 x_1 on 20 random rows.
	x := make([][]float32, 20)
	y := make([]float64, len(x))
	for i := range x {
		x[i] = make([]float32, len(TinyVocab))
		for j := range x[i] {
			x[i][j] = float32(math.Sin(float64(7*i + 3*j + 1)))
		}
		y[i] = 0.5 + float64(x[i][0]) - 0.5*float64(x[i][1])
	}
	before, after, err := critic.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	v, err := critic.Values(x)
	if err != nil {
		t.Fatal(err)
	}
	mse := 0.0
	for i := range v {
		mse += (v[i] - y[i]) * (v[i] - y[i]) / float64(len(v))
	}
	if !near(mse, after, 1e-6) {
		t.Errorf("Fit reported an error of %v after fitting, Values gives %v", after, mse)
	}
	if !(after < 0.05*before) {
		t.Errorf("the critic's error went from %v to %v in 60 steps; want below 5%%", before, after)
	}
	if _, _, err := critic.Fit(x, y[:3]); err == nil {
		t.Error("Fit accepted 20 feature rows and 3 targets")
	}
}

// criticFixture loads the tasks and makes a default TinyAgent and a default critic for it.
func criticFixture(t *testing.T) ([]*gym.Task, *TinyAgent, *TinyCritic) {
	t.Helper()
	tasks, err := gym.LoadTasks("../datasets/bugfix")
	if err != nil {
		t.Fatal(err)
	}
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	critic, err := NewTinyCritic(agent, DefaultTinyCriticConfig())
	if err != nil {
		t.Fatal(err)
	}
	return tasks, agent, critic
}

func TestTinyCriticFeatures(t *testing.T) {
	tasks, _, critic := criticFixture(t)
	var states []gym.StructObs
	for _, task := range tasks[:3] {
		states = append(states, gym.NewEnv(nil, gym.Config{MaxTurns: 4}).Reset(task).Struct)
	}
	// The same state alone and in a batch with longer prompts has the same features: padding
	// after a prompt cannot reach its last token.
	all, err := critic.Features(states)
	if err != nil {
		t.Fatal(err)
	}
	one, err := critic.Features(states[1:2])
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 {
		t.Fatalf("features: %d rows of %d", len(all), len(all[1]))
	}
	for j := range one[0] {
		if math.Abs(float64(one[0][j]-all[1][j])) > 1e-4 {
			t.Fatalf("feature %d: %v alone, %v in a batch", j, one[0][j], all[1][j])
		}
	}
	// Each row is centred: the log-normalizer is gone, the logits' spread is left.
	for i, row := range all {
		mean, spread := 0.0, 0.0
		for _, x := range row {
			mean += float64(x) / float64(len(row))
			spread += math.Abs(float64(x)) / float64(len(row))
		}
		if !near(mean, 0, 1e-5) || spread == 0 {
			t.Errorf("features of state %d: mean %v, mean |x| %v; want 0 and > 0", i, mean, spread)
		}
	}
	if len(all[0]) != len(TinyVocab) {
		t.Errorf("%d features per state, want one per vocabulary entry (%d)", len(all[0]), len(TinyVocab))
	}
	// Features differ between states (they carry the prompt), and fitting the critic leaves the
	// agent's weights alone.
	if all[0][0] == all[2][0] && all[0][1] == all[2][1] {
		t.Error("two different tasks gave the same features")
	}
	if _, _, err := critic.Fit(all, []float64{1, 0, -1}); err != nil {
		t.Fatal(err)
	}
	again, err := critic.Features(states)
	if err != nil {
		t.Fatal(err)
	}
	for j := range again[0] {
		if again[0][j] != all[0][j] {
			t.Fatalf("fitting the critic changed the agent's features (%v → %v)", all[0][j], again[0][j])
		}
	}
}

func TestGAEAdvantageUsesTheCriticBeforeFitting(t *testing.T) {
	tasks, _, critic := criticFixture(t)
	state := func(i int) gym.StructObs { return gym.NewEnv(nil, gym.Config{MaxTurns: 4}).Reset(tasks[i]).Struct }
	// Two episodes of one group: three calls ending in a solve, and one failed submission.
	a := fakeEpisode([]float64{0, 0, 1}, 3, 5, 3)
	a.States = []gym.StructObs{state(0), state(1), state(2)}
	b := fakeEpisode([]float64{0}, 3)
	b.States = []gym.StructObs{state(3)}
	x, err := critic.Features(append(append([]gym.StructObs{}, a.States...), b.States...))
	if err != nil {
		t.Fatal(err)
	}
	v, err := critic.Values(x)
	if err != nil {
		t.Fatal(err)
	}
	GAEAdvantage(critic, 0.9, 0.8)([][]*TinyEpisode{{a, b}})
	wantA, retA := GAE(a.Rewards, []float64{v[0], v[1], v[2], 0}, 0.9, 0.8)
	wantB, retB := GAE(b.Rewards, []float64{v[3], 0}, 0.9, 0.8)
	for e, c := range []struct {
		ep   *TinyEpisode
		want []float64
	}{{a, wantA}, {b, wantB}} {
		for call, s := range c.ep.Calls {
			if len(c.ep.Advantages[call]) != len(s.Tokens) {
				t.Fatalf("episode %d call %d: %d advantages for %d tokens", e, call, len(c.ep.Advantages[call]), len(s.Tokens))
			}
			for _, got := range c.ep.Advantages[call] {
				if !near(got, c.want[call], 1e-5) {
					t.Errorf("episode %d call %d: advantage %v, want %v", e, call, got, c.want[call])
				}
			}
		}
	}
	// The error it logs is the critic's error on the λ-returns before it was fitted to them.
	targets := append(retA, retB...)
	mse := 0.0
	for i, y := range targets {
		mse += (v[i] - y) * (v[i] - y) / float64(len(targets))
	}
	if len(critic.Errors) != 1 || !near(critic.Errors[0], mse, 1e-5) {
		t.Errorf("critic.Errors = %v, want [%v]", critic.Errors, mse)
	}
	// And the critic was fitted: its values moved toward the targets.
	after, err := critic.Values(x)
	if err != nil {
		t.Fatal(err)
	}
	mseAfter := 0.0
	for i, y := range targets {
		mseAfter += (after[i] - y) * (after[i] - y) / float64(len(targets))
	}
	if !(mseAfter < mse) {
		t.Errorf("the critic's error went from %v to %v: it was not fitted", mse, mseAfter)
	}
}

// patchEpisode is an episode under the patch interface: the state of call c is after a patch
// whose visible tests passed when passed[c], after a failing one otherwise (call 0: at reset).
func patchEpisode(rewards []float64, passed ...bool) *TinyEpisode {
	ep := fakeEpisode(rewards, slices.Repeat([]int{6}, len(rewards))...)
	for c := range rewards {
		st := gym.StructObs{Patches: true}
		if c > 0 {
			st.Tool, st.Tests = gym.ToolEdit, gym.TestSummary{Ran: true, Total: 3, Passed: 1}
			if passed[c] {
				st.Tests.Passed = 3
			}
		}
		ep.States = append(ep.States, st)
	}
	return ep
}

func TestStateAdvantageAndPassBonus(t *testing.T) {
	// Three episodes of two groups. a: a patch that passes, then submit (solved). b: a patch that
	// passes, then another patch, graded as it stands (not solved). c: a failing patch, then a
	// submission (not solved).
	a := patchEpisode([]float64{0, 1}, false, true)
	b := patchEpisode([]float64{0, 0}, false, true)
	c := patchEpisode([]float64{0, 0}, false, false)
	if AfterPass(a, 0) || !AfterPass(a, 1) || AfterPass(c, 1) {
		t.Fatal("AfterPass: wrong state")
	}
	PassBonus(0.2, StateAdvantage(0.5, false))([][]*TinyEpisode{{a, b}, {c}})
	// Rewards with the bonus: a [0.2, 1], b [0.2, 0], c [0, 0]. To-go (γ = 0.5): a [0.7, 1],
	// b [0.2, 0], c [0, 0]. Turn 0 (all at reset): mean 0.3. Turn 1 after a pass: a and b, mean
	// 0.5; turn 1 after a failure: c alone.
	want := [][]float64{{0.4, 0.5}, {-0.1, -0.5}, {-0.3, 0}}
	for e, ep := range []*TinyEpisode{a, b, c} {
		for k := range ep.Calls {
			if x := ep.Advantages[k][0]; !near(x, want[e][k], 1e-12) {
				t.Errorf("episode %d call %d: advantage %v, want %v", e, k, x, want[e][k])
			}
		}
	}
	if !near(a.Return, 1.2, 1e-12) || !near(c.Return, 0, 1e-12) {
		t.Errorf("returns with the bonus: %v %v", a.Return, c.Return)
	}
	// Scaled: each state's advantages have unit spread (turn 1 after a pass: ±0.5 / 0.5).
	a, b = patchEpisode([]float64{0, 1}, false, true), patchEpisode([]float64{0, 0}, false, true)
	StateAdvantage(1, true)([][]*TinyEpisode{{a, b}})
	if !near(a.Advantages[1][0], 1, 1e-3) || !near(b.Advantages[1][0], -1, 1e-3) {
		t.Errorf("scaled: %v %v", a.Advantages, b.Advantages)
	}
}
