package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
)

func init() {
	register(command{name: "train", summary: "train TinyAgent, or a Qwen3 model, in the BugFix gym (train tinyagent -h, train capstone -h, train qwen3 -h)", run: trainMain})
}

const trainUsage = `usage: agentrl train tinyagent [flags]   TinyAgent with RL in the BugFix gym
       agentrl train capstone [flags]    Chapter 19's pipeline: SFT, DPO, a paired evaluation
       agentrl train qwen3 [flags]       a Qwen3 model as a BugFix agent

Run 'agentrl train tinyagent -h' (capstone, qwen3) for a trainer's flags.`

// trainFlags are the settings of `agentrl train tinyagent`.
type trainFlags struct {
	recipe              agentrl.TinyRecipe
	seed                uint64
	evalTemp            float64
	out                 string
	resume              bool
	every               int
	tasks               string
	evalReps            int
	baselines           bool
	fastGraph           bool
	baselineCache       string // folder of the baselines' cached rates; "": none
	timeout             time.Duration
	progress            io.Writer
	metrics, checkpoint string
}

func trainMain(args []string) error {
	if len(args) > 0 && args[0] == "capstone" {
		f, err := parseCapstoneFlags(args[1:])
		if err != nil {
			return err
		}
		return trainCapstone(f, os.Stdout)
	}
	if len(args) > 0 && args[0] == "qwen3" {
		return trainQwen3Main(args[1:], os.Stdout)
	}
	if isHelp(args) {
		fmt.Fprintln(stderr, trainUsage)
		return flag.ErrHelp
	}
	if len(args) == 0 || args[0] != "tinyagent" {
		return fmt.Errorf("%w: %swant `agentrl train tinyagent [flags]`, `agentrl train capstone [flags]` or `agentrl train qwen3 [flags]`", errUsage, unknownWhat(args))
	}
	f, err := parseTrainFlags(args[1:])
	if err != nil {
		return err
	}
	return trainTinyAgent(f, os.Stdout)
}

