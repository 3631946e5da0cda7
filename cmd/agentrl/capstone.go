package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
)

// capstoneFlags are the settings of `agentrl train capstone`.
type capstoneFlags struct {
	cfg      agentrl.CapstoneConfig
	out      string
	tasks    string
	timeout  time.Duration
	progress io.Writer
}

func parseCapstoneFlags(args []string) (*capstoneFlags, error) {
	f := &capstoneFlags{cfg: agentrl.DefaultCapstoneConfig(), progress: stderr}
	c := &f.cfg
	fs := flag.NewFlagSet("train capstone", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// The flags are the fields of agentrl.CapstoneConfig, their defaults DefaultCapstoneConfig's
	// (Chapter 19 defines both, so the book and the command run one pipeline).
	fs.IntVar(&c.Seeds, "seeds", c.Seeds, "runs of the pipeline, one per seed")
	fs.IntVar(&c.FirstSeed, "first-seed", c.FirstSeed, "seed offset of the first run (the others follow it)")
	fs.IntVar(&c.Recipe.Turns, "turns", c.Recipe.Turns, "tool calls per episode")
	fs.IntVar(&c.SFTEpochs, "sft-epochs", c.SFTEpochs, "SFT passes over the oracle's demonstrations")
	fs.IntVar(&c.PairTasks, "pair-tasks", c.PairTasks, "train tasks sampled for preference pairs")
	fs.IntVar(&c.PairSize, "pair-size", c.PairSize, "episodes sampled on each of them")
	fs.Float64Var(&c.Preference.Beta, "beta", c.Preference.Beta, "DPO's β (with -ipo: IPO's τ)")
	fs.BoolVar(&c.Preference.IPO, "ipo", c.Preference.IPO, "IPO's loss instead of DPO's")
	fs.IntVar(&c.PrefSteps, "pref-steps", c.PrefSteps, "steps of the preference loss, each on every pair")
	fs.Float64Var(&c.PrefLR, "pref-lr", c.PrefLR, "Adam's learning rate for the preference steps")
	fs.Float64Var(&c.Recipe.LR, "sft-lr", c.Recipe.LR, "Adam's learning rate for SFT")
	fs.IntVar(&c.EvalReps, "eval-reps", c.EvalReps, "evaluation episodes per held-out task and agent")
	fs.Uint64Var(&c.EvalSeed, "eval-seed", c.EvalSeed, "the evaluation's sampling stream (the same for every agent)")
	fs.StringVar(&f.out, "out", "", "run folder for run.json (the settings), metrics.jsonl and the final agents, checkpoint folders final-seedN (default runs/capstone-seedN, N the first seed)")
	fs.StringVar(&f.tasks, "tasks", defaultTasks(), "task folder")
	fs.DurationVar(&f.timeout, "test-timeout", 200*time.Millisecond, "CPU-time limit of one test run in the sandbox (its wall-clock backstop: 10 times this, at least 2s)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agentrl train capstone [flags]\n\nRuns Chapter 19's pipeline for each seed: SFT on the oracle's demonstrations, DPO on pairs the agent samples,\n"+
			"an evaluation of the untrained, SFT and final agents on the held-out tasks; then prints the solve rates with\n"+
			"intervals, paired comparisons, and the alarms of Chapter 18's rules.\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlagSet(fs, args); err != nil {
		return nil, err
	}
	if err := checkBounds(
		bound{flag: "-seeds", value: float64(c.Seeds), lo: 1, hi: 100},
		bound{flag: "-first-seed", value: float64(c.FirstSeed), lo: 0, hi: 1_000_000},
		bound{flag: "-turns", value: float64(c.Recipe.Turns), lo: 1, hi: 32},
		bound{flag: "-sft-epochs", value: float64(c.SFTEpochs), lo: 1, hi: 1000},
		bound{flag: "-pair-tasks", value: float64(c.PairTasks), lo: 1, hi: 64},
		bound{flag: "-pair-size", value: float64(c.PairSize), lo: 2, hi: 64},
		bound{flag: "-beta", value: c.Preference.Beta, lo: 0, hi: 100, loOpen: true},
		bound{flag: "-pref-steps", value: float64(c.PrefSteps), lo: 1, hi: 1000},
		bound{flag: "-pref-lr", value: c.PrefLR, lo: 0, hi: 1, loOpen: true},
		bound{flag: "-sft-lr", value: c.Recipe.LR, lo: 0, hi: 1, loOpen: true},
		bound{flag: "-eval-reps", value: float64(c.EvalReps), lo: 1, hi: 100},
		bound{flag: "-test-timeout", value: f.timeout.Seconds(), lo: 0, hi: 60, loOpen: true},
	); err != nil {
		return nil, err
	}
	if f.out == "" {
		f.out = filepath.Join("runs", fmt.Sprintf("capstone-seed%d", c.FirstSeed))
	}
	c.Checkpoints = f.out
	return f, nil
}

// capstoneLine is one line of a capstone run's metrics.jsonl (metricLine): a gradient step of one
// stage of one seed (the stage's TinyStepLog), or the held-out outcomes of one agent of one seed
// (untrained, sft or final).
type capstoneLine struct {
	Seed  int    `json:"seed"`
	Stage string `json:"stage,omitempty"` // sft or preference
	tinyLine
}

// capstoneRun is a capstone run's run.json: its kind and its configuration.
type capstoneRun struct {
	Kind string // kindCapstone
	agentrl.CapstoneConfig
}

func trainCapstone(f *capstoneFlags, out io.Writer) (err error) {
	// The run writes its results at the end: a folder with metrics.jsonl holds a finished run.
	rf, err := claimRunFolder(f.out, kindCapstone, "metrics.jsonl", false)
	if err != nil {
		return err
	}
	defer func() { rf.release(err) }()
	if err := writeJSON(filepath.Join(f.out, "run.json"), capstoneRun{kindCapstone, f.cfg}); err != nil {
		return err
	}
	all, err := loadTasks(f.tasks)
	if err != nil {
		return err
	}
	train, held := gym.Filter(all, gym.Train, ""), gym.Filter(all, gym.Test, "")
	if len(train) == 0 || len(held) == 0 {
		return fmt.Errorf("%s needs train and test tasks: it has %d and %d", f.tasks, len(train), len(held))
	}
	pool, err := sandbox.New(sandbox.Options{Timeout: f.timeout, MemoDir: memoDir()})
	if err != nil {
		return err // the sandbox names what is missing (python3, a limit) itself
	}
	defer pool.Close()
	rf.start()
	start := time.Now()
	res, err := agentrl.RunCapstone(f.cfg, pool, train, held, f.progress)
	if err != nil {
		return err
	}
	var lines []capstoneLine
	for _, r := range res.Runs {
		for _, s := range []struct {
			stage string
			logs  []agentrl.TinyStepLog
		}{{"sft", r.SFTLogs}, {"preference", r.PrefLogs}} {
			for i := range s.logs {
				lines = append(lines, capstoneLine{Seed: r.Seed, Stage: s.stage, tinyLine: tinyLine{Update: &s.logs[i]}})
			}
		}
		for _, a := range []struct {
			name     string
			outcomes []float64
		}{{"untrained", r.Untrained}, {"sft", r.SFT}, {"final", r.Final}} {
			lines = append(lines, capstoneLine{Seed: r.Seed, tinyLine: tinyLine{Eval: &evalLine{Agent: a.name, Split: "test", Outcomes: a.outcomes}}})
		}
	}
	if err := writeMetrics(filepath.Join(f.out, "metrics.jsonl"), lines); err != nil {
		return err
	}
	fmt.Fprintf(out, "capstone: seeds %d to %d, %d held-out tasks × %d evaluation episodes per agent: %.1f s\n\n",
		f.cfg.FirstSeed, f.cfg.FirstSeed+f.cfg.Seeds-1, len(held), f.cfg.EvalReps, time.Since(start).Seconds())
	printCapstone(out, res)
	fmt.Fprintf(out, "\nrun folder: %s (run.json, metrics.jsonl, final-seedN/)\n", f.out)
	return nil
}

// printCapstone prints the evaluation table (Chapter 19's, with Chapter 17's intervals and paired
// tests) and the alarms of Chapter 18's rules for every stage of every seed.
func printCapstone(out io.Writer, res agentrl.CapstoneResult) {
	agentrl.WriteCapstoneTable(out, agentrl.CapstoneTable(res, 10000, 19))
	fmt.Fprintln(out, "\nalarms (Chapter 18's rules, on every SFT pass and DPO step):")
	none := true
	for _, r := range res.Runs {
		for _, s := range []struct {
			stage string
			logs  []agentrl.TinyStepLog
		}{{"SFT", r.SFTLogs}, {"DPO", r.PrefLogs}} {
			for _, a := range agentrl.Diagnose(s.logs) {
				none = false
				fmt.Fprintf(out, "  seed %d, %s step %d: %s: %s\n", r.Seed, s.stage, a.Update, a.Signal, a.Message)
			}
		}
	}
	if none {
		fmt.Fprintln(out, "  none")
	}
}
