package agentrl

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
)

// gymFixture loads the tasks and starts a sandbox whose runs are cut at limit (0: its default of
// 2 s). A short limit is only safe for runs known to be quick: a busy machine can slow any run.
func gymFixture(t *testing.T, limit time.Duration) ([]*gym.Task, *sandbox.Pool) {
	t.Helper()
	tasks, err := gym.LoadTasks("../datasets/bugfix")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := sandbox.New(sandbox.Options{Workers: 2, Timeout: limit})
	if err != nil {
		t.Fatalf("sandbox: %v (python3 missing: run `make setup`)", err)
	}
	t.Cleanup(pool.Close)
	return tasks, pool
}

func taskNamed(t *testing.T, tasks []*gym.Task, id string) *gym.Task {
	t.Helper()
	for _, x := range tasks {
		if x.ID == id {
			return x
		}
	}
	t.Fatalf("no task %s", id)
	return nil
}

func TestGymEvalRates(t *testing.T) {
	cases := []struct {
		ev        GymEval
		rate, len float64
	}{
		{GymEval{Episodes: 4, Solved: 1, Lengths: []int{2, 4, 6, 8}}, 0.25, 5},
		{GymEval{Episodes: 3, Solved: 3, Lengths: []int{2, 2, 2}}, 1, 2},
		{GymEval{}, 0, 0}, // no episodes: zero, not NaN
	}
	for _, c := range cases {
		if got := c.ev.SolveRate(); got != c.rate {
			t.Errorf("%+v: SolveRate = %v, want %v", c.ev, got, c.rate)
		}
		if got := c.ev.MeanTurns(); got != c.len {
			t.Errorf("%+v: MeanTurns = %v, want %v", c.ev, got, c.len)
		}
	}
}

func TestScriptThenSubmit(t *testing.T) {
	a := gym.Action{Tool: gym.ToolRead}
	b := gym.Action{Tool: gym.ToolTest}
	p := Script(a, b)
	var got []string
	for range 4 {
		got = append(got, p(gym.Observation{}).Tool)
	}
	if want := []string{"read", "test", "submit", "submit"}; !slices.Equal(got, want) {
		t.Errorf("Script(read, test) played %v, want %v", got, want)
	}
}

func TestPlayEpisode(t *testing.T) {
	tasks, pool := gymFixture(t, 0)
	task := taskNamed(t, tasks, "pair_count-off_by_one-1")
	fix, ok := gym.FixEdit(task)
	if !ok {
		t.Fatal("no fixing menu edit")
	}
	cases := []struct {
		name      string
		maxTurns  int
		policy    GymPolicy
		turns     int
		reward    float64
		solved    bool
		truncated bool
	}{
		{"fix then submit", 12, Script(gym.Action{Tool: gym.ToolTest}, gym.Action{Tool: gym.ToolEdit, Menu: &fix}), 3, 1, true, false},
		{"submit the bug", 12, Script(), 1, 0, false, false},
		{"read until the limit", 5, func(gym.Observation) gym.Action { return gym.Action{Tool: gym.ToolRead} }, 5, 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := gym.NewEnv(pool, gym.Config{Reward: gym.Hidden, MaxTurns: c.maxTurns})
			var calls []string
			policy := func(obs gym.Observation) gym.Action {
				a := c.policy(obs)
				calls = append(calls, a.String())
				return a
			}
			ep, err := PlayEpisode(env, task, policy)
			if err != nil {
				t.Fatal(err)
			}
			if ep.Task != task.ID || ep.Prompt.Text == "" {
				t.Errorf("episode task %q, prompt %q", ep.Task, ep.Prompt.Text)
			}
			if len(ep.Turns) != c.turns || ep.Reward != c.reward || ep.Solved() != c.solved {
				t.Fatalf("%d turns, reward %v, solved %v; want %d, %v, %v", len(ep.Turns), ep.Reward, ep.Solved(), c.turns, c.reward, c.solved)
			}
			for i, turn := range ep.Turns {
				if a, err := gym.ParseAction(turn.Call); err != nil || a.String() != calls[i] {
					t.Errorf("turn %d recorded %s (%v), policy chose %s", i+1, turn.Call, err, calls[i])
				}
				if last := i == len(ep.Turns)-1; turn.Done != last {
					t.Errorf("turn %d: done = %v", i+1, turn.Done)
				}
			}
			last := ep.Turns[len(ep.Turns)-1]
			if last.Truncated != c.truncated || (ep.Outcome == nil) != c.truncated {
				t.Errorf("truncated %v, outcome %v; want truncated %v", last.Truncated, ep.Outcome, c.truncated)
			}
		})
	}
}

