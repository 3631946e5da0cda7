package agentrl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/gym"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestSFTLoss(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Three real tokens (-1, -2, -0.5); the masked one (-7) and the padding row do not count.
	lp := [][]float32{{-1, -2}, {-0.5, -7}, {-3, -3}}
	mask := [][]float32{{1, 1}, {1, 0}, {0, 0}}
	got := tensors.ToScalar[float32](graph.MustExecOnce(be, SFTLoss, lp, mask))
	if want := 3.5 / 3; math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("SFTLoss = %g, want %g", got, want)
	}
}

func TestPreferenceLoss(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Margins h = 1.5 and -0.2; the third pair is not valid and must not count.
	chosen, rejected, valid := []float32{0.5, 0, 9}, []float32{-1, 0.2, -9}, []float32{1, 1, 0}
	softplus := func(x float64) float64 { return math.Log1p(math.Exp(x)) }
	for _, c := range []struct {
		cfg  PreferenceConfig
		want float64
	}{
		{PreferenceConfig{Beta: 0.1}, (softplus(-0.15) + softplus(0.02)) / 2},
		{PreferenceConfig{Beta: 1}, (softplus(-1.5) + softplus(0.2)) / 2},
		{PreferenceConfig{Beta: 0.1, IPO: true}, (3.5*3.5 + 5.2*5.2) / 2}, // target margin 1/(2·0.1) = 5
	} {
		got := tensors.ToScalar[float32](graph.MustExecOnce(be, func(c0, r, v *graph.Node) *graph.Node {
			return PreferenceLoss(c0, r, v, c.cfg)
		}, chosen, rejected, valid))
		if math.Abs(float64(got)-c.want) > 1e-5 {
			t.Errorf("%+v: loss %g, want %g", c.cfg, got, c.want)
		}
	}
}

// TestDPO: two pairs laid out as a trainer lays them out (calls as rows, an episode one-hot per
// row), a masked token and a padding row that must not count, and empty episode slots that must
// not make pairs.
func TestDPO(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Episode 0 (chosen): rows 0, 1; episode 1 (rejected): row 2; episode 2: row 3; episode 3: row 4.
	lp := [][]float32{{-1, -2}, {-0.5, 0}, {-3, -1}, {-1, -1}, {-0.2, 5}, {4, 4}}
	ref := [][]float32{{-1.5, -2}, {-0.5, 9}, {-2, -1}, {-1, -1}, {-0.4, 9}, {1, 1}}
	mask := [][]float32{{1, 1}, {1, 0}, {1, 1}, {1, 1}, {1, 0}, {0, 0}}
	// Log-ratios: pair 0 chosen 0.5, rejected -1 (h 1.5); pair 1 chosen 0, rejected 0.2 (h -0.2).
	softplus := func(x float64) float64 { return math.Log1p(math.Exp(x)) }
	want := []float64{(softplus(-0.15) + softplus(0.02)) / 2, // loss, β = 0.1
		(0.05 + 0) / 2, (-0.1 + 0.02) / 2, // reward_chosen, reward_rejected
		0.5,                            // accuracy
		(-3.5 - 2) / 2, (-4 - 0.2) / 2} // logp_chosen, logp_rejected
	for _, slots := range []int{4, 8} {
		episode := make([][]float32, len(lp))
		for r := range episode {
			episode[r] = make([]float32, slots)
			if e := []int{0, 0, 1, 2, 3, -1}[r]; e >= 0 {
				episode[r][e] = 1
			}
		}
		res := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
			l, metrics := DPO(PreferenceConfig{Beta: 0.1})(LossInputs{LogProbs: in[0], RefLogProbs: in[1], Mask: in[2], Episode: in[3]})
			out := []*graph.Node{l}
			for _, m := range metrics {
				out = append(out, m.Value)
			}
			return out
		}, lp, ref, mask, episode)
		for i, r := range res {
			if got := float64(tensors.ToScalar[float32](r)); math.Abs(got-want[i]) > 1e-5 {
				t.Errorf("%d episode slots: value %d (loss, reward_chosen, reward_rejected, accuracy, logp_chosen, logp_rejected) = %g, want %g",
					slots, i, got, want[i])
			}
		}
	}
}

