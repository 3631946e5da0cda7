package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
)

func init() {
	register(command{name: "train", summary: "train TinyAgent in the BugFix gym (train tinyagent -h)", run: trainMain})
}

// algorithm is what --algo chooses: given the longest episode in call tokens, the advantage,
// the loss, whether groups whose episodes all got the same return are dropped, and the epochs
// per batch.
type algorithm struct {
	summary string
	build   func(maxLen int) (agentrl.TinyAdvantage, agentrl.TinyLoss, bool, int)
}

var algorithms = map[string]algorithm{
	"reinforce": {"REINFORCE with the group-mean baseline (Chapter 6)",
		func(int) (agentrl.TinyAdvantage, agentrl.TinyLoss, bool, int) {
			return agentrl.GroupBaseline(false), agentrl.PGLoss(0), false, 1
		}},
	"ppo": {"PPO's clipped loss (ε 0.2), 4 epochs per batch, group-mean advantages, no critic (Chapter 8)",
		func(int) (agentrl.TinyAdvantage, agentrl.TinyLoss, bool, int) {
			return agentrl.GroupBaseline(false), agentrl.PPOLoss(agentrl.PPOConfig{ClipLow: 0.2, ClipHigh: 0.2}), false, 4
		}},
}

// The critic-free family of Chapter 9, one algorithm per member, named in lower case without
// punctuation (grpo, drgrpo, dapo, rloo, gspo).
func init() {
	for i, m := range agentrl.CriticFreeFamily(agentrl.TinyMaxCall) {
		name := strings.ToLower(strings.NewReplacer(".", "", " ", "").Replace(m.Name))
		algorithms[name] = algorithm{m.Name + " as Chapter 9 configures it", func(maxLen int) (agentrl.TinyAdvantage, agentrl.TinyLoss, bool, int) {
			m := agentrl.CriticFreeFamily(maxLen)[i]
			return m.Advantage, agentrl.GRPOLoss(m.Loss), m.DropUniform, 1
		}}
	}
}

// trainFlags are the settings of `agentrl train tinyagent`.
type trainFlags struct {
	algo                string
	seed                uint64
	steps, groups, size int
	turns               int
	lr                  float64
	refill              int
	submitAtLimit       bool
	patches             bool
	credit              string
	passBonus, evalTemp float64
	gamma               float64
	scale               bool
	entropy, kl         float64
	out                 string
	resume              bool
	every               int
	tasks               string
	evalReps            int
	baselines           bool
	timeout             time.Duration
	progress            io.Writer
	metrics, checkpoint string
}

func trainMain(args []string) error {
	if len(args) == 0 || args[0] != "tinyagent" {
		return fmt.Errorf("%w: want `agentrl train tinyagent [flags]`", errUsage)
	}
	f, err := parseTrainFlags(args[1:])
	if err != nil {
		return err
	}
	return trainTinyAgent(f, os.Stdout)
}

