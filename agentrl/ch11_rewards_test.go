package agentrl

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/study"
)

// graded is an episode of the given calls whose submission had outcome o (nil: none).
func graded(o *gym.Outcome, calls ...TinySample) *TinyEpisode {
	return &TinyEpisode{Outcome: o, Calls: calls}
}

// outcome is a submission that passed v of 3 visible and h of 12 hidden tests, with the flags of
// the named detectors.
func outcome(v, h int, detectors ...string) *gym.Outcome {
	o := &gym.Outcome{VisiblePassed: v, VisibleTotal: 3, HiddenPassed: h, HiddenTotal: 12,
		VisibleAll: v == 3, HiddenAll: h == 12}
	for _, d := range detectors {
		o.Flags = append(o.Flags, gym.Flag{Detector: d})
	}
	return o
}

func TestRewardsByHand(t *testing.T) {
	fix := graded(outcome(3, 12))
	memorized := graded(outcome(3, 9, gym.DetectDivergence))
	rewritten := graded(outcome(3, 8, gym.DetectDivergence, gym.DetectTestsModified))
	buggy := graded(outcome(2, 8))
	none := graded(nil)
	half := Sum(Scaled(0.5, VisibleReward), Scaled(0.5, OutcomeReward))
	penalized := FlagPenalty(VisibleReward, 1)
	onlyEdits := FlagPenalty(VisibleReward, 1, gym.DetectTestsModified, gym.DetectSuspiciousCode)
	for _, c := range []struct {
		name string
		ep   *TinyEpisode
		// visible, outcome, partial, half and half, penalty on any flag, penalty on edited tests or suspicious code
		want [6]float64
	}{
		{"fix", fix, [6]float64{1, 1, 1, 1, 1, 1}},
		{"memorized", memorized, [6]float64{1, 0, 0.75, 0.5, 0, 1}},
		{"rewritten", rewritten, [6]float64{1, 0, 8.0 / 12, 0.5, 0, 0}},
		{"buggy", buggy, [6]float64{0, 0, 8.0 / 12, 0, 0, 0}},
		{"no submission", none, [6]float64{0, 0, 0, 0, 0, 0}},
	} {
		for i, r := range []EpisodeReward{VisibleReward, OutcomeReward, PartialCredit, half, penalized, onlyEdits} {
			if got := r(c.ep); math.Abs(got-c.want[i]) > 1e-12 {
				t.Errorf("%s: reward %d = %g, want %g", c.name, i, got, c.want[i])
			}
		}
	}
}

// TestFlaggedByHand: Flagged with no detector named is true for any flag, with names only for
// theirs, and false without a submission; PartialCredit is 0 for a suite with no hidden tests.
func TestFlaggedByHand(t *testing.T) {
	both := graded(outcome(3, 8, gym.DetectDivergence, gym.DetectTestsModified))
	one := graded(outcome(3, 9, gym.DetectDivergence))
	clean := graded(outcome(3, 12))
	for _, c := range []struct {
		name      string
		ep        *TinyEpisode
		detectors []string
		want      bool
	}{
		{"any flag", one, nil, true},
		{"clean, any", clean, nil, false},
		{"no submission", graded(nil), nil, false},
		{"named and raised", both, []string{gym.DetectTestsModified}, true},
		{"named, another raised", one, []string{gym.DetectTestsModified, gym.DetectSuspiciousCode}, false},
	} {
		if got := Flagged(c.ep, c.detectors...); got != c.want {
			t.Errorf("%s: Flagged = %v, want %v", c.name, got, c.want)
		}
	}
	if got := PartialCredit(graded(&gym.Outcome{VisibleAll: true, VisiblePassed: 3, VisibleTotal: 3})); got != 0 {
		t.Errorf("PartialCredit with no hidden tests = %g, want 0", got)
	}
}

func TestFormatAndLengthTerms(t *testing.T) {
	ok, bad := TinySample{}, TinySample{Err: errors.New("malformed")}
	ep := graded(nil, ok, bad, ok, bad)
	if got := FormatPenalty(0.5)(ep); got != -0.25 {
		t.Errorf("FormatPenalty(0.5) with 2 of 4 calls malformed = %g, want -0.25", got)
	}
	if got := CallCost(0.05)(ep); math.Abs(got+0.2) > 1e-12 {
		t.Errorf("CallCost(0.05) of 4 calls = %g, want -0.2", got)
	}
	if got := FormatPenalty(1)(graded(nil)); got != 0 {
		t.Errorf("FormatPenalty of an episode without calls = %g, want 0", got)
	}
	if got := Sum(CallCost(0.05), FormatPenalty(0.5), VisibleReward)(ep); math.Abs(got+0.45) > 1e-12 {
		t.Errorf("Sum = %g, want -0.45", got)
	}
}

