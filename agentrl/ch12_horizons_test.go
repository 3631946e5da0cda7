package agentrl

import (
	"errors"
	"slices"
	"testing"

	"github.com/agenticrl/course/gym"
)

// playedEpisode is an episode of the given tools, each call of 3 tokens, and rewards.
func playedEpisode(tools []string, rewards []float64) *TinyEpisode {
	ep := fakeEpisode(rewards, 3, 3, 3, 3)
	for c, tool := range tools {
		ep.Calls[c].Action = gym.Action{Tool: tool}
	}
	return ep
}

func TestTruncated(t *testing.T) {
	malformed := playedEpisode([]string{gym.ToolEdit}, []float64{0})
	malformed.Calls[0].Err = errors.New("not a call")
	for _, c := range []struct {
		ep   *TinyEpisode
		want bool
	}{
		{playedEpisode([]string{gym.ToolSubmit}, []float64{0}), false},
		{playedEpisode([]string{gym.ToolEdit, gym.ToolSubmit}, []float64{0, 1}), false},
		{playedEpisode([]string{gym.ToolEdit}, []float64{0}), true},
		{playedEpisode([]string{gym.ToolEdit, gym.ToolTest}, []float64{0, 0}), true},
		{malformed, false}, // the harness ended it: not the limit
		{&TinyEpisode{}, false},
	} {
		if got := Truncated(c.ep); got != c.want {
			t.Errorf("Truncated(%v) = %v, want %v", c.ep.Calls, got, c.want)
		}
	}
}

func TestMaskTruncatedLeavesCutEpisodesOut(t *testing.T) {
	solved := playedEpisode([]string{gym.ToolEdit, gym.ToolSubmit}, []float64{0, 1})
	failed := playedEpisode([]string{gym.ToolSubmit}, []float64{0})
	cut := playedEpisode([]string{gym.ToolEdit, gym.ToolEdit}, []float64{0, 0.8}) // graded as it stood
	alone := playedEpisode([]string{gym.ToolTest}, []float64{0})
	MaskTruncated(GroupBaseline(false))([][]*TinyEpisode{{solved, failed, cut}, {alone}})
	// The baseline is the mean of the two episodes that ended by SUBMIT, 0.5, not the 0.6 of all three.
	for _, c := range []struct {
		ep   *TinyEpisode
		want float64
	}{{solved, 0.5}, {failed, -0.5}, {cut, 0}, {alone, 0}} {
		for call, s := range c.ep.Calls {
			if len(c.ep.Advantages[call]) != len(s.Tokens) {
				t.Fatalf("call %d: %d advantages for %d tokens", call, len(c.ep.Advantages[call]), len(s.Tokens))
			}
			for _, a := range c.ep.Advantages[call] {
				if !near(a, c.want, 1e-12) {
					t.Errorf("%v: advantage %v, want %v", c.ep.Calls[len(c.ep.Calls)-1].Action.Tool, a, c.want)
				}
			}
		}
	}
}