func parseTrainFlags(args []string) (*trainFlags, error) {
	f := &trainFlags{progress: stderr, recipe: agentrl.DefaultTinyRecipe(), baselineCache: defaultBaselineCache()}
	fs := flag.NewFlagSet("train tinyagent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names, summaries := agentrl.TinyAlgorithms()
	// The flags are the fields of agentrl.TinyRecipe, their defaults DefaultTinyRecipe's
	// (Chapter 10 defines both, so the book and the command run one recipe).
	r := &f.recipe
	fs.StringVar(&r.Algo, "algo", r.Algo, "algorithm: "+strings.Join(names, ", "))
	fs.Uint64Var(&f.seed, "seed", 1, "seeds the weights, the tasks drawn and every sample")
	fs.IntVar(&r.Steps, "steps", r.Steps, "policy updates")
	fs.IntVar(&r.Groups, "groups", r.Groups, "tasks per update")
	fs.IntVar(&r.Size, "group-size", r.Size, "episodes per task in an update")
	fs.IntVar(&r.Turns, "turns", r.Turns, "tool calls per episode")
	fs.BoolVar(&r.SubmitAtLimit, "submit-at-limit", r.SubmitAtLimit, "grade the module as it stands when the calls run out (false: no submission, reward 0)")
	fs.BoolVar(&r.Patches, "patches", r.Patches, "menu edits are candidate patches of the module at reset, each followed by the visible tests (false: edits accumulate, and read and test are tools of their own)")
	fs.StringVar(&r.Credit, "credit", r.Credit, "credit assignment (Chapter 7): episode (the algorithm's own advantages), turn (each call's return-to-go against the group's mean at that turn) or state (against the update's mean in the same turn and test result)")
	fs.Float64Var(&r.Gamma, "gamma", r.Gamma, "discount of turn and state credit")
	fs.BoolVar(&r.Scale, "scale", r.Scale, "state credit: divide each advantage by the spread of returns in its state")
	fs.Float64Var(&r.PassBonus, "pass-bonus", r.PassBonus, "reward for a patch that passes the visible tests (Chapter 7)")
	fs.Float64Var(&f.evalTemp, "eval-temp", 0, "sampling temperature of TinyAgent's evaluation (0: greedy, its most likely call in every state)")
	fs.Float64Var(&r.LR, "lr", r.LR, "Adam learning rate")
	fs.IntVar(&r.Refill, "refill", r.Refill, "extra rollout rounds per update that replace groups whose returns are all equal (dynamic sampling)")
	fs.Float64Var(&r.Entropy, "entropy-coef", r.Entropy, "entropy bonus added to the loss (Chapter 10)")
	fs.Float64Var(&r.KL, "kl-coef", r.KL, "KL penalty (k3) to the initial policy added to the loss (Chapter 10)")
	fs.StringVar(&f.out, "out", "", "run folder for run.json (the settings), metrics.jsonl and checkpoint/, the checkpoint folder (default runs/tinyagent-ALGO-seedN)")
	fs.BoolVar(&f.resume, "resume", false, "continue from the run folder's checkpoint, under the settings in its run.json (only -steps may change)")
	fs.IntVar(&f.every, "checkpoint-every", 10, "write a checkpoint every N updates (and at the end)")
	fs.StringVar(&f.tasks, "tasks", defaultTasks(), "task folder")
	fs.IntVar(&f.evalReps, "eval-reps", 2, "evaluation episodes per held-out task (train tasks: 1)")
	fs.BoolVar(&f.baselines, "baselines", true, "evaluate the baselines under the same interface")
	fs.BoolVar(&f.fastGraph, "fast-graph", false, "gradient steps on TinyAgent's fast graph (the last layer only at the positions whose log-probs are read; attention gradients summed without transposes): the same values up to float32 rounding, in less time (off: the graph of the book's recorded runs, bit for bit)")
	fs.DurationVar(&f.timeout, "test-timeout", 200*time.Millisecond, "CPU-time limit of one test run in the sandbox (its wall-clock backstop: 10 times this, at least 2s)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agentrl train tinyagent [flags]\n\nTrains TinyAgent with RL in the BugFix gym, then prints its solve rates beside the baselines.\nalgorithms:")
		for i, n := range names {
			fmt.Fprintf(stderr, "  %-10s %s\n", n, summaries[i])
		}
		fmt.Fprintln(stderr, "flags:")
		fs.PrintDefaults()
	}
	if err := parseFlagSet(fs, args); err != nil {
		return nil, err
	}
	// Every update's batch holds a row per call, so -groups × -group-size × -turns sets its memory:
	// the caps keep one update of the largest run within a few GB.
	if err := checkBounds(
		bound{flag: "-steps", value: float64(r.Steps), lo: 1, hi: 100_000},
		bound{flag: "-groups", value: float64(r.Groups), lo: 1, hi: 64},
		bound{flag: "-group-size", value: float64(r.Size), lo: 1, hi: 64},
		bound{flag: "-turns", value: float64(r.Turns), lo: 1, hi: 32},
		bound{flag: "-gamma", value: r.Gamma, lo: 0, hi: 1, loOpen: true},
		bound{flag: "-pass-bonus", value: r.PassBonus, lo: 0, hi: 10},
		bound{flag: "-eval-temp", value: f.evalTemp, lo: 0, hi: 10},
		bound{flag: "-lr", value: r.LR, lo: 0, hi: 1, loOpen: true},
		bound{flag: "-refill", value: float64(r.Refill), lo: 0, hi: 16},
		bound{flag: "-entropy-coef", value: r.Entropy, lo: 0, hi: 10},
		bound{flag: "-kl-coef", value: r.KL, lo: 0, hi: 100},
		bound{flag: "-checkpoint-every", value: float64(f.every), lo: 1, hi: 100_000},
		bound{flag: "-eval-reps", value: float64(f.evalReps), lo: 1, hi: 100},
		bound{flag: "-test-timeout", value: f.timeout.Seconds(), lo: 0, hi: 60, loOpen: true},
	); err != nil {
		return nil, err
	}
	if err := f.recipe.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if f.out == "" {
		f.out = filepath.Join("runs", fmt.Sprintf("tinyagent-%s-seed%d", f.recipe.Algo, f.seed))
	}
	f.metrics = filepath.Join(f.out, "metrics.jsonl")
	f.checkpoint = filepath.Join(f.out, "checkpoint")
	return f, nil
}

