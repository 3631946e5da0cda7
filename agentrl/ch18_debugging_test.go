package agentrl

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/gym"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// healthyLogs is a hand-made run of five updates in which nothing is wrong: entropy falls
// slowly, one update's KL stays small, lengths and gradient norms wander within their bounds.
func healthyLogs() []TinyStepLog {
	var logs []TinyStepLog
	for u := range 5 {
		f := float64(u)
		logs = append(logs, TinyStepLog{Step: u, Episodes: 24, Kept: 24, Solved: 0.1 + 0.05*f, Reward: 0.1 + 0.05*f,
			Calls: 3, Tokens: 15 + f, Entropy: 0.6 - 0.05*f, Loss: -0.01,
			Metrics: map[string]float64{"grad_norm": 0.05 + 0.01*f, "approx_kl_last": 0.01, "kl": 0.1 * f,
				"zero_var": 0.25, "mismatch_out": 0, "hack_gap": 0.05, "clip_frac": 0.02}})
	}
	return logs
}

func TestDiagnoseHealthy(t *testing.T) {
	if got := Diagnose(healthyLogs()); len(got) != 0 {
		t.Errorf("a healthy run raised %v", got)
	}
}

func TestDiagnoseEachSignal(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(logs []TinyStepLog)
		update int
		signal string
	}{
		{"NaN loss", func(l []TinyStepLog) { l[3].Loss = math.NaN() }, 3, SignalNaN},
		{"infinite loss", func(l []TinyStepLog) { l[2].Loss = math.Inf(1) }, 2, SignalNaN},
		// 0.5 × 0.6 = 0.3: 0.29 trips, and only at the first update below.
		{"entropy collapse", func(l []TinyStepLog) { l[2].Entropy, l[3].Entropy = 0.29, 0.01 }, 2, SignalEntropy},
		{"KL in one update", func(l []TinyStepLog) { l[1].Metrics["approx_kl_last"] = 0.06 }, 1, SignalKL},
		{"KL to the reference", func(l []TinyStepLog) { l[4].Metrics["kl"] = 1.2 }, 4, SignalRefKL},
		// 10 × 0.05 = 0.5.
		{"gradient spike", func(l []TinyStepLog) { l[3].Metrics["grad_norm"] = 0.51 }, 3, SignalGradNorm},
		// 2 × 15 = 30 tokens.
		{"length growth", func(l []TinyStepLog) { l[2].Tokens, l[4].Tokens = 31, 40 }, 2, SignalLength},
		// Two updates in a row at 0.75 or more: the alarm is at the second.
		{"stalled groups", func(l []TinyStepLog) {
			l[1].Metrics["zero_var"], l[3].Metrics["zero_var"], l[4].Metrics["zero_var"] = 1, 0.75, 1
		}, 4, SignalZeroVar},
		{"mismatch", func(l []TinyStepLog) { l[2].Metrics["mismatch_out"] = 0.2 }, 2, SignalMismatch},
		{"hack gap", func(l []TinyStepLog) { l[3].Metrics["hack_gap"] = 0.31 }, 3, SignalHack},
		// Reward 0.1 → 0.35 (+0.25 ≥ 0.2) while solved 0.1 → 0.12 (+0.02 < 0.05).
		{"reward without solves", func(l []TinyStepLog) {
			for u := range l {
				l[u].Solved = 0.1 + 0.005*float64(u)
			}
			l[4].Solved = 0.12
			l[4].Reward = 0.35
		}, 4, SignalRewardOnly},
	}
	for _, c := range cases {
		logs := healthyLogs()
		c.edit(logs)
		got := Diagnose(logs)
		if len(got) != 1 || got[0].Update != c.update || got[0].Signal != c.signal || got[0].Message == "" {
			t.Errorf("%s: alarms %v, want one %q at update %d", c.name, got, c.signal, c.update)
		}
	}
}

func TestDiagnoseOrderAndConfig(t *testing.T) {
	logs := healthyLogs()
	logs[3].Metrics["hack_gap"] = 0.5
	logs[3].Entropy = 0.1
	logs[1].Metrics["approx_kl_last"] = 0.2
	var got []string
	for _, a := range Diagnose(logs) {
		got = append(got, a.Signal)
	}
	if want := []string{SignalKL, SignalEntropy, SignalHack}; !reflect.DeepEqual(got, want) {
		t.Errorf("signals %v, want %v (by update, then in the constants' order)", got, want)
	}
	c := DefaultDiagnoseConfig()
	c.MaxHackGap, c.MaxStepKL, c.EntropyFloor = 0.6, 0.3, 0.1
	if a := DiagnoseWith(logs, c); len(a) != 0 {
		t.Errorf("looser thresholds still raised %v", a)
	}
	// Without zero_var, the fraction comes from Kept: 4 of 24 episodes kept, twice in a row.
	logs = healthyLogs()
	for u := range logs {
		delete(logs[u].Metrics, "zero_var")
	}
	logs[2].Kept, logs[3].Kept = 4, 4
	if a := Diagnose(logs); len(a) != 1 || a[0].Signal != SignalZeroVar || a[0].Update != 3 {
		t.Errorf("Kept 4 of 24 twice: %v, want zero_var at update 3", a)
	}
}

