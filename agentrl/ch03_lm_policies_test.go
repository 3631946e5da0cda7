package agentrl

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenticrl/course/checkpoint"
	"github.com/agenticrl/course/gym"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

func near(a, b, tol float64) bool {
	if math.IsInf(a, -1) || math.IsInf(b, -1) {
		return math.IsInf(a, -1) && math.IsInf(b, -1)
	}
	return math.Abs(a-b) <= tol
}

func TestLogSoftmax(t *testing.T) {
	ln := math.Log
	for _, c := range []struct {
		name   string
		logits []float64
		want   []float64
	}{
		{"two", []float64{0, ln(3)}, []float64{ln(0.25), ln(0.75)}},
		{"uniform", []float64{5, 5, 5, 5}, []float64{ln(0.25), ln(0.25), ln(0.25), ln(0.25)}},
		{"shift-invariant and no overflow", []float64{1000, 1000 + ln(3)}, []float64{ln(0.25), ln(0.75)}},
		{"one", []float64{-7}, []float64{0}},
	} {
		got := LogSoftmax(c.logits)
		for i := range c.want {
			if !near(got[i], c.want[i], 1e-12) {
				t.Errorf("%s: LogSoftmax(%v) = %v, want %v", c.name, c.logits, got, c.want)
				break
			}
		}
	}
}

func TestSamplingLogProbs(t *testing.T) {
	ln, inf := math.Log, math.Inf(-1)
	probs := []float64{ln(0.5), ln(0.3), ln(0.2)}
	for _, c := range []struct {
		name   string
		logits []float64
		temp   float64
		topK   int
		topP   float64
		want   []float64
	}{
		{"temperature 1, nothing cut", probs, 1, 0, 0, []float64{ln(0.5), ln(0.3), ln(0.2)}},
		// p ∝ [1, 2] at T = 1 becomes ∝ [1, 4] at T = 0.5 and ∝ [1, √2] at T = 2.
		{"colder", []float64{0, ln(2)}, 0.5, 0, 0, []float64{ln(0.2), ln(0.8)}},
		{"hotter", []float64{0, ln(2)}, 2, 0, 0, []float64{ln(1 / (1 + math.Sqrt2)), ln(math.Sqrt2 / (1 + math.Sqrt2))}},
		{"top-1", probs, 1, 1, 0, []float64{0, inf, inf}},
		{"top-2", probs, 1, 2, 0, []float64{ln(0.625), ln(0.375), inf}},
		{"top-p 0.6 keeps two", probs, 1, 0, 0.6, []float64{ln(0.625), ln(0.375), inf}},
		{"top-p 0.9 keeps three", probs, 1, 0, 0.9, []float64{ln(0.5), ln(0.3), ln(0.2)}},
		{"top-p 0.3 keeps one", probs, 1, 0, 0.3, []float64{0, inf, inf}},
		{"unsorted input", []float64{ln(0.2), ln(0.5), ln(0.3)}, 1, 0, 0.6, []float64{inf, ln(0.625), ln(0.375)}},
		{"ties broken by id", []float64{1, 1, 1}, 1, 2, 0, []float64{ln(0.5), ln(0.5), inf}},
		// top-k first, then top-p on the renormalized survivors: 0.625 < 0.7, so both stay.
		{"top-k then top-p", probs, 1, 2, 0.7, []float64{ln(0.625), ln(0.375), inf}},
	} {
		got := SamplingLogProbs(c.logits, c.temp, c.topK, c.topP)
		for i := range c.want {
			if !near(got[i], c.want[i], 1e-12) {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

// TestTemperatureRelation checks the identity a trainer needs to undo a temperature: the sampling
// log-probs are l/T renormalized, where l are the model's own log-probs at temperature 1.
func TestTemperatureRelation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	logits := make([]float64, 50)
	for i := range logits {
		logits[i] = 3 * rng.NormFloat64()
	}
	l := LogSoftmax(logits)
	for _, temp := range []float64{0.3, 0.7, 1, 1.5} {
		scaled := make([]float64, len(l))
		for i := range l {
			scaled[i] = l[i] / temp
		}
		want := LogSoftmax(scaled)
		got := SamplingLogProbs(logits, temp, 0, 0)
		for i := range got {
			if !near(got[i], want[i], 1e-9) {
				t.Fatalf("T = %g, token %d: %g, want %g", temp, i, got[i], want[i])
			}
		}
	}
}

func TestSamplingLogProbsPanicsWithoutTemperature(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("temperature 0 did not panic")
		}
	}()
	SamplingLogProbs([]float64{1, 2}, 0, 0, 0)
}

func TestTinyVocab(t *testing.T) {
	seen := map[string]bool{}
	for i, name := range TinyVocab {
		if seen[name] {
			t.Errorf("token %q appears twice", name)
		}
		seen[name] = true
		if TinyToken(name) != i {
			t.Errorf("TinyToken(%q) = %d, want %d", name, TinyToken(name), i)
		}
	}
	if TinyToken("<pad>") != 0 {
		t.Error("<pad> is not id 0")
	}
	for _, c := range gym.Vocab {
		if !seen["code:"+c] {
			t.Errorf("gym code class %q has no token", c)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("TinyToken of an unknown name did not panic")
		}
	}()
	TinyToken("L99")
}

func names(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = TinyVocab[id]
	}
	return strings.Join(parts, " ")
}