func TestWithRewardSetsReturnsBeforeTheBaseline(t *testing.T) {
	call := TinySample{Tokens: []int{1, 2}}
	a := graded(outcome(3, 12), call, call)
	b := graded(outcome(3, 9, gym.DetectDivergence), call)
	a.Return, b.Return = 7, 7 // the gym's reward, to be replaced
	WithReward(OutcomeReward, GroupBaseline(false))([][]*TinyEpisode{{a, b}})
	if a.Return != 1 || b.Return != 0 {
		t.Fatalf("returns %g and %g, want 1 and 0", a.Return, b.Return)
	}
	if len(a.Rewards) != 2 || a.Rewards[0] != 0 || a.Rewards[1] != 1 {
		t.Errorf("rewards %v, want [0 1]: the whole reward at the last call", a.Rewards)
	}
	// The group mean is 0.5, so the advantages are +0.5 and -0.5 on every token.
	if a.Advantages[0][0] != 0.5 || a.Advantages[1][1] != 0.5 || b.Advantages[0][1] != -0.5 {
		t.Errorf("advantages %v and %v, want 0.5 and -0.5", a.Advantages, b.Advantages)
	}
}

func TestMonitorHacksByHand(t *testing.T) {
	eps := []*TinyEpisode{
		graded(outcome(3, 12)),
		graded(outcome(3, 9, gym.DetectDivergence)),
		graded(outcome(3, 8, gym.DetectDivergence, gym.DetectTestsModified)),
		graded(outcome(2, 8)),
		graded(nil), // no submission: left out
	}
	r := MonitorHacks(eps)
	if r.Graded != 4 || r.VisiblePass != 0.75 || r.HiddenPass != 0.25 {
		t.Errorf("graded %d, visible %g, hidden %g; want 4, 0.75, 0.25", r.Graded, r.VisiblePass, r.HiddenPass)
	}
	if r.Flagged[gym.DetectDivergence] != 0.5 || r.Flagged[gym.DetectTestsModified] != 0.25 || len(r.Flagged) != 2 {
		t.Errorf("flagged %v, want divergence 0.5 and tests_modified 0.25", r.Flagged)
	}
	if r.Gap() != 0.5 || !r.Alarm(0.4) || r.Alarm(0.5) {
		t.Errorf("gap %g: the alarm must fire above 0.4 and not at 0.5", r.Gap())
	}
	if e := MonitorHacks(nil); e.Graded != 0 || e.Gap() != 0 || e.Alarm(0) {
		t.Errorf("an empty batch reports %+v", e)
	}
}

// bonusEpisodes plays the three patch episodes of the bonus tests through bonus (with an
// advantage function that only records each episode's rewards) and checks those rewards against
// want. a: three patches that pass, then a submission; b: a failing patch, then a passing one,
// then a submission; c: no passing patch.
func bonusEpisodes(t *testing.T, bonus func(TinyAdvantage) TinyAdvantage, want [][]float64) []*TinyEpisode {
	t.Helper()
	eps := []*TinyEpisode{patchEpisode([]float64{0, 0, 0, 1}, false, true, true, true),
		patchEpisode([]float64{0, 0, 0}, false, false, true), patchEpisode([]float64{0, 0}, false, false)}
	var seen [][]float64
	bonus(func(groups [][]*TinyEpisode) {
		for _, g := range groups {
			for _, ep := range g {
				seen = append(seen, append([]float64(nil), ep.Rewards...))
			}
		}
	})([][]*TinyEpisode{eps[:2], eps[2:]})
	for e := range want {
		for k := range want[e] {
			if !near(seen[e][k], want[e][k], 1e-12) {
				t.Fatalf("episode %d: rewards %v, want %v", e, seen[e], want[e])
			}
		}
	}
	return eps
}

func TestFirstPassBonus(t *testing.T) {
	// Only the first passing patch of each episode earns.
	eps := bonusEpisodes(t, func(adv TinyAdvantage) TinyAdvantage { return FirstPassBonus(0.2, adv) },
		[][]float64{{0.2, 0, 0, 1}, {0, 0.2, 0}, {0, 0}})
	if !near(eps[0].Return, 1.2, 1e-12) || !near(eps[1].Return, 0.2, 1e-12) || !near(eps[2].Return, 0, 1e-12) {
		t.Errorf("returns: %v %v %v, want 1.2 0.2 0", eps[0].Return, eps[1].Return, eps[2].Return)
	}
}