func TestDashboardPlots(t *testing.T) {
	// Without loss metrics, only outcome, policy and length have lines; the batch-health chart
	// comes back with the broken run's zero_var.
	plain := healthyLogs()
	for u := range plain {
		plain[u].Metrics = map[string]float64{}
	}
	plots := DashboardPlots("T", "sub", map[string][]TinyStepLog{"A": plain})
	var titles []string
	for _, p := range plots {
		titles = append(titles, p.Title)
	}
	if want := []string{"T: outcome", "T: policy", "T: length"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("charts %v, want %v", titles, want)
	}
	broken := healthyLogs()
	broken[2].Loss = math.NaN()
	plots = DashboardPlots("T", "sub", map[string][]TinyStepLog{"B": broken, "A": plain})
	if len(plots) != 5 {
		t.Fatalf("%d charts, want 5", len(plots))
	}
	opt := plots[4].Option()
	for _, name := range []string{"B: groups without signal", "B: clipped tokens", "B: hack gap"} {
		if !strings.Contains(opt, name) {
			t.Errorf("batch-health chart lacks %q", name)
		}
	}
	if strings.Contains(opt, "B: mismatched tokens") {
		t.Errorf("run B's mismatch is 0 at every update but has a line: %s", opt)
	}
	if strings.Contains(opt, "A: ") {
		t.Errorf("run A has no batch metrics but has a line: %s", opt)
	}
	// A run of one update is drawn as points, since a line needs two.
	plots = DashboardPlots("T", "sub", map[string][]TinyStepLog{"C": plain[:1]})
	if opt := plots[0].Option(); !strings.Contains(opt, `"scatter"`) || strings.Contains(opt, `"line"`) {
		t.Errorf("a run of one update: %s, want points", opt)
	}
	// Run A's lines come before run B's; the NaN update has no entropy.
	if opt := plots[1].Option(); strings.Index(opt, "A: entropy") > strings.Index(opt, "B: entropy") {
		t.Errorf("runs not in name order: %s", opt)
	}
}