func parseTrainFlags(args []string) (*trainFlags, error) {
	f := &trainFlags{progress: stderr}
	fs := flag.NewFlagSet("train tinyagent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := make([]string, 0, len(algorithms))
	for n := range algorithms {
		names = append(names, n)
	}
	sort.Strings(names)
	fs.StringVar(&f.algo, "algo", "drgrpo", "algorithm: "+strings.Join(names, ", "))
	fs.Uint64Var(&f.seed, "seed", 1, "seeds the weights, the tasks drawn and every sample")
	fs.IntVar(&f.steps, "steps", 30, "policy updates")
	fs.IntVar(&f.groups, "groups", 8, "tasks per update")
	fs.IntVar(&f.size, "group-size", 8, "episodes per task in an update")
	fs.IntVar(&f.turns, "turns", 5, "tool calls per episode")
	fs.BoolVar(&f.submitAtLimit, "submit-at-limit", true, "grade the module as it stands when the calls run out (false: no submission, reward 0)")
	fs.BoolVar(&f.patches, "patches", true, "menu edits are candidate patches of the module at reset, each followed by the visible tests (false: edits accumulate, and read and test are tools of their own)")
	fs.StringVar(&f.credit, "credit", "state", "credit assignment (Chapter 7): episode (the algorithm's own advantages), turn (each call's return-to-go against the group's mean at that turn) or state (against the update's mean in the same turn and test result)")
	fs.Float64Var(&f.gamma, "gamma", 1, "discount of turn and state credit")
	fs.BoolVar(&f.scale, "scale", false, "state credit: divide each advantage by the spread of returns in its state")
	fs.Float64Var(&f.passBonus, "pass-bonus", 0.2, "reward for a patch that passes the visible tests (Chapter 7)")
	fs.Float64Var(&f.evalTemp, "eval-temp", 0, "sampling temperature of TinyAgent's evaluation (0: greedy, its most likely call in every state)")
	fs.Float64Var(&f.lr, "lr", 3e-3, "Adam learning rate")
	fs.IntVar(&f.refill, "refill", 1, "extra rollout rounds per update that replace groups whose returns are all equal (dynamic sampling)")
	fs.Float64Var(&f.entropy, "entropy-coef", 0.02, "entropy bonus added to the loss (Chapter 10)")
	fs.Float64Var(&f.kl, "kl-coef", 0, "KL penalty (k3) to the initial policy added to the loss (Chapter 10)")
	fs.StringVar(&f.out, "out", "", "run folder for metrics.jsonl and checkpoint.gob (default runs/tinyagent-ALGO-seedN)")
	fs.BoolVar(&f.resume, "resume", false, "continue from the run folder's checkpoint")
	fs.IntVar(&f.every, "checkpoint-every", 10, "write a checkpoint every N updates (and at the end)")
	fs.StringVar(&f.tasks, "tasks", "datasets/bugfix", "task folder")
	fs.IntVar(&f.evalReps, "eval-reps", 2, "evaluation episodes per held-out task (train tasks: 1)")
	fs.BoolVar(&f.baselines, "baselines", true, "evaluate the baselines under the same interface")
	fs.DurationVar(&f.timeout, "test-timeout", 200*time.Millisecond, "wall-clock limit of one test run in the sandbox")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agentrl train tinyagent [flags]\n\nTrains TinyAgent with RL in the BugFix gym, then prints its solve rates beside the baselines.\nalgorithms:")
		for _, n := range names {
			fmt.Fprintf(stderr, "  %-10s %s\n", n, algorithms[n].summary)
		}
		fmt.Fprintln(stderr, "flags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, fmt.Errorf("%w: see the flags above", errUsage)
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if f.credit != "episode" && f.credit != "turn" && f.credit != "state" {
		return nil, fmt.Errorf("%w: unknown credit %q (want episode, turn or state)", errUsage, f.credit)
	}
	if !(f.gamma > 0 && f.gamma <= 1) || f.evalTemp < 0 || f.passBonus < 0 {
		return nil, fmt.Errorf("%w: -gamma must be in (0, 1], -eval-temp and -pass-bonus must not be negative", errUsage)
	}
	if _, ok := algorithms[f.algo]; !ok {
		return nil, fmt.Errorf("%w: unknown algorithm %q (want one of %s)", errUsage, f.algo, strings.Join(names, ", "))
	}
	if f.steps <= 0 || f.groups <= 0 || f.size <= 0 || f.turns <= 0 || f.every <= 0 || f.evalReps <= 0 || !(f.lr > 0) {
		return nil, fmt.Errorf("%w: -steps, -groups, -group-size, -turns, -checkpoint-every, -eval-reps and -lr must be positive", errUsage)
	}
	if f.entropy < 0 || f.kl < 0 || f.refill < 0 {
		return nil, fmt.Errorf("%w: -entropy-coef, -kl-coef and -refill must not be negative", errUsage)
	}
	if f.out == "" {
		f.out = filepath.Join("runs", fmt.Sprintf("tinyagent-%s-seed%d", f.algo, f.seed))
	}
	f.metrics = filepath.Join(f.out, "metrics.jsonl")
	f.checkpoint = filepath.Join(f.out, "checkpoint.gob")
	return f, nil
}

// metricLine is one line of metrics.jsonl: an update, or an evaluation.
type metricLine struct {
	Update *agentrl.TinyStepLog `json:"update,omitempty"`
	Eval   *evalLine            `json:"eval,omitempty"`
}

type evalLine struct {
	Agent string           `json:"agent"`
	Split string           `json:"split"`
	Eval  agentrl.TinyEval `json:"result"`
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
	all, err := gym.LoadTasks(f.tasks)
	if err != nil {
		return nil, err
	}
	r := &tinyRun{train: gym.Filter(all, gym.Train, ""), dev: gym.Filter(all, gym.Dev, ""), heldOut: gym.Filter(all, gym.Test, "")}
	if len(r.train) == 0 {
		return nil, fmt.Errorf("no train tasks in %s", f.tasks)
	}
	r.pool, err = sandbox.New(sandbox.Options{Timeout: f.timeout})
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w (python3 missing? run `make setup`)", err)
	}
	cfg := agentrl.DefaultTinyAgentConfig()
	cfg.Seed = f.seed
	if r.agent, err = agentrl.NewTinyAgent(cfg); err != nil {
		r.pool.Close()
		return nil, err
	}
	r.env = gym.Config{MaxTurns: f.turns, WarmHidden: true, SubmitAtLimit: f.submitAtLimit, TryPatches: f.patches}
	advantage, loss, drop, epochs := algorithms[f.algo].build(f.turns * agentrl.TinyMaxCall)
	switch f.credit {
	case "turn":
		advantage = agentrl.TurnAdvantage(f.gamma)
	case "state":
		advantage = agentrl.StateAdvantage(f.gamma, f.scale)
	}
	if f.passBonus != 0 {
		advantage = agentrl.PassBonus(f.passBonus, advantage)
	}
	if f.entropy > 0 {
		loss = agentrl.WithEntropyBonus(loss, f.entropy)
	}
	var ref *agentrl.TinyAgent
	if f.kl > 0 {
		if ref, err = agentrl.NewTinyAgent(cfg); err != nil { // the same seed: the initial policy
			r.pool.Close()
			return nil, err
		}
		loss = agentrl.WithKLPenalty(loss, f.kl, agentrl.K3)
	}
	// Refilling replaces the groups that carry no signal, so it implies dropping them; for
	// group-relative advantages a dropped group had advantage 0 and no gradient anyway.
	r.tr, err = agentrl.NewTinyTrainer(r.agent, r.pool, agentrl.TinyTrainConfig{
		Tasks: r.train, Env: r.env, Groups: f.groups, GroupSize: f.size, LR: f.lr, Reference: ref,
		Epochs: epochs, DropUniform: drop || f.refill > 0, Refill: f.refill, Advantage: advantage, Loss: loss,
		Seed: f.seed, FixedShape: true,
	})
	if err != nil {
		r.pool.Close()
		return nil, err
	}
	return r, nil
}

func trainTinyAgent(f *trainFlags, out io.Writer) error {
	run, err := newTinyRun(f)
	if err != nil {
		return err
	}
	defer run.pool.Close()
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	pool, agent, tr, env := run.pool, run.agent, run.tr, run.env
	var logs []metricLine
	if f.resume {
		if err := tr.Load(f.checkpoint); err != nil {
			return err
		}
		if logs, err = readMetrics(f.metrics, tr.Steps()); err != nil {
			return err
		}
		fmt.Fprintf(out, "resumed %s at update %d\n", f.checkpoint, tr.Steps())
	} else if _, err := os.Stat(f.checkpoint); err == nil {
		return fmt.Errorf("%s already holds a run: pass -resume to continue it, or -out for a new folder", f.out)
	}
	if err := writeMetrics(f.metrics, logs); err != nil {
		return err
	}
	if budget := f.turns * agentrl.TinyMaxCall; f.algo == "dapo" && budget-budget/5 < agentrl.TinyMaxCall {
		// CriticFreeFamily's DAPO penalizes the last fifth of the token budget. Measured with one
		// call (seed 1): it stopped editing and solved nothing.
		fmt.Fprintf(out, "warning: DAPO's overlong shaping penalizes episodes of more than %d call tokens, and one edit call is %d: "+
			"with -turns %d it punishes every edit; use -turns 2 or more\n", budget-budget/5, agentrl.TinyMaxCall, f.turns)
	}
	start := time.Now()
	bar := newProgress(f.progress, f.steps)
	for tr.Steps() < f.steps {
		log, err := tr.Step()
		if err != nil {
			// The weights of a failed update were not saved: the last checkpoint is intact.
			return fmt.Errorf("update %d: %w (last checkpoint: %s)", tr.Steps(), err, f.checkpoint)
		}
		if err := appendMetric(f.metrics, metricLine{Update: &log}); err != nil {
			return err
		}
		bar.update(tr.Steps(), fmt.Sprintf("solved %.3f  calls %.2f  entropy %.3f", log.Solved, log.Calls, log.Entropy))
		if tr.Steps()%f.every == 0 || tr.Steps() == f.steps {
			if err := tr.Save(f.checkpoint); err != nil {
				return err
			}
		}
	}
	bar.done()
	trained := time.Since(start)
	fmt.Fprintf(out, "%d updates of %d×%d episodes (%s, seed %d): %.1f s\n", f.steps, f.groups, f.size, f.algo, f.seed, trained.Seconds())

	splits := []struct {
		name  string
		tasks []*gym.Task
		reps  int
	}{{"train", run.train, 1}, {"dev", run.dev, f.evalReps}, {"test", run.heldOut, f.evalReps}}
	type row struct {
		name  string
		rates []string
	}
	var rows []row
	tiny := row{name: "TinyAgent (" + f.algo + ", greedy)"}
	if f.evalTemp > 0 {
		tiny.name = fmt.Sprintf("TinyAgent (%s, temperature %g)", f.algo, f.evalTemp)
	}
	malformed := 0.0
	var uses agentrl.TinyEval // the test-use counts, over every split
	for _, s := range splits {
		ev, err := agentrl.EvalTinyAgentAt(agent, pool, s.tasks, s.reps, env, f.evalTemp, false, f.seed)
		if err != nil {
			return err
		}
		malformed = max(malformed, ev.Malformed)
		uses.AfterPass, uses.EditsAfterPass = uses.AfterPass+ev.AfterPass, uses.EditsAfterPass+ev.EditsAfterPass
		uses.AfterFail, uses.EditsAfterFail = uses.AfterFail+ev.AfterFail, uses.EditsAfterFail+ev.EditsAfterFail
		if err := appendMetric(f.metrics, metricLine{Eval: &evalLine{Agent: "tinyagent", Split: s.name, Eval: ev}}); err != nil {
			return err
		}
		tiny.rates = append(tiny.rates, fmt.Sprintf("%.3f", ev.Solved))
	}
	rows = append(rows, tiny)
	if f.baselines {
		base := []struct {
			name  string
			agent agentrl.GymAgent
		}{
			{"random valid call", agentrl.RandomCall}, {"random edit, submit", agentrl.RandomEditSubmit},
			{"scripted search (edit, test, revert)", agentrl.EditTestRevert}, {"oracle", agentrl.OracleFix},
		}
		if f.patches {
			base[2] = struct {
				name  string
				agent agentrl.GymAgent
			}{"scripted search (patch until pass)", agentrl.PatchSearch}
		}
		genv := gym.NewEnv(pool, env)
		for _, b := range base {
			r := row{name: b.name}
			for _, s := range splits {
				ev, err := agentrl.EvalGym(genv, s.tasks, b.agent, s.reps, f.seed)
				if err != nil {
					return err
				}
				r.rates = append(r.rates, fmt.Sprintf("%.3f", ev.SolveRate()))
			}
			rows = append(rows, r)
		}
	}
	graded := "graded as it stands when they run out"
	if !f.submitAtLimit {
		graded = "no submission, no reward when they run out"
	}
	fmt.Fprintf(out, "\nsolve rate, %d calls per episode, %s (train: 1 episode per task; dev, test: %d)\n", f.turns, graded, f.evalReps)
	fmt.Fprintf(out, "%-38s %7s %7s %7s\n", "agent", "train", "dev", "test")
	for _, r := range rows {
		fmt.Fprintf(out, "%-38s %7s %7s %7s\n", r.name, r.rates[0], r.rates[1], r.rates[2])
	}
	if f.baselines && f.turns < 3 && !f.patches {
		fmt.Fprintf(out, "(the scripted search needs 3 calls or more to test an edit before it submits: with %d it cannot search)\n", f.turns)
	}
	fmt.Fprintf(out, "TinyAgent malformed calls: %.3f (decoding is masked to the call grammar)\n", malformed)
	if f.patches {
		fmt.Fprintf(out, "TinyAgent patched again after %d of %d patches that passed the visible tests and after %d of %d that failed (all splits)\n",
			uses.EditsAfterPass, uses.AfterPass, uses.EditsAfterFail, uses.AfterFail)
	}
	fmt.Fprintf(out, "metrics: %s  checkpoint: %s  total %.1f s\n", f.metrics, f.checkpoint, time.Since(start).Seconds())
	return nil
}

// readMetrics keeps the update lines of an earlier run up to update n (later lines came after
// the checkpoint and will be redone).
func readMetrics(path string, n int) ([]metricLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var keep []metricLine
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var m metricLine
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
		if m.Update != nil && m.Update.Step < n {
			keep = append(keep, m)
		}
	}
	return keep, nil
}

func writeMetrics(path string, lines []metricLine) error {
	var b strings.Builder
	for _, m := range lines {
		data, err := json.Marshal(m)
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func appendMetric(path string, m metricLine) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := fh.Write(append(data, '\n')); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
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
// until its solve rate reaches target or f.steps updates are done. The time it reports is
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
		target, f.algo, f.groups, f.size, f.turns, f.seed)
	for run.tr.Steps() < f.steps {
		start := time.Now()
		if _, err := run.tr.Step(); err != nil {
			return err
		}
		training += time.Since(start)
		if run.tr.Steps()%every != 0 && run.tr.Steps() != f.steps {
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
			fmt.Fprintf(out, "reached %.3f ≥ %.2f after %d updates: %.1f s of training (%.1f s more evaluating)\n",
				ev.Solved, target, run.tr.Steps(), training.Seconds(), evaluating.Seconds())
			return nil
		}
	}
	fmt.Fprintf(out, "target %.2f not reached in %d updates (%.1f s of training); best held-out %.3f after update %d\n",
		target, f.steps, training.Seconds(), best, bestAt)
	return nil
}