func TestBaselines(t *testing.T) {
	tasks, pool := gymFixture(t, 250*time.Millisecond)
	dev := gym.Filter(tasks, gym.Dev, "")
	env := gym.NewEnv(pool, gym.Config{Reward: gym.Hidden, MaxTurns: 12})

	oracle, err := EvalGym(env, dev, OracleFix, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if oracle.Episodes != len(dev) || oracle.Solved != len(dev) || oracle.MeanReward != 1 || oracle.MeanTurns() != 2 {
		t.Errorf("oracle: %+v; want every dev task solved in 2 turns", oracle)
	}

	// One edit, then submit: two turns always, and the same seed gives the same episodes.
	a, err := EvalGym(env, dev[:10], RandomEditSubmit, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EvalGym(env, dev[:10], RandomEditSubmit, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	if a.Episodes != 30 || a.MeanTurns() != 2 || a.Truncated != 0 {
		t.Errorf("random edit: %+v; want 30 episodes of 2 turns", a)
	}
	if a.Solved != b.Solved || a.MeanReward != b.MeanReward {
		t.Errorf("same seed, different results: %+v and %+v", a, b)
	}

	// Random calls rarely submit: most episodes hit the turn limit, and they are reproducible.
	r1, err := EvalGym(env, dev[:5], RandomCall, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := EvalGym(env, dev[:5], RandomCall, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r1.Lengths, r2.Lengths) {
		t.Errorf("random call lengths differ for one seed: %v and %v", r1.Lengths, r2.Lengths)
	}
	if r1.Truncated == 0 {
		t.Errorf("random call: no episode truncated in %v", r1.Lengths)
	}
}

// EditTestRevert must leave the module as it found it after every failed try, and, given turns
// for every candidate, submit a module that passes the visible tests when the fix is one of them.
func TestEditTestRevert(t *testing.T) {
	tasks, pool := gymFixture(t, 250*time.Millisecond)
	for _, id := range []string{"pair_count-off_by_one-1", "count_in_range-wrong_comparison-1", "max_window_sum-wrong_return-1"} {
		task := taskNamed(t, tasks, id)
		n := 0
		for _, edits := range gym.Menu(task.Buggy) {
			for _, e := range edits {
				if e.Replace != "" {
					n++
				}
			}
		}
		env := gym.NewEnv(pool, gym.Config{MaxTurns: 3*n + 2})
		policy := EditTestRevert(task, rand.New(rand.NewPCG(5, 0)))
		obs := env.Reset(task)
		var tools []string
		var st gym.Step
		for !st.Done {
			a := policy(obs)
			var err error
			if st, err = env.Step(a); err != nil {
				t.Fatal(err)
			}
			obs = st.Obs
			tools = append(tools, a.Tool)
			k := len(tools)
			// The third step of each try, an edit right after a test, is the undo.
			if k >= 3 && tools[k-1] == gym.ToolEdit && tools[k-2] == gym.ToolTest && env.Source() != task.Buggy {
				t.Fatalf("%s: turn %d undid an edit but the module differs from the original", id, k)
			}
		}
		if st.Truncated || st.Outcome == nil || !st.Outcome.VisibleAll {
			t.Errorf("%s: ended with truncated %v, outcome %+v; want a submission passing the visible tests", id, st.Truncated, st.Outcome)
		}
		for i := 0; i+1 < len(tools); i++ {
			if tools[i] == gym.ToolTest && i > 0 && tools[i-1] != gym.ToolEdit {
				t.Errorf("%s: test at turn %d not after an edit: %v", id, i+1, tools)
			}
		}
	}
}

// TestPatchSearch plays the patch interface's scripted search on three dev tasks with calls
// enough for every patch: it never tries a patch twice, patches until one passes the visible
// tests, and submits right after it.
func TestPatchSearch(t *testing.T) {
	tasks, pool := gymFixture(t, 250*time.Millisecond)
	for i, task := range gym.Filter(tasks, gym.Dev, "")[:3] {
		n := len(gym.NewEnv(nil, gym.Config{}).Reset(task).Struct.MenuActions())
		env := gym.NewEnv(pool, gym.Config{TryPatches: true, MaxTurns: n + 1})
		ep, err := PlayEpisode(env, task, PatchSearch(task, rand.New(rand.NewPCG(1, uint64(i)))))
		if err != nil {
			t.Fatal(err)
		}
		last := len(ep.Turns) - 1
		for k, turn := range ep.Turns[:last] {
			s := turn.Obs.Struct
			if s.Tool != gym.ToolEdit || len(s.Tried) != k+1 {
				t.Fatalf("%s, call %d (%s): patch number %d expected; tried %v", task.ID, k+1, turn.Call, k+1, s.Tried)
			}
			if passed := s.Tests.Total > 0 && s.Tests.Passed == s.Tests.Total; passed != (k == last-1) {
				t.Fatalf("%s, call %d: visible tests passed %v, but the search went on to call %d of %d", task.ID, k+1, passed, k+2, last+1)
			}
		}
		final := ep.Turns[last]
		if !final.Done || final.Obs.Struct.Tool != gym.ToolSubmit || last == 0 {
			t.Fatalf("%s: last call %s, done %v; want a submission after a patch", task.ID, final.Call, final.Done)
		}
		seen := map[gym.MenuRef]bool{}
		for _, r := range ep.Turns[last-1].Obs.Struct.Tried {
			if seen[r] {
				t.Fatalf("%s: patch %v tried twice", task.ID, r)
			}
			seen[r] = true
		}
	}
}