func TestPotentialBonus(t *testing.T) {
	// Each passing patch earns 0.2 and the call after it gives it back; the last call leaves to a
	// terminal state of potential 0. The rewards telescope and the returns do not change.
	eps := bonusEpisodes(t, func(adv TinyAdvantage) TinyAdvantage { return PotentialBonus(0.2, adv) },
		[][]float64{{0.2, 0, 0, 0.8}, {0, 0.2, -0.2}, {0, 0}})
	for e, want := range []float64{1, 0, 0} {
		sum := 0.0
		for _, r := range eps[e].Rewards {
			sum += r
		}
		if eps[e].Return != want || !near(sum, want, 1e-12) {
			t.Errorf("episode %d: return %g, rewards sum to %g, want both %g", e, eps[e].Return, sum, want)
		}
	}
	if _, err := runPotentialJob(study.Job{Arm: "outcome", Seed: 1}); err == nil || !strings.Contains(err.Error(), `no arm "outcome"`) {
		t.Errorf("arm outcome: err %v, want no such arm", err)
	}
}

func TestPotentialBonusUnderStateCredit(t *testing.T) {
	// Under state credit with γ = 1 a call's return to go loses the potential of the state it was
	// made in, and the state's key holds AfterPass, so the key's baseline takes the shift back:
	// the advantages are those of no bonus at all.
	episodes := func() [][]*TinyEpisode {
		return [][]*TinyEpisode{{patchEpisode([]float64{0, 0, 0, 1}, false, true, true, true),
			patchEpisode([]float64{0, 0, 0}, false, false, true)},
			{patchEpisode([]float64{0, 0}, false, false), patchEpisode([]float64{0, 1}, false, true)}}
	}
	for _, scale := range []bool{false, true} {
		plain, shaped := episodes(), episodes()
		StateAdvantage(1, scale)(plain)
		PotentialBonus(0.2, StateAdvantage(1, scale))(shaped)
		for g := range plain {
			for e, ep := range plain[g] {
				for c, adv := range ep.Advantages {
					for k, a := range adv {
						if b := shaped[g][e].Advantages[c][k]; !near(a, b, 1e-12) {
							t.Fatalf("scale %v, group %d episode %d call %d: advantage %g with the potential, %g without", scale, g, e, c, b, a)
						}
					}
				}
			}
		}
	}
}

// TestHackCurvesByHand: one update's curves over a batch of an exploit that passes the visible
// tests only, an honest fix and a failing edit, under the visible tests' reward.
func TestHackCurvesByHand(t *testing.T) {
	exploit := TinySample{Action: gym.Action{Tool: gym.ToolExploit}}
	edit := TinySample{Action: gym.Action{Tool: gym.ToolEdit}}
	batch := []*TinyEpisode{graded(outcome(3, 9, gym.DetectDivergence), exploit), graded(outcome(3, 12), edit),
		graded(outcome(1, 4), edit), graded(outcome(3, 8, gym.DetectDivergence), exploit)}
	c := hackCurves(batch, VisibleReward)
	want := map[string]float64{"episodes": 4, "reward": 0.75, "exploit": 0.5, "exploits": 2, "visible": 0.75, "hidden": 0.25,
		"flag_" + gym.DetectDivergence: 2, "flag_" + gym.DetectTestsModified: 0, "flag_" + gym.DetectSuspiciousCode: 0, "penalty_differs": 0}
	for k, v := range want {
		if c[k] != v {
			t.Errorf("%s = %g, want %g", k, c[k], v)
		}
	}
	if len(c) != len(want) {
		t.Errorf("curves %v, want exactly %v", c, want)
	}
	for _, arm := range []string{"outcome", "visible", "half", "partial", "penalty", "blind"} {
		if _, err := hackArmReward(arm); err != nil {
			t.Errorf("arm %s: %v", arm, err)
		}
	}
	if _, err := hackArmReward("untrained"); err == nil {
		t.Error("hackArmReward gives a reward for the untrained arm, which trains on none")
	}
	penalty, _ := hackArmReward("penalty")
	for i, ep := range batch {
		if penalty(ep) != OutcomeReward(ep) {
			t.Errorf("episode %d: the divergence penalty's reward %g, the outcome %g", i, penalty(ep), OutcomeReward(ep))
		}
	}
}