// parseFlagSet parses args, none of which may be left over.
func parseFlagSet(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

// tinyRun is a trainer with everything it needs, as the flags describe it.
type tinyRun struct {
	pool       *sandbox.Pool
	agent      *agentrl.TinyAgent
	tr         *agentrl.TinyTrainer
	env        gym.Config
	train, dev []*gym.Task
	heldOut    []*gym.Task // the test split: templates train never shows
}

func newTinyRun(f *trainFlags) (*tinyRun, error) {
	all, err := loadTasks(f.tasks)
	if err != nil {
		return nil, err
	}
	r := &tinyRun{train: gym.Filter(all, gym.Train, ""), dev: gym.Filter(all, gym.Dev, ""), heldOut: gym.Filter(all, gym.Test, "")}
	if len(r.train) == 0 {
		return nil, fmt.Errorf("no train tasks in %s", f.tasks)
	}
	r.pool, err = sandbox.New(sandbox.Options{Timeout: f.timeout, MemoDir: memoDir()})
	if err != nil {
		return nil, err // the sandbox names what is missing (python3, a limit) itself
	}
	cfg := agentrl.DefaultTinyAgentConfig()
	cfg.Seed = f.seed
	if r.agent, err = agentrl.NewTinyAgent(cfg); err != nil {
		r.pool.Close()
		return nil, err
	}
	r.agent.FastGraph = f.fastGraph
	r.env = f.recipe.Env()
	tc, err := f.recipe.Config(cfg, r.train)
	if err != nil {
		r.pool.Close()
		return nil, err
	}
	r.tr, err = agentrl.NewTinyTrainer(r.agent, r.pool, tc)
	if err != nil {
		r.pool.Close()
		return nil, err
	}
	return r, nil
}

func trainTinyAgent(f *trainFlags, out io.Writer) (err error) {
	rf, err := claimRunFolder(f.out, kindTinyAgent, filepath.Base(f.checkpoint), f.resume)
	if err != nil {
		return err
	}
	defer func() { rf.release(err) }()
	settings := filepath.Join(f.out, "run.json")
	if f.resume {
		if err := checkSettings(settings, f.settings(), tinyFlagNames, sameTiny); err != nil {
			return err
		}
	} else if err := writeJSON(settings, f.settings()); err != nil {
		return err
	}
	run, err := newTinyRun(f)
	if err != nil {
		return err
	}
	defer run.pool.Close()
	tr := run.tr
	if f.resume {
		if err := tr.Load(f.checkpoint); err != nil {
			if _, gerr := os.Stat(filepath.Join(f.out, "checkpoint.gob")); gerr == nil {
				return fmt.Errorf("%s holds checkpoint.gob, an earlier version's checkpoint, which this version no longer reads: start a new run (%w)", f.out, err)
			}
			return err
		}
		fmt.Fprintf(out, "resumed %s at update %d\n", f.checkpoint, tr.Steps())
	}
	if err := startMetrics(f.metrics, f.resume, tr.Steps()); err != nil {
		return err
	}
	rf.start()
	if budget := f.recipe.Turns * agentrl.TinyMaxCall; f.recipe.Algo == "dapo" && budget-budget/5 < agentrl.TinyMaxCall {
		// CriticFreeFamily's DAPO penalizes the last fifth of the token budget. Measured with one
		// call (seed 1): it stopped editing and solved nothing.
		fmt.Fprintf(out, "warning: DAPO's overlong shaping penalizes episodes of more than %d call tokens, and one edit call is %d: "+
			"with -turns %d it punishes every edit; use -turns 2 or more\n", budget-budget/5, agentrl.TinyMaxCall, f.recipe.Turns)
	}
	start := time.Now()
	bar := newProgress(f.progress, f.recipe.Steps)
	var times updateTimes
	for tr.Steps() < f.recipe.Steps {
		log, err := tr.Step()
		times.add(log)
		if err != nil {
			// The weights of a failed update were not saved: the last checkpoint is intact.
			return fmt.Errorf("update %d: %w (last checkpoint: %s)", tr.Steps(), err, f.checkpoint)
		}
		if err := appendMetric(f.metrics, tinyLine{Update: &log}); err != nil {
			return err
		}
		bar.update(tr.Steps(), fmt.Sprintf("solved %.3f  calls %.2f  entropy %.3f", log.Solved, log.Calls, log.Entropy))
		if tr.Steps()%f.every == 0 || tr.Steps() == f.recipe.Steps {
			if err := tr.Save(f.checkpoint); err != nil {
				return err
			}
		}
	}
	bar.done()
	trained := time.Since(start)
	fmt.Fprintf(out, "%d updates of %d×%d episodes (%s, seed %d): %.1f s; %s\n", f.recipe.Steps, f.recipe.Groups, f.recipe.Size, f.recipe.Algo, f.seed, trained.Seconds(), times)

	return evaluateTiny(f, run, out, start)
}

// evalSplit is a split of the evaluation, with its episodes per task.
type evalSplit struct {
	name  string
	tasks []*gym.Task
	reps  int
}

// rateRow is a row of the solve-rate table: an agent and its rate on each split.
type rateRow struct {
	name  string
	rates []string
}

// evaluateTiny evaluates the trained agent, and the baselines with -baselines, on every split,
// appends the agent's results to the metrics and prints the table and the run's summary.
func evaluateTiny(f *trainFlags, run *tinyRun, out io.Writer, start time.Time) error {
	pool := run.pool
	splits := []evalSplit{{"train", run.train, 1}, {"dev", run.dev, f.evalReps}, {"test", run.heldOut, f.evalReps}}
	tiny := rateRow{name: "TinyAgent (" + f.recipe.Algo + ", greedy)"}
	if f.evalTemp > 0 {
		tiny.name = fmt.Sprintf("TinyAgent (%s, temperature %g)", f.recipe.Algo, f.evalTemp)
	}
	malformed := 0.0
	var uses agentrl.TinyEval // the test-use counts, over every split
	for _, s := range splits {
		ev, err := agentrl.EvalTinyAgentAt(run.agent, pool, s.tasks, s.reps, run.env, f.evalTemp, false, f.seed)
		if err != nil {
			return err
		}
		malformed = max(malformed, ev.Malformed)
		uses.AfterPass, uses.EditsAfterPass = uses.AfterPass+ev.AfterPass, uses.EditsAfterPass+ev.EditsAfterPass
		uses.AfterFail, uses.EditsAfterFail = uses.AfterFail+ev.AfterFail, uses.EditsAfterFail+ev.EditsAfterFail
		if err := appendMetric(f.metrics, tinyLine{Eval: &evalLine{Agent: "tinyagent", Split: s.name, Result: &ev}}); err != nil {
			return err
		}
		tiny.rates = append(tiny.rates, fmt.Sprintf("%.3f", ev.Solved))
	}
	rows := []rateRow{tiny}
	cached := ""
	if f.baselines {
		base, from, err := baselineRows(f, run, splits)
		if err != nil {
			return err
		}
		rows, cached = append(rows, base...), from
	}
	graded := "graded as it stands when they run out"
	if !f.recipe.SubmitAtLimit {
		graded = "no submission, no reward when they run out"
	}
	fmt.Fprintf(out, "\nsolve rate, %d calls per episode, %s (train: 1 episode per task; dev, test: %d)\n", f.recipe.Turns, graded, f.evalReps)
	fmt.Fprintf(out, "%-38s %7s %7s %7s\n", "agent", "train", "dev", "test")
	for _, r := range rows {
		fmt.Fprintf(out, "%-38s %7s %7s %7s\n", r.name, r.rates[0], r.rates[1], r.rates[2])
	}
	if f.baselines && f.recipe.Turns < 3 && !f.recipe.Patches {
		fmt.Fprintf(out, "(the scripted search needs 3 calls or more to test an edit before it submits: with %d it cannot search)\n", f.recipe.Turns)
	}
	if cached != "" {
		fmt.Fprintf(out, "baselines: read from %s, an identical earlier run's (same binary, tasks, settings and seed); delete it to play them again\n", cached)
	}
	fmt.Fprintf(out, "TinyAgent malformed calls: %.3f (decoding is masked to the call grammar)\n", malformed)
	if f.recipe.Patches {
		fmt.Fprintf(out, "TinyAgent patched again after %d of %d patches that passed the visible tests and after %d of %d that failed (all splits)\n",
			uses.EditsAfterPass, uses.AfterPass, uses.EditsAfterFail, uses.AfterFail)
	}
	st := pool.Stats()
	fmt.Fprintf(out, "sandbox: %d runs, each in a new process; %d answered from the memo\n", st.Runs, st.Cached)
	if st.Backstops > 0 {
		// Their verdicts may depend on the load: the solve rates may not reproduce.
		fmt.Fprintf(out, "sandbox: %d test runs timed out on the wall-clock backstop (%v) within their CPU time: they slept or blocked, or the machine was too busy\n",
			st.Backstops, pool.Backstop())
	}
	fmt.Fprintf(out, "metrics: %s  checkpoint: %s  total %.1f s\n", f.metrics, f.checkpoint, time.Since(start).Seconds())
	return nil
}

// baselineRows evaluates the baselines under the same interface and call budget as the agent, or
// reads their rates from the baseline cache (f.baselineCache), naming the file it read them from.
func baselineRows(f *trainFlags, run *tinyRun, splits []evalSplit) ([]rateRow, string, error) {
	base := []struct {
		name  string
		agent agentrl.GymAgent
	}{
		{"random valid call", agentrl.RandomCall}, {"random edit, submit", agentrl.RandomEditSubmit},
		{"scripted search (edit, test, revert)", agentrl.EditTestRevert}, {"oracle", agentrl.OracleFix},
	}
	if f.recipe.Patches {
		base[2] = struct {
			name  string
			agent agentrl.GymAgent
		}{"scripted search (patch until pass)", agentrl.PatchSearch}
	}
	key := ""
	if f.baselineCache != "" {
		names := make([]string, len(base))
		for i, b := range base {
			names[i] = b.name
		}
		var err error
		if key, err = baselineKey(f, run, splits, names); err != nil {
			fmt.Fprintf(f.progress, "baselines: not cached (%v)\n", err)
			key = ""
		} else if rows, ok := cachedBaselines(f.baselineCache, key); ok {
			return rows, filepath.Join(f.baselineCache, key+".json"), nil
		}
	}
	backstops := run.pool.Stats().Backstops
	genv := gym.NewEnv(run.pool, run.env)
	var rows []rateRow
	for _, b := range base {
		r := rateRow{name: b.name}
		for _, s := range splits {
			ev, err := agentrl.EvalGym(genv, s.tasks, b.agent, s.reps, f.seed)
			if err != nil {
				return nil, "", err
			}
			r.rates = append(r.rates, fmt.Sprintf("%.3f", ev.SolveRate()))
		}
		rows = append(rows, r)
	}
	// A verdict reached on the wall-clock backstop may depend on the load: such rates are not kept.
	if key != "" && run.pool.Stats().Backstops == backstops {
		if err := storeBaselines(f.baselineCache, key, rows); err != nil {
			fmt.Fprintf(f.progress, "baselines: not cached (%v)\n", err)
		}
	}
	return rows, "", nil
}

// updateTimes adds up where the updates' time went.
type updateTimes struct {
	n                            int
	rollout, sample, gym, update float64
}

func (u *updateTimes) add(l agentrl.TinyStepLog) {
	u.n++
	u.rollout, u.sample, u.gym, u.update = u.rollout+l.RolloutSec, u.sample+l.SampleSec, u.gym+l.GymSec, u.update+l.TrainSec
}

func (u updateTimes) String() string {
	n := float64(max(u.n, 1))
	return fmt.Sprintf("per update: rollouts %.2f s (sampling %.2f, gym %.2f), gradient steps %.2f s", u.rollout/n, u.sample/n, u.gym/n, u.update/n)
}

// progress draws a bar on a terminal, or prints a line every tenth of the run elsewhere.
type progress struct {
	w      io.Writer
	total  int
	tty    bool
	start  time.Time
	shown  int
	active bool
}

func newProgress(w io.Writer, total int) *progress {
	tty := false
	if fh, ok := w.(*os.File); ok {
		if st, err := fh.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progress{w: w, total: total, tty: tty, start: time.Now()}
}

func (p *progress) update(n int, detail string) {
	const width = 30
	done := width * n / p.total
	line := fmt.Sprintf("[%s%s] %d/%d  %s  %.0fs", strings.Repeat("#", done), strings.Repeat(".", width-done), n, p.total, detail, time.Since(p.start).Seconds())
	if p.tty {
		fmt.Fprintf(p.w, "\r%s", line)
		p.active = true
		return
	}
	if tenth := 10 * n / p.total; tenth > p.shown || n == p.total {
		p.shown = tenth
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) done() {
	if p.active {
		fmt.Fprintln(p.w)
	}
}

// timeToTarget trains with f's settings and evaluates the held-out split every `every` updates,
// until its solve rate reaches target or f.recipe.Steps updates are done. The time it reports is
// training time only; evaluations are timed apart.
func timeToTarget(f *trainFlags, target float64, every int, out io.Writer) error {
	run, err := newTinyRun(f)
	if err != nil {
		return err
	}
	defer run.pool.Close()
	var training, evaluating time.Duration
	best, bestAt := -1.0, 0
	fmt.Fprintf(out, "time to a held-out solve rate of %.2f: %s, %d×%d episodes per update, %d calls, seed %d\n",
		target, f.recipe.Algo, f.recipe.Groups, f.recipe.Size, f.recipe.Turns, f.seed)
	var times updateTimes
	for run.tr.Steps() < f.recipe.Steps {
		start := time.Now()
		log, err := run.tr.Step()
		if err != nil {
			return err
		}
		times.add(log)
		training += time.Since(start)
		if run.tr.Steps()%every != 0 && run.tr.Steps() != f.recipe.Steps {
			continue
		}
		start = time.Now()
		ev, err := agentrl.EvalTinyAgentAt(run.agent, run.pool, run.heldOut, f.evalReps, run.env, f.evalTemp, false, f.seed)
		if err != nil {
			return err
		}
		evaluating += time.Since(start)
		fmt.Fprintf(out, "  update %3d  held-out %.3f  training %.1f s\n", run.tr.Steps(), ev.Solved, training.Seconds())
		if ev.Solved > best {
			best, bestAt = ev.Solved, run.tr.Steps()
		}
		if ev.Solved >= target {
			fmt.Fprintf(out, "reached %.3f ≥ %.2f after %d updates: %.1f s of training (%.1f s more evaluating); %s\n",
				ev.Solved, target, run.tr.Steps(), training.Seconds(), evaluating.Seconds(), times)
			return nil
		}
	}
	fmt.Fprintf(out, "target %.2f not reached in %d updates (%.1f s of training); best held-out %.3f after update %d; %s\n",
		target, f.recipe.Steps, training.Seconds(), best, bestAt, times)
	return nil
}

// memoDir is where training keeps test-run results for later runs: $AGENTRL_SANDBOX_MEMO, else
// the checkout's sandbox memo when there is a checkout, else nowhere (memory only).
func memoDir() string {
	if d := os.Getenv(sandbox.MemoDirEnv); d != "" {
		return d
	}
	if root, err := checkout.Root(); err == nil {
		return checkout.SandboxMemo(root)
	}
	return ""
}