// TestDemonstrate: an oracle demonstration becomes TinyAgent calls that decode back to the
// oracle's actions under the masks recorded with them, and solves the task.
func TestDemonstrate(t *testing.T) {
	tasks, pool := gymFixture(t, 0)
	env := gym.Config{MaxTurns: 4, SubmitAtLimit: true, TryPatches: true}
	task := gym.Filter(tasks, gym.Train, "")[0]
	ep, err := Demonstrate(pool, env, task, OracleFix(task, rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		t.Fatal(err)
	}
	if !ep.Solved || len(ep.Calls) != 2 || ep.Calls[0].Action.Tool != gym.ToolEdit || ep.Calls[1].Action.Tool != gym.ToolSubmit {
		t.Fatalf("oracle demonstration: solved %v, %d calls, want a solved edit then submit", ep.Solved, len(ep.Calls))
	}
	for c, s := range ep.Calls {
		a, err := DecodeAction(ep.States[c], s.Tokens)
		if err != nil || a.String() != s.Action.String() {
			t.Errorf("call %d: tokens decode to %v (%v), want %v", c, a, err, s.Action)
		}
		for j, tok := range s.Tokens {
			if !s.Allowed[j][tok] || ep.Advantages[c][j] != 1 {
				t.Errorf("call %d token %d: allowed %v, advantage %g", c, j, s.Allowed[j][tok], ep.Advantages[c][j])
			}
		}
	}
	if _, err := Demonstrate(pool, env, task, Script(gym.Action{Tool: gym.ToolEdit, Start: 1, End: 1})); err == nil {
		t.Error("a free-text edit has no TinyAgent tokens: want an error")
	}
}

func TestPreferencePairsAndKeepSolved(t *testing.T) {
	ep := func(solved bool) *TinyEpisode {
		return &TinyEpisode{Solved: solved, Calls: []TinySample{{Tokens: []int{1, 2}}}}
	}
	a, b, c, d, e, f := ep(true), ep(false), ep(false), ep(true), ep(true), ep(true)
	pairs := PreferencePairs([][]*TinyEpisode{{a, b, c, d}, {e, f}})
	if len(pairs) != 4 || pairs[0] != a || pairs[1] != b || pairs[2] != d || pairs[3] != c {
		t.Errorf("pairs %v: want a>b, d>c and nothing from the all-solved group", pairs)
	}
	kept := KeepSolved([]*TinyEpisode{a, b, c, d})
	if len(kept) != 2 || kept[0] != a || kept[1] != d || kept[1].Advantages[0][1] != 1 {
		t.Errorf("KeepSolved kept %v", kept)
	}
}

// TestRejectionSampling: the hook keeps exactly the solved episodes of the update's groups, as
// demonstrations, and counts the groups they came from.
func TestRejectionSampling(t *testing.T) {
	ep := func(solved bool) *TinyEpisode {
		return &TinyEpisode{Solved: solved, Calls: []TinySample{{Tokens: []int{1, 2}}}}
	}
	a, b, c, d, e := ep(true), ep(false), ep(false), ep(false), ep(true)
	u := &TinyUpdate{Groups: [][]*TinyEpisode{{a, b}, {c, d}, {e}}, Kept: []*TinyEpisode{b, c}, KeptGroups: 2}
	if err := RejectionSampling().Rolled(nil, u); err != nil {
		t.Fatal(err)
	}
	if len(u.Kept) != 2 || u.Kept[0] != a || u.Kept[1] != e || u.KeptGroups != 2 || a.Advantages[0][1] != 1 {
		t.Errorf("kept %v from %d groups: want a and e from 2", u.Kept, u.KeptGroups)
	}
}

// TestUpdateGroups: the first update's groups are the ones a trainer of the same configuration
// samples, token for token; later updates' groups are drawn on those updates' task streams.
func TestUpdateGroups(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	a, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ShortRecipe().Config(a.Config, gym.Filter(tasks, gym.Train, ""))
	if err != nil {
		t.Fatal(err)
	}
	groups, err := UpdateGroups(a, pool, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTinyTrainer(a, pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, err := tr.Update()
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2*cfg.Groups || len(u.Groups) != cfg.Groups {
		t.Fatalf("%d groups, trainer %d: want %d and %d", len(groups), len(u.Groups), 2*cfg.Groups, cfg.Groups)
	}
	for g := range u.Groups {
		for k, ep := range u.Groups[g] {
			if got := groups[g][k]; got.Task != ep.Task || fmt.Sprint(got.Calls[0].Tokens) != fmt.Sprint(ep.Calls[0].Tokens) {
				t.Errorf("group %d episode %d: %s %v, the trainer's %s %v", g, k, got.Task.ID, got.Calls[0].Tokens, ep.Task.ID, ep.Calls[0].Tokens)
			}
		}
	}
	next := DrawTasks(cfg, TaskStream(cfg.Seed, 1), cfg.Groups)
	for g := range cfg.Groups {
		if groups[cfg.Groups+g][0].Task != next[g*cfg.GroupSize] {
			t.Errorf("update 1, group %d: task %s, want %s", g, groups[cfg.Groups+g][0].Task.ID, next[g*cfg.GroupSize].ID)
		}
	}
}

// TestTrainPreference: the preference steps train a copy (the start, the reference, is left as
// it was), report one set of metrics per step, and raise the chosen episodes against the rejected.
func TestTrainPreference(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")
	start, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	eps, err := TinyRollout(start, pool, train[:4], TinyRolloutConfig{Env: ShortRecipe().Env(), Temperature: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	pairs := AsDemonstrations(eps) // as if episodes 0 and 2 had solved their tasks, 1 and 3 not
	was, err := EpisodeLogProbs(start, pairs)
	if err != nil {
		t.Fatal(err)
	}
	b, metrics, err := TrainPreference(pool, train, ShortRecipe().Env(), start, pairs, PreferenceConfig{Beta: 0.1}, 3, 1e-2, 1)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := EpisodeLogProbs(start, pairs)
	now, _ := EpisodeLogProbs(b, pairs)
	if len(metrics) != 3 || b == start || fmt.Sprint(again) != fmt.Sprint(was) {
		t.Fatalf("%d metric sets, copy %v, start's log-probs %v then %v", len(metrics), b != start, was, again)
	}
	margin := func(lp []float64) float64 { return lp[0] - lp[1] + lp[2] - lp[3] }
	if margin(now) <= margin(was) || metrics[2]["accuracy"] < metrics[0]["accuracy"] {
		t.Errorf("chosen − rejected log-likelihood %g → %g, accuracy %v: want both up", margin(was), margin(now), metrics)
	}
}

// TestStudyDevTasks: the dev split is 349 tasks of templates no training task uses, none of them
// a task of StudyTasks' test split, and the training tasks are StudyTasks' own.
func TestStudyDevTasks(t *testing.T) {
	train, dev, err := StudyDevTasks("..")
	if err != nil {
		t.Fatal(err)
	}
	train2, test, err := StudyTasks("..")
	if err != nil {
		t.Fatal(err)
	}
	if len(dev) != 349 || len(train) != len(train2) {
		t.Fatalf("%d dev tasks (want 349), %d train tasks (StudyTasks: %d)", len(dev), len(train), len(train2))
	}
	seen := map[string]bool{}
	for _, task := range train {
		seen["template "+task.Template] = true
	}
	for _, task := range test {
		seen["task "+task.ID] = true
	}
	for _, task := range dev {
		if seen["template "+task.Template] || seen["task "+task.ID] {
			t.Fatalf("dev task %s (template %s) is a training template or a test task", task.ID, task.Template)
		}
	}
}