// TestWithGradNorm checks the metric on a loss whose gradient is known: loss = Σ w·x over a
// trainable variable w, whose gradient is x = (3, 4), of norm 5, whatever w is.
func TestWithGradNorm(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	store := mlmodel.NewStore()
	if _, err := store.CreateVariable("/w", tensors.FromValue([]float32{1, -2})); err != nil {
		t.Fatal(err)
	}
	exec, err := mlmodel.NewExec(be, store, func(_ *mlmodel.Scope, x *graph.Node) []*graph.Node {
		w := store.GetVariable("/w").ValueGraph(x.Graph())
		base := func(LossInputs) (*graph.Node, []Metric) {
			loss := graph.ReduceAllSum(graph.Mul(w, x))
			return loss, []Metric{{Name: "base", Value: loss}}
		}
		loss, metrics := WithGradNorm(base)(LossInputs{})
		if len(metrics) != 2 || metrics[0].Name != "base" || metrics[1].Name != "grad_norm" {
			t.Errorf("metrics %v, want base's then grad_norm", metrics)
		}
		return []*graph.Node{loss, metrics[1].Value}
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Call([]float32{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	loss, norm := tensors.ToScalar[float32](res[0]), tensors.ToScalar[float32](res[1])
	if math.Abs(float64(loss)-(3-8)) > 1e-6 || math.Abs(float64(norm)-5) > 1e-5 {
		t.Errorf("loss %g, grad_norm %g; want −5 (unchanged) and 5", loss, norm)
	}
}

// TestRecordRun checks RecordRun's two metrics against the update's own groups, that it gives the
// trainer its advantage function back, and that a NaN loss becomes a logged update, not an error.
func TestRecordRun(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	var want []map[string]float64 // what each update's groups say, computed here
	base := func(groups [][]*TinyEpisode) {
		GroupBaseline(false)(groups)
		var eps []*TinyEpisode
		uniform := 0.0
		for _, g := range groups {
			eps = append(eps, g...)
			if g[0].Return == g[1].Return {
				uniform++
			}
		}
		cut := 0.0
		for _, ep := range eps {
			if Truncated(ep) {
				cut++
			}
		}
		want = append(want, map[string]float64{"zero_var": uniform / float64(len(groups)), "hack_gap": MonitorHacks(eps).Gap(),
			"cut": cut / float64(len(eps))})
	}
	cfg := TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:4], Env: gym.Config{MaxTurns: 2, SubmitAtLimit: true},
		Groups: 3, GroupSize: 2, LR: 1e-3, Advantage: base, Loss: PGLoss(0), Seed: 1}
	tr, err := NewTinyTrainer(agent, pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	logs, err := RecordRun(tr, 2)
	if err != nil || len(logs) != 2 || len(want) != 2 {
		t.Fatalf("%d logs, %d updates seen, error %v; want 2, 2, nil", len(logs), len(want), err)
	}
	for u, l := range logs {
		for name, v := range want[u] {
			if l.Metrics[name] != v {
				t.Errorf("update %d: %s %g, want %g", u, name, l.Metrics[name], v)
			}
		}
		if math.IsNaN(l.Loss) || l.Metrics["ratio"] == 0 {
			t.Errorf("update %d: loss %g, metrics %v: the loss's own metrics must stay", u, l.Loss, l.Metrics)
		}
	}
	if tr.Cfg.Advantage == nil || reflect.ValueOf(tr.Cfg.Advantage).Pointer() != reflect.ValueOf(TinyAdvantage(base)).Pointer() {
		t.Error("RecordRun did not give the trainer its advantage function back")
	}
	// HealthHook puts the same signals in the logs that Step returns, from the same streams.
	want = nil
	hooked := cfg
	hooked.Hooks = []TinyHook{HealthHook()}
	fresh, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = NewTinyTrainer(fresh, pool, hooked); err != nil {
		t.Fatal(err)
	}
	for u := range 2 {
		l, err := tr.Step()
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range want[u] {
			if l.Metrics[name] != v || logs[u].Metrics[name] != v {
				t.Errorf("update %d: %s %g with HealthHook, %g with RecordRun; want %g", u, name, l.Metrics[name], logs[u].Metrics[name], v)
			}
		}
	}
	cfg.Loss = func(in LossInputs) (*graph.Node, []Metric) {
		loss, _ := PGLoss(0)(in)
		return graph.Add(loss, graph.Log(graph.Neg(graph.OnesLike(loss)))), nil // log(−1)
	}
	tr, err = NewTinyTrainer(agent, pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	logs, err = RecordRun(tr, 3)
	if err != nil || len(logs) != 1 || !math.IsNaN(logs[0].Loss) {
		t.Fatalf("NaN loss: %d logs, error %v; want one logged update with a NaN loss and no error", len(logs), err)
	}
}

// TestFailureConfig checks that each arm of FailureStudy differs from its control in the setting
// its Change names, that the controls' changes are applied first, and that every arm logs the
// dashboard's signals.
func TestFailureConfig(t *testing.T) {
	tasks, _ := gymFixture(t, 200*time.Millisecond)
	train := gym.Filter(tasks, gym.Train, "")
	cfgs := map[string]TinyTrainConfig{}
	for _, a := range failureArms {
		cfg, err := failureConfig(a.Name, 1, train)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if cfg.Reference == nil || len(cfg.Hooks) != 2 {
			t.Errorf("%s: reference %v, %d hooks; want the initial policy and Refill, HealthHook", a.Name, cfg.Reference, len(cfg.Hooks))
		}
		cfgs[a.Name] = cfg
	}
	h := cfgs["healthy"]
	if h.LR != 3e-3 || h.Env.MaxTurns != 4 || h.Groups != 4 || h.GroupSize != 6 || h.Temperature != 0 || h.Fit == nil {
		t.Errorf("healthy: %+v, want the short recipe", h)
	}
	if cfgs["lr"].LR != 0.1 || cfgs["calls8"].Env.MaxTurns != 8 || cfgs["callpay"].Env.MaxTurns != 8 ||
		cfgs["temp"].Temperature != 0.6 || cfgs["samplerlp"].Temperature != 0.6 {
		t.Error("lr, calls8, callpay, temp or samplerlp lacks its change or its control's")
	}
	for _, arm := range []string{"noentropy", "nobonus", "bonus", "passes", "noclip", "callpay", "samplerlp"} {
		c, ctl := cfgs[arm], cfgs[controlArm(arm)]
		if c.LR != ctl.LR || c.Env.MaxTurns != ctl.Env.MaxTurns || c.Temperature != ctl.Temperature {
			t.Errorf("%s changes the learning rate, the call limit or the temperature of its control", arm)
		}
	}
	if _, err := failureConfig("nosuch", 1, train); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("an unknown arm: %v, want an error naming it", err)
	}
}

// controlArm is the control of a FailureStudy arm.
func controlArm(arm string) string {
	for _, a := range failureArms {
		if a.Name == arm {
			return a.Control
		}
	}
	return ""
}