// smallObs is a three-line module with no edits on line 1, three on line 2 (two of class
// "int+1") and one on line 3.
func smallObs() gym.StructObs {
	return gym.StructObs{
		Code: gym.EncodeCode("def f(x):\n    y = x + 1 + 2\n    return y\n"),
		Menu: [][]gym.MenuEdit{nil,
			{{Line: 2, Class: "int+1"}, {Line: 2, Class: "op:-"}, {Line: 2, Class: "int+1"}},
			{{Line: 3, Class: "return"}}},
		TurnsLeft: 6,
	}
}

func TestEncodeObservation(t *testing.T) {
	obs := smallObs()
	want := "<bos> <tests> <untested> last=none left=6 L1 code:def code:name0 code:( code:name1 code:) code:: menu=0 " +
		"L2 <ind> code:name2 code:= code:name1 code:+ code:1 code:+ code:2 menu=3 " +
		"L3 <ind> code:return code:name2 menu=1"
	if got := names(EncodeObservation(obs)); got != want {
		t.Errorf("before any test:\n got %s\nwant %s", got, want)
	}
	obs.Tool, obs.TurnsLeft = gym.ToolTest, 40
	obs.Tests = gym.TestSummary{Ran: true, Stale: true, Passed: 2, Total: 3, FirstFail: 1, Symptom: gym.SymWrongValue}
	want = "<bos> <tests> pass=2 total=3 fail@1 sym=wrong_value <stale> last=test left=12 L1 "
	if got := names(EncodeObservation(obs)); !strings.HasPrefix(got, want) {
		t.Errorf("after a test (counts saturate at 12):\n got %s\nwant prefix %s", got, want)
	}
}

// allowedAfter spells the tokens TinyAllowed lets through after a prefix of token names.
func allowedAfter(obs gym.StructObs, prefix []string) string {
	var ids, got []int
	for _, p := range prefix {
		ids = append(ids, TinyToken(p))
	}
	for id, ok := range TinyAllowed(obs, ids) {
		if ok {
			got = append(got, id)
		}
	}
	return names(got)
}

