package agentrl

import (
	"math"
	"reflect"
	"strings"
	"testing"
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
		// 0.3 × 0.6 = 0.18: 0.17 trips, and only at the first update below.
		{"entropy collapse", func(l []TinyStepLog) { l[2].Entropy, l[3].Entropy = 0.17, 0.01 }, 2, SignalEntropy},
		{"KL in one update", func(l []TinyStepLog) { l[1].Metrics["approx_kl_last"] = 0.06 }, 1, SignalKL},
		{"KL to the reference", func(l []TinyStepLog) { l[4].Metrics["kl"] = 1.2 }, 4, SignalRefKL},
		// 10 × 0.05 = 0.5.
		{"gradient spike", func(l []TinyStepLog) { l[3].Metrics["grad_norm"] = 0.51 }, 3, SignalGradNorm},
		// 2 × 15 = 30 tokens.
		{"length growth", func(l []TinyStepLog) { l[2].Tokens, l[4].Tokens = 31, 40 }, 2, SignalLength},
		// Two updates in a row at 0.75 or more: the alarm is at the second.
		{"stalled groups", func(l []TinyStepLog) { l[1].Metrics["zero_var"], l[3].Metrics["zero_var"], l[4].Metrics["zero_var"] = 1, 0.75, 1 }, 4, SignalZeroVar},
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
	for _, name := range []string{"B: groups without signal", "B: clipped tokens", "B: mismatched tokens", "B: hack gap"} {
		if !strings.Contains(opt, name) {
			t.Errorf("batch-health chart lacks %q", name)
		}
	}
	if strings.Contains(opt, "A: ") {
		t.Errorf("run A has no batch metrics but has a line: %s", opt)
	}
	// Run A's lines come before run B's; the NaN update has no entropy.
	if opt := plots[1].Option(); strings.Index(opt, "A: entropy") > strings.Index(opt, "B: entropy") {
		t.Errorf("runs not in name order: %s", opt)
	}
}