func TestBootstrapTruncatedAddsTheCriticsValue(t *testing.T) {
	tasks, agent, critic := criticFixture(t)
	state := func(i int) gym.StructObs { return gym.NewEnv(nil, gym.Config{MaxTurns: 2}).Reset(tasks[i]).Struct }
	cut := playedEpisode([]string{gym.ToolEdit, gym.ToolEdit}, []float64{0, 0})
	cut.States = []gym.StructObs{state(0), state(1)}
	solved := playedEpisode([]string{gym.ToolEdit, gym.ToolSubmit}, []float64{0, 1})
	solved.States = []gym.StructObs{state(3), state(4)}
	x, err := critic.Features([]gym.StructObs{state(2)})
	if err != nil {
		t.Fatal(err)
	}
	v, err := critic.Values(x)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	cutState := func(ep *TinyEpisode) (gym.StructObs, error) {
		if ep != cut {
			t.Errorf("cutState called for an episode that ended by SUBMIT")
		}
		found++
		return state(2), nil
	}
	BootstrapTruncated(critic, cutState, 0.9, GroupBaseline(false))([][]*TinyEpisode{{cut, solved}})
	boot := 0.9 * v[0]
	if found != 1 || !near(cut.Rewards[1], boot, 1e-9) || !near(cut.Return, boot, 1e-9) || solved.Return != 1 {
		t.Fatalf("rewards %v (return %v) and %v, want [0 %v] and [0 1]", cut.Rewards, cut.Return, solved.Rewards, boot)
	}
	mean := (boot + 1) / 2
	if !near(cut.Advantages[0][0], boot-mean, 1e-9) || !near(solved.Advantages[1][2], 1-mean, 1e-9) {
		t.Errorf("advantages %v and %v, want %v and %v", cut.Advantages, solved.Advantages, boot-mean, 1-mean)
	}
	// The critic was fitted to the returns-to-go of the four states.
	states := []gym.StructObs{state(0), state(1), state(3), state(4)}
	targets := []float64{0.9 * boot, boot, 0.9, 1}
	xs, err := critic.Features(states)
	if err != nil {
		t.Fatal(err)
	}
	after, err := critic.Values(xs)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := NewTinyCritic(agent, DefaultTinyCriticConfig())
	if err != nil {
		t.Fatal(err)
	}
	before, err := fresh.Values(xs)
	if err != nil {
		t.Fatal(err)
	}
	mse := func(v []float64) (m float64) {
		for i, y := range targets {
			m += (v[i] - y) * (v[i] - y) / float64(len(targets))
		}
		return m
	}
	if !(mse(after) < mse(before)) {
		t.Errorf("the critic's error on the returns-to-go went from %v to %v: it was not fitted", mse(before), mse(after))
	}
}

func TestReplayCutFindsTheStateAfterTheLastCall(t *testing.T) {
	tasks, pool := gymFixture(t, 0)
	task := tasks[0]
	env := gym.Config{MaxTurns: 2}
	ep := playedEpisode([]string{gym.ToolTest, gym.ToolRead}, []float64{0, 0})
	ep.Task = task
	got, err := ReplayCut(pool, env)(ep)
	if err != nil {
		t.Fatal(err)
	}
	// The same calls in a gym that allows three: the state before the third call.
	e := gym.NewEnv(pool, gym.Config{MaxTurns: 3})
	e.Reset(task)
	var want gym.StructObs
	for _, c := range ep.Calls {
		st, err := e.Step(c.Action)
		if err != nil {
			t.Fatal(err)
		}
		want = st.Obs.Struct
	}
	if got.Turn != 2 || got.TurnsLeft != 1 || got.Tool != gym.ToolRead || !got.Tests.Ran {
		t.Errorf("cut state: turn %d, %d left, after %q, tests ran %v; want turn 2, 1 left, after read, tests ran",
			got.Turn, got.TurnsLeft, got.Tool, got.Tests.Ran)
	}
	if !slices.Equal(EncodeObservation(got), EncodeObservation(want)) {
		t.Errorf("the replayed cut state differs from playing the calls by hand")
	}
}

func TestPerTurnMeanDividesByTheEpisodesCalls(t *testing.T) {
	long := playedEpisode([]string{gym.ToolEdit, gym.ToolEdit, gym.ToolEdit, gym.ToolSubmit}, []float64{0, 0, 0, 0})
	short := playedEpisode([]string{gym.ToolSubmit}, []float64{1})
	PerTurnMean(GroupBaseline(false))([][]*TinyEpisode{{long, short}})
	// GroupBaseline gives the long failure −0.5 and the short success +0.5 on every token; divided
	// by 4 calls and by 1.
	for _, c := range []struct {
		ep   *TinyEpisode
		want float64
	}{{long, -0.125}, {short, 0.5}} {
		for _, adv := range c.ep.Advantages {
			for _, a := range adv {
				if !near(a, c.want, 1e-12) {
					t.Errorf("%d calls: advantage %v, want %v", len(c.ep.Calls), a, c.want)
				}
			}
		}
	}
}