func TestTinyAllowed(t *testing.T) {
	obs := smallObs()
	tok := TinyToken
	for _, c := range []struct {
		prefix []string
		want   string
	}{
		{nil, "CALL"},
		{[]string{"CALL"}, "READ TEST SUBMIT EDIT"},
		{[]string{"CALL", "TEST"}, "END"},
		{[]string{"CALL", "EDIT"}, "op:- int+1 return"}, // the classes the menu has, in vocabulary order
		{[]string{"CALL", "EDIT", "int+1"}, "L2"},
		{[]string{"CALL", "EDIT", "return"}, "L3"},
		{[]string{"CALL", "EDIT", "int+1", "L2"}, "M0 M1"}, // two edits of the class on the line
		{[]string{"CALL", "EDIT", "op:-", "L2"}, "M0"},
		{[]string{"CALL", "EDIT", "op:-", "L3"}, ""},
		{[]string{"CALL", "EDIT", "int+1", "L2", "M1"}, "END"},
		{[]string{"CALL", "EDIT", "int+1", "L2", "M1", "END"}, ""},
		{[]string{"CALL", "SUBMIT", "END"}, ""},
	} {
		if got := allowedAfter(obs, c.prefix); got != c.want {
			t.Errorf("after %v: allowed %q, want %q", c.prefix, got, c.want)
		}
	}
	// Patches already tried (gym.Config.TryPatches) are masked; ranks keep naming menu positions.
	tried := obs
	tried.Tried = []gym.MenuRef{{Line: 2, Index: 0}, {Line: 3, Index: 0}}
	for _, c := range []struct {
		prefix []string
		want   string
	}{
		{[]string{"CALL", "EDIT"}, "op:- int+1"},
		{[]string{"CALL", "EDIT", "int+1", "L2"}, "M1"},
	} {
		if got := allowedAfter(tried, c.prefix); got != c.want {
			t.Errorf("with %v tried, after %v: allowed %q, want %q", tried.Tried, c.prefix, got, c.want)
		}
	}
	tried.Tried = append(tried.Tried, gym.MenuRef{Line: 2, Index: 1}, gym.MenuRef{Line: 2, Index: 2})
	if TinyAllowed(tried, []int{tok("CALL")})[tok("EDIT")] {
		t.Error("EDIT allowed with every patch tried")
	}
	// Under the patch interface read and test return nothing new, and there is nothing to
	// submit before a patch was tried.
	patches := obs
	patches.Patches = true
	if got := allowedAfter(patches, []string{"CALL"}); got != "EDIT" {
		t.Errorf("under patches, before any patch: allowed %q, want EDIT", got)
	}
	// There a call starts with the verdict of the latest test run, not CALL.
	if got := allowedAfter(patches, nil); got != "<untested>" {
		t.Errorf("under patches, before any test: first token %q, want <untested>", got)
	}
	patches.Tried = []gym.MenuRef{{Line: 2, Index: 0}}
	patches.Tool, patches.Tests = gym.ToolEdit, gym.TestSummary{Ran: true, Passed: 3, Total: 3}
	if got := allowedAfter(patches, nil); got != "sym=none" {
		t.Errorf("under patches, after a passing patch: first token %q, want sym=none", got)
	}
	if got := allowedAfter(patches, []string{"sym=none"}); got != "SUBMIT EDIT" {
		t.Errorf("under patches, after a patch: allowed %q, want SUBMIT EDIT", got)
	}
	submit := gym.Action{Tool: gym.ToolSubmit}
	toks, err := ActionTokens(patches, submit)
	if err != nil || names(toks) != "sym=none SUBMIT END" {
		t.Fatalf("ActionTokens under patches: %v, %v", names(toks), err)
	}
	if a, err := DecodeAction(patches, toks); err != nil || a.Tool != gym.ToolSubmit {
		t.Errorf("DecodeAction(%v) = %v, %v", names(toks), a, err)
	}
	if _, err := DecodeAction(patches, []int{tok("CALL"), tok("SUBMIT"), tok("END")}); err == nil {
		t.Error("DecodeAction accepted CALL under patches, where a call starts with the verdict")
	}
	noEdits := obs
	noEdits.Menu = [][]gym.MenuEdit{nil, nil}
	if TinyAllowed(noEdits, []int{tok("CALL")})[tok("EDIT")] {
		t.Error("EDIT allowed in a state whose menu is empty")
	}
}

// realObs returns the first observation of a few BugFix tasks and their well-formed actions.
func realObs(t *testing.T, n int) ([]gym.StructObs, [][]gym.Action) {
	t.Helper()
	tasks, err := gym.LoadTasks("../datasets/bugfix")
	if err != nil {
		t.Fatal(err)
	}
	tasks = gym.Filter(tasks, gym.Dev, "")
	var obs []gym.StructObs
	var acts [][]gym.Action
	for _, task := range tasks[:n] {
		env := gym.NewEnv(nil, gym.Config{MaxTurns: 6})
		obs = append(obs, env.Reset(task).Struct)
		acts = append(acts, env.Actions())
	}
	return obs, acts
}

func TestActionTokensRoundTrip(t *testing.T) {
	obs, acts := realObs(t, 3)
	for i, as := range acts {
		for _, a := range as {
			toks, err := ActionTokens(obs[i], a)
			if err != nil {
				t.Fatalf("%s: %v", a, err)
			}
			back, err := DecodeAction(obs[i], toks)
			if err != nil || back.String() != a.String() {
				t.Errorf("%s -> %s -> %s (%v)", a, names(toks), back, err)
			}
		}
	}
	// The ranks count within a class: the second int+1 of line 2 is menu index 2.
	toks, err := ActionTokens(smallObs(), gym.Action{Tool: gym.ToolEdit, Menu: &gym.MenuRef{Line: 2, Index: 2}})
	if want := "CALL EDIT int+1 L2 M1 END"; err != nil || names(toks) != want {
		t.Errorf("menu edit 2 of line 2: %q (%v), want %q", names(toks), err, want)
	}
	for _, a := range []gym.Action{
		{Tool: gym.ToolEdit, Start: 1, End: 1},                       // free text
		{Tool: gym.ToolEdit, Menu: &gym.MenuRef{Line: 1, Index: 0}},  // line 1 has no edits
		{Tool: gym.ToolEdit, Menu: &gym.MenuRef{Line: 2, Index: 3}},  // past the menu
		{Tool: gym.ToolEdit, Menu: &gym.MenuRef{Line: 17, Index: 0}}, // past the lines
	} {
		if toks, err := ActionTokens(smallObs(), a); err == nil {
			t.Errorf("%s got tokens %q", a, names(toks))
		}
	}
}

func TestDecodeActionRejectsMalformed(t *testing.T) {
	for _, c := range []string{
		"", "TEST END", "CALL", "CALL TEST", "CALL TEST L1 END", "CALL EDIT END",
		"CALL EDIT L2 M1 END", "CALL EDIT int+1 L2 END", "CALL EDIT int+1 M1 L2 END", "CALL EDIT L2 int+1 M1 END",
		"CALL EDIT int+1 L2 M1", "CALL END", "CALL L1 M0 END END",
		// well-formed, but naming edits the state's menu does not have
		"CALL EDIT int+1 L2 M2 END", "CALL EDIT op:- L3 M0 END", "CALL EDIT int+1 L1 M0 END", "CALL EDIT swap L9 M0 END",
	} {
		var toks []int
		for _, f := range strings.Fields(c) {
			toks = append(toks, TinyToken(f))
		}
		if a, err := DecodeAction(smallObs(), toks); err == nil {
			t.Errorf("%q decoded to %s", c, a)
		}
	}
	if _, err := DecodeAction(smallObs(), []int{-1, 1 << 20}); err == nil {
		t.Error("out-of-range ids decoded")
	}
}

func newTestAgent(t *testing.T, scale float64) *TinyAgent {
	t.Helper()
	cfg := DefaultTinyAgentConfig()
	cfg.InitScale, cfg.Seed = scale, 7
	a, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMaskedSamplingIsAlwaysValid: with the mask, every sampled call is one of the state's
// well-formed actions; without it, the same random model writes malformed calls.
func TestMaskedSamplingIsAlwaysValid(t *testing.T) {
	a := newTestAgent(t, 1)
	obs, acts := realObs(t, 5)
	malformed := 0
	for seed := range uint64(8) {
		for _, temp := range []float64{1, 3} {
			samples, err := a.Sample(obs, TinySampleOptions{Temperature: temp, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range samples {
				valid := slices.ContainsFunc(acts[i], func(x gym.Action) bool { return x.String() == s.Action.String() })
				if s.Err != nil || !valid {
					t.Fatalf("masked call %s decoded to %s (%v), not a valid action", names(s.Tokens), s.Action, s.Err)
				}
			}
			free, err := a.Sample(obs, TinySampleOptions{Temperature: temp, Seed: seed, Unmasked: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range free {
				if s.Err != nil {
					malformed++
				}
			}
		}
	}
	if malformed == 0 {
		t.Error("unmasked sampling never produced a malformed call: the masked check above proves little")
	}
}

func TestCacheMatchesFullRecomputation(t *testing.T) {
	a := newTestAgent(t, 0.5)
	obs, _ := realObs(t, 6)
	for _, o := range []TinySampleOptions{{Temperature: 1, Seed: 3}, {Temperature: 2, Seed: 4, Unmasked: true}, {Seed: 5}} {
		cached, err := a.Sample(obs, o)
		if err != nil {
			t.Fatal(err)
		}
		o.NoCache = true
		full, err := a.Sample(obs, o)
		if err != nil {
			t.Fatal(err)
		}
		for i := range cached {
			if !slices.Equal(cached[i].Tokens, full[i].Tokens) {
				t.Fatalf("%+v row %d: cached %s, recomputed %s", o, i, names(cached[i].Tokens), names(full[i].Tokens))
			}
			// Both paths run the same decoder over the same tokens in the same order: the cache
			// may change what is computed again, never the result.
			if !slices.Equal(cached[i].LogProbs, full[i].LogProbs) || !slices.Equal(cached[i].SampleLogProbs, full[i].SampleLogProbs) {
				t.Errorf("%+v row %d: cached %v/%v, recomputed %v/%v", o, i, cached[i].LogProbs,
					cached[i].SampleLogProbs, full[i].LogProbs, full[i].SampleLogProbs)
			}
		}
	}
}

// TestTrainerLogProbsMatchSampler: the log-probs a trainer recomputes in one forward pass equal
// the sampler's, token by token.
func TestTrainerLogProbsMatchSampler(t *testing.T) {
	a := newTestAgent(t, 0.5)
	obs, _ := realObs(t, 5)
	samples, err := a.Sample(obs, TinySampleOptions{Temperature: 1, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.LogProbs(samples)
	if err != nil {
		t.Fatal(err)
	}
	nonzero := false
	for i, s := range samples {
		for j := range s.Tokens {
			if !near(got[i][j], s.LogProbs[j], 1e-4) || !near(s.LogProbs[j], s.SampleLogProbs[j], 1e-12) {
				t.Errorf("row %d token %d: trainer %g, sampler %g / %g", i, j, got[i][j], s.LogProbs[j], s.SampleLogProbs[j])
			}
			nonzero = nonzero || s.LogProbs[j] < -0.1
		}
	}
	if !nonzero {
		t.Error("every log-prob is ~0: the comparison proves little")
	}
}

// TestCallDistributionSumsToOne: the log-probability of a call is the sum of its tokens'
// log-probabilities, and under the mask these calls form a distribution: summing exp(Σ log π)
// over every well-formed call of a state gives 1.
func TestCallDistributionSumsToOne(t *testing.T) {
	a := newTestAgent(t, 0.5)
	obs, acts := realObs(t, 2)
	for i := range obs {
		var calls []TinySample
		for _, act := range acts[i] {
			toks, err := ActionTokens(obs[i], act)
			if err != nil {
				t.Fatal(err)
			}
			s := TinySample{Prompt: EncodeObservation(obs[i]), Tokens: toks}
			for j := range toks {
				s.Allowed = append(s.Allowed, TinyAllowed(obs[i], toks[:j]))
			}
			calls = append(calls, s)
		}
		lps, err := a.LogProbs(calls)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, lp := range lps {
			sum := 0.0
			for _, x := range lp {
				sum += x
			}
			total += math.Exp(sum)
		}
		if math.Abs(total-1) > 1e-4 {
			t.Errorf("state %d: the %d calls have total probability %g, want 1", i, len(calls), total)
		}
	}
}

func TestPickTemperature(t *testing.T) {
	logits := []float32{2, -1, 0.5, 3, 1}
	allowed := []bool{true, false, true, false, true}
	masked := []float64{2, 0.5, 1} // the allowed logits, in id order
	ids := []int{0, 2, 4}
	for _, temp := range []float64{0.5, 1, 2} {
		want := LogSoftmax(masked)
		wantS := SamplingLogProbs(masked, temp, 0, 0)
		counts := map[int]int{}
		rng := rand.New(rand.NewPCG(9, 9))
		const n = 20000
		for range n {
			tok, lp, slp := tinyPick(logits, allowed, temp, rng)
			k := slices.Index(ids, tok)
			if k < 0 {
				t.Fatalf("T = %g: picked disallowed token %d", temp, tok)
			}
			if !near(lp, want[k], 1e-6) || !near(slp, wantS[k], 1e-6) {
				t.Fatalf("T = %g token %d: lp %g slp %g, want %g %g", temp, tok, lp, slp, want[k], wantS[k])
			}
			counts[k]++
		}
		for k := range ids {
			if f := float64(counts[k]) / n; math.Abs(f-math.Exp(wantS[k])) > 0.02 {
				t.Errorf("T = %g: token %d drawn %.3f of the time, its sampling probability is %.3f", temp, ids[k], f, math.Exp(wantS[k]))
			}
		}
	}
	tok, lp, slp := tinyPick(logits, allowed, 0, nil)
	if tok != 0 || slp != 0 || !near(lp, LogSoftmax(masked)[0], 1e-6) {
		t.Errorf("greedy: token %d, lp %g, slp %g", tok, lp, slp)
	}
}

// TestLogProbsGradient differentiates the summed log-probs through LogProbsGraph, as a
// policy-gradient trainer does, and checks the largest entries against central differences.
func TestLogProbsGradient(t *testing.T) {
	a := newTestAgent(t, 0.3)
	obs, _ := realObs(t, 3)
	samples, err := a.Sample(obs, TinySampleOptions{Temperature: 1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := a.Batch(samples)
	if err != nil {
		t.Fatal(err)
	}
	weights := []string{"head", "layer0/qkv", "layer1/mlp1", "pos_emb", "tok_emb", "layer0/ln1_g"}
	exec, err := mlmodel.NewExec(a.backend, a.Store, func(_ *mlmodel.Scope, ids, at, targets, allowed *graph.Node) []*graph.Node {
		a.Store.SetTraining(ids.Graph(), true)
		loss := graph.ReduceAllSum(a.LogProbsGraph(ids, at, targets, allowed))
		ws := make([]*graph.Node, len(weights))
		for i, w := range weights {
			ws[i] = a.weight(ids.Graph(), w)
		}
		return graph.Gradient(loss, ws...)
	})
	if err != nil {
		t.Fatal(err)
	}
	grads, err := exec.Call(batch.IDs, batch.At, batch.Targets, batch.Allowed)
	if err != nil {
		t.Fatal(err)
	}
	total := func() float64 {
		lps, err := a.LogProbs(samples)
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, row := range lps {
			for _, x := range row {
				s += x
			}
		}
		return s
	}
	for k, name := range weights {
		v := a.Store.GetVariable("/tiny/" + name)
		g := tensors.MustCopyFlatData[float32](grads[k])
		i := 0
		for j := range g {
			if math.Abs(float64(g[j])) > math.Abs(float64(g[i])) {
				i = j
			}
		}
		if g[i] == 0 {
			t.Fatalf("%s: gradient is zero everywhere", name)
		}
		set := func(x float32) {
			flat := tensors.MustCopyFlatData[float32](v.MustValue())
			flat[i] = x
			v.MustSetValue(tensors.FromFlatDataAndDimensions(flat, v.Shape().Dimensions...))
		}
		w := tensors.MustCopyFlatData[float32](v.MustValue())[i]
		const h = 1e-2
		set(w + h)
		up := total()
		set(w - h)
		down := total()
		set(w)
		fd := (up - down) / (2 * h)
		if math.Abs(fd-float64(g[i])) > 3e-2*math.Abs(fd)+2e-3 {
			t.Errorf("%s[%d]: gradient %g, finite difference %g", name, i, g[i], fd)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	a := newTestAgent(t, 0.5)
	obs, _ := realObs(t, 3)
	o := TinySampleOptions{Temperature: 1, Seed: 5}
	before, err := a.Sample(obs, o)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "agent")
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := LoadTinyAgent(path)
	if err != nil {
		t.Fatal(err)
	}
	after, err := b.Sample(obs, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range before {
		if !slices.Equal(before[i].Tokens, after[i].Tokens) || !slices.Equal(before[i].LogProbs, after[i].LogProbs) {
			t.Errorf("row %d: before %s %v, after loading %s %v", i, names(before[i].Tokens), before[i].LogProbs,
				names(after[i].Tokens), after[i].LogProbs)
		}
	}
	// Same seed, same weights; another seed, other weights.
	same := newTestAgent(t, 0.5)
	cfg := a.Config
	cfg.Seed++
	other, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	head := func(x *TinyAgent) []float32 {
		return tensors.MustCopyFlatData[float32](x.Store.GetVariable("/tiny/head").MustValue())
	}
	if !slices.Equal(head(a), head(same)) || slices.Equal(head(a), head(other)) {
		t.Error("initial weights do not follow the seed")
	}

	// A checkpoint written for another vocabulary, or whose weights do not fit its configuration,
	// is refused with what is wrong.
	bad := filepath.Join(t.TempDir(), "bad")
	w, err := checkpoint.Create(bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(0, tinyMeta{Config: cfg, Vocab: TinyVocab[:10]}); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTinyAgent(bad); err == nil || !strings.Contains(err.Error(), "another vocabulary (10 tokens") {
		t.Errorf("loading a checkpoint of another vocabulary: %v", err)
	}
	manifest := filepath.Join(path, checkpoint.ManifestFile)
	raw, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["meta"].(map[string]any)["Config"].(map[string]any)["Layers"] = a.Config.Layers + 1
	if raw, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTinyAgent(path); err == nil || !strings.Contains(err.Error(), "weights do not match the config") {
		t.Errorf("loading weights for another number of layers: %v", err)
	}
}

func TestSampleRefusesTooLongPrompts(t *testing.T) {
	cfg := DefaultTinyAgentConfig()
	cfg.Context = 16
	a, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	obs, _ := realObs(t, 1)
	if _, err := a.Sample(obs, TinySampleOptions{Temperature: 1}); err == nil || !strings.Contains(err.Error(), "context") {
		t.Errorf("a prompt longer than the context: %v", err)
	}
	if _, err := NewTinyAgent(TinyAgentConfig{Dim: 10, Layers: 1, Heads: 3, Context: 64}); err == nil {
		t.Error("Dim not a multiple of Heads was accepted")
	}
}

func TestNumParameters(t *testing.T) {
	cfg := TinyAgentConfig{Dim: 8, Layers: 1, Heads: 2, Context: 16, Seed: 1}
	a, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := len(TinyVocab)
	// embeddings, one layer (two norms, qkv, out, 2-layer MLP), final norm, head.
	want := v*8 + 16*8 + (2*8 + 8*24 + 24 + 8*8 + 8 + 2*8 + 8*32 + 32 + 32*8 + 8) + 2*8 + 8*v
	if got := a.NumParameters(); got != want {
		t.Errorf("NumParameters = %d, want %d", got, want)
	}
}

// TestPolicyGraphEntropy checks the entropy PolicyGraph returns against −Σ π log π computed
// from LogProbs of every allowed token, one target at a time.
func TestPolicyGraphEntropy(t *testing.T) {
	agent, err := NewTinyAgent(TinyAgentConfig{Dim: 16, Layers: 1, Heads: 2, Context: 64, InitScale: 0.5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	obs := gym.StructObs{Code: []gym.CodeLine{{Tokens: []int{3, 4}}}, Menu: [][]gym.MenuEdit{{{Line: 1}, {Line: 1}}}, TurnsLeft: 3}
	got, err := agent.Sample([]gym.StructObs{obs}, TinySampleOptions{Temperature: 1, Seed: 1, Unmasked: true})
	if err != nil {
		t.Fatal(err)
	}
	s := got[0]
	b, err := agent.Batch([]TinySample{s})
	if err != nil {
		t.Fatal(err)
	}
	exec, err := mlmodel.NewExec(agent.backend, agent.Store, func(_ *mlmodel.Scope, ids, at, targets, allowed *graph.Node) []*graph.Node {
		agent.Store.SetTraining(ids.Graph(), true)
		lp, ent := agent.PolicyGraph(ids, at, targets, allowed)
		return []*graph.Node{lp, ent}
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Call(b.IDs, b.At, b.Targets, b.Allowed)
	if err != nil {
		t.Fatal(err)
	}
	ent := tensors.MustCopyFlatData[float32](res[1])
	// Every token of the vocabulary, as target of position 0: log π over all of them.
	var variants []TinySample
	for v := range TinyVocab {
		c := s
		c.Tokens = []int{v}
		c.Allowed = s.Allowed[:1]
		variants = append(variants, c)
	}
	lps, err := agent.LogProbs(variants)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, lp := range lps {
		want -= math.Exp(lp[0]) * lp[0]
	}
	if math.Abs(float64(ent[0])-want) > 1e-4*math.Max(1, want) || want < 0.5 {
		t.Fatalf("entropy at position 0: PolicyGraph %.6f, from the log-probs %.6f", ent[0], want)
	}
	if ent[TinyMaxCall-1] != 0 && len(s.Tokens) < TinyMaxCall {
		t.Errorf("padding slot has entropy %g, want 0", ent[TinyMaxCall-1])
	}
}

// TestBatchToShapes checks that BatchTo pads to the shape asked for and refuses one the samples
// do not fit in.
func TestBatchToShapes(t *testing.T) {
	a, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := TinySample{Prompt: make([]int, 40), Tokens: []int{TinyToken("CALL"), TinyToken("SUBMIT"), TinyToken("END")}}
	s.Prompt[0] = TinyToken("<bos>")
	for range s.Tokens {
		s.Allowed = append(s.Allowed, make([]bool, len(TinyVocab)))
	}
	b, err := a.BatchTo([]TinySample{s, s}, 5, 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.IDs.Shape().Dimensions; got[0] != 5 || got[1] != 64 || b.Rows != 2 {
		t.Errorf("batch %v with %d real rows, want [5 64] and 2", got, b.Rows)
	}
	for _, c := range []struct {
		rows, width int
		want        string
	}{{1, 0, "do not fit"}, {0, 32, "43 tokens"}, {0, 512, "context is 256"}} {
		if _, err := a.BatchTo([]TinySample{s, s}, c.rows, c.width); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("rows %d, width %d: got %v, want an error with %q", c.rows, c.width, err, c.want)
		}
	}
}

// TestFastGraphMatchesFullPass: HiddenAtGraph gives rowsAt(HiddenGraph) at the positions a
// trainer reads, and an agent with FastGraph set gives the same log-probabilities and the same
// gradient of every weight as the full pass, up to float32 rounding.
func TestFastGraphMatchesFullPass(t *testing.T) {
	obs, _ := realObs(t, 4)
	full, fast := newTestAgent(t, 0.3), newTestAgent(t, 0.3)
	fast.FastGraph = true
	samples, err := full.Sample(obs, TinySampleOptions{Temperature: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := full.Batch(samples)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := full.Config.tinyShapes()
	run := func(a *TinyAgent) []*tensors.Tensor {
		exec, err := mlmodel.NewExec(a.backend, a.Store, func(_ *mlmodel.Scope, ids, at, targets, allowed *graph.Node) []*graph.Node {
			g := ids.Graph()
			a.Store.SetTraining(g, true)
			lp := a.LogProbsGraph(ids, at, targets, allowed)
			ws := make([]*graph.Node, len(names))
			for i, name := range names {
				ws[i] = a.weight(g, name)
			}
			grads := graph.Gradient(graph.ReduceAllSum(lp), ws...)
			return append([]*graph.Node{lp, rowsAt(a.HiddenGraph(ids), at), a.HiddenAtGraph(ids, at)}, grads...)
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Call(batch.IDs, batch.At, batch.Targets, batch.Allowed)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want, got := run(full), run(fast)
	maxDiff := func(a, b *tensors.Tensor) (diff, scale float64) {
		x, y := tensors.MustCopyFlatData[float32](a), tensors.MustCopyFlatData[float32](b)
		for i := range x {
			diff = max(diff, math.Abs(float64(x[i]-y[i])))
			scale = max(scale, math.Abs(float64(x[i])))
		}
		return diff, scale
	}
	if d, s := maxDiff(got[1], got[2]); d > 1e-5*s || s == 0 {
		t.Errorf("HiddenAtGraph differs from HiddenGraph's rows by %g (scale %g)", d, s)
	}
	if d, _ := maxDiff(want[0], got[0]); d > 1e-5 {
		t.Errorf("fast-graph log-probs differ from the full pass's by %g", d)
	}
	for i, name := range names {
		if d, s := maxDiff(want[3+i], got[3+i]); d > 1e-4*s || s == 0 {
			t.Errorf("gradient of %s: the fast graph's differs by %g (scale %g)", name, d, s)
		}
	}
}
