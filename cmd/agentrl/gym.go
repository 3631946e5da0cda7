package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
	"github.com/agenticrl/course/gym/taskgen"
)

func init() {
	register(command{name: "gym", summary: "the BugFix gym: list, show, play, run, validate, bench, generate tasks", run: gymMain})
}

const gymUsage = `usage: agentrl gym SUBCOMMAND [flags]

  list                      tasks by split and kind
  show TASK [-all]          a task's module and visible tests (-all: hidden tests and fix too)
  play TASK                 type tool calls, see observations ('help' inside)
  run TASK -actions FILE    a scripted episode; the JSON trajectory goes to stdout
  validate                  prove every task's properties
  bench [-seconds S]        test runs per second: cold, fresh and cached
  generate [-seed N]        regenerate the task family into -tasks (-overwrite: replace a
                            different family there)
  generate -family heldout  the held-out family instead: new templates, dev and test only
                            (default -tasks: the checkout's datasets/bugfix-heldout)

common flags: -tasks DIR (default the checkout's datasets/bugfix), -reward hidden|visible|combined,
-turns N, -exploit (offer the exploit tool), -protect-tests, -patches (menu edits are patches of the
module at reset, each tested at once), -workers N, -sandbox auto|namespaces|rlimits`

type gymFlags struct {
	fs        *flag.FlagSet
	tasks     string
	reward    string
	turns     int
	tokens    int
	exploit   bool
	protect   bool
	workers   int
	mode      string
	actions   string
	all       bool
	seconds   float64
	seed      uint64
	family    string
	overwrite bool
	patches   bool
}

func newGymFlags(name string) *gymFlags {
	g := &gymFlags{fs: flag.NewFlagSet("gym "+name, flag.ContinueOnError)}
	g.fs.StringVar(&g.tasks, "tasks", defaultTasks(), "task folder")
	g.fs.StringVar(&g.reward, "reward", "hidden", "reward mode: hidden, visible or combined")
	g.fs.IntVar(&g.turns, "turns", 12, "tool calls per episode")
	g.fs.IntVar(&g.tokens, "tokens", 0, "token budget per episode (0: none)")
	g.fs.BoolVar(&g.exploit, "exploit", false, "offer the exploit tool")
	g.fs.BoolVar(&g.protect, "protect-tests", false, "refuse edits of the visible test file")
	g.fs.BoolVar(&g.patches, "patches", false, "menu edits are candidate patches of the module at reset, each followed by the visible tests")
	g.fs.IntVar(&g.workers, "workers", 0, "sandbox workers (0: one per CPU)")
	g.fs.StringVar(&g.mode, "sandbox", "auto", "sandbox mode: auto, namespaces or rlimits")
	g.fs.StringVar(&g.actions, "actions", "", "file of actions, one per line (run)")
	g.fs.BoolVar(&g.all, "all", false, "also show hidden tests and the reference fix (show)")
	g.fs.Float64Var(&g.seconds, "seconds", 3, "seconds per bench mode")
	g.fs.Uint64Var(&g.seed, "seed", 1, "generator seed (generate)")
	g.fs.StringVar(&g.family, "family", "bugfix", "task family to generate: "+strings.Join(taskgen.Families(), " or ")+" (generate)")
	g.fs.BoolVar(&g.overwrite, "overwrite", false, "replace a different task family in -tasks (generate)")
	return g
}

// parse accepts flags before and after positional arguments.
func (g *gymFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := g.fs.Parse(args); err != nil {
			return nil, usageErr(err)
		}
		if g.fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, g.fs.Arg(0))
		args = g.fs.Args()[1:]
	}
}

func (g *gymFlags) pool() (*sandbox.Pool, error) {
	if err := checkBounds(bound{flag: "-workers", value: float64(g.workers), lo: 0, hi: 1024}); err != nil {
		return nil, err
	}
	opts := sandbox.Options{Workers: g.workers}
	switch g.mode {
	case "auto":
	case "namespaces":
		opts.Mode = sandbox.ModeNamespaces
	case "rlimits":
		opts.Mode = sandbox.ModeRlimits
	default:
		return nil, fmt.Errorf("%w: unknown sandbox mode %q", errUsage, g.mode)
	}
	return sandbox.New(opts)
}

func (g *gymFlags) config() (gym.Config, error) {
	if err := checkBounds(
		bound{flag: "-turns", value: float64(g.turns), lo: 1, hi: 1000},
		bound{flag: "-tokens", value: float64(g.tokens), lo: 0, hi: 1 << 24},
	); err != nil {
		return gym.Config{}, err
	}
	mode, err := gym.ParseRewardMode(g.reward)
	if err != nil {
		return gym.Config{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	return gym.Config{Reward: mode, MaxTurns: g.turns, MaxTokens: g.tokens, AllowExploit: g.exploit,
		ProtectTests: g.protect, TryPatches: g.patches}, nil
}

func (g *gymFlags) task(pos []string) (*gym.Task, error) {
	if len(pos) != 1 {
		return nil, fmt.Errorf("%w: want one TASK id", errUsage)
	}
	tasks, err := loadTasks(g.tasks)
	if err != nil {
		return nil, err
	}
	for _, t := range tasks {
		if t.ID == pos[0] {
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: no task %q under %s (see agentrl gym list)", errUsage, pos[0], g.tasks)
}

func gymMain(args []string) error {
	if isHelp(args) {
		fmt.Fprintln(stderr, gymUsage)
		return flag.ErrHelp
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, gymUsage)
		return fmt.Errorf("%w: missing subcommand", errUsage)
	}
	sub := args[0]
	g := newGymFlags(sub)
	pos, err := g.parse(args[1:])
	if err != nil {
		return err
	}
	switch sub {
	case "list":
		return gymList(g)
	case "show":
		return gymShow(g, pos)
	case "play":
		return gymPlay(g, pos)
	case "run":
		return gymRun(g, pos)
	case "validate":
		return gymValidate(g)
	case "bench":
		return gymBench(g)
	case "generate":
		return gymGenerate(g)
	}
	fmt.Fprintln(os.Stderr, gymUsage)
	return fmt.Errorf("%w: unknown subcommand %q", errUsage, sub)
}

func gymList(g *gymFlags) error {
	tasks, err := loadTasks(g.tasks)
	if err != nil {
		return err
	}
	for _, s := range gym.Splits {
		fmt.Printf("%s:\n", s)
		for _, t := range gym.Filter(tasks, s, "") {
			fmt.Printf("  %-40s %-20s difficulty %d  %s line %d: %s\n", t.ID, t.Kind, t.Difficulty, t.ModuleFile(), t.BugLine, t.Bug)
		}
	}
	fmt.Println()
	gym.PrintCounts(os.Stdout, tasks)
	return nil
}

func gymShow(g *gymFlags, pos []string) error {
	t, err := g.task(pos)
	if err != nil {
		return err
	}
	fmt.Printf("task %s (split %s, template %s, kind %s, difficulty %d)\n", t.ID, t.Split, t.Template, t.Kind, t.Difficulty)
	fmt.Printf("\n%s (buggy):\n%s\n%s:\n%s", t.ModuleFile(), gym.Numbered(t.Buggy, 1, 0), gym.VisibleTestFile, t.VisibleTests)
	if g.all {
		fmt.Printf("\nbug: line %d, %s\n\nreference fix:\n%s\n%s:\n%s", t.BugLine, t.Bug, gym.Numbered(t.Fix, 1, 0), gym.HiddenTestFile, t.HiddenTests)
	}
	return nil
}

func gymPlay(g *gymFlags, pos []string) error {
	t, err := g.task(pos)
	if err != nil {
		return err
	}
	cfg, err := g.config()
	if err != nil {
		return err
	}
	pool, err := g.pool()
	if err != nil {
		return err
	}
	defer pool.Close()
	fmt.Printf("[sandbox: %s]\n", pool.Mode())
	env := gym.NewEnv(pool, cfg)
	fmt.Println(env.Reset(t).Text)
	in := bufio.NewScanner(os.Stdin)
	for {
		fmt.Printf("\n[turn %d/%d] > ", env.Turn()+1, cfg.MaxTurns)
		if !in.Scan() {
			fmt.Println()
			return in.Err()
		}
		line := strings.TrimSpace(in.Text())
		switch {
		case line == "":
			continue
		case line == "help":
			fmt.Println("commands: read [PATH] | test | edit START END TEXT | sub SEARCH => REPLACE | apply LINE INDEX | submit | exploit [memorize|rewrite_tests]\n" +
				"          a JSON tool call {\"name\": ..., \"arguments\": {...}} | menu [LINE] (free: shows candidate edits) | quit")
			continue
		case line == "quit" || line == "exit":
			return nil
		case line == "menu" || strings.HasPrefix(line, "menu "):
			var only int
			fmt.Sscanf(strings.TrimPrefix(line, "menu"), "%d", &only)
			for i, edits := range env.Menu() {
				if only != 0 && i+1 != only {
					continue
				}
				for k, e := range edits {
					fmt.Printf("  apply %d %d   %s\n", i+1, k, e)
				}
			}
			continue
		}
		a, err := gym.ParseCommand(line)
		var st gym.Step
		if err != nil {
			// Malformed input is the agent's mistake: it costs a turn, like any bad tool call.
			st, err = env.StepText(line)
		} else {
			st, err = env.Step(a)
		}
		if err != nil {
			return err
		}
		fmt.Println(st.Obs.Text)
		if st.Done {
			fmt.Printf("[episode over: reward %.2f]\n", st.Reward)
			return nil
		}
	}
}

type trajectoryStep struct {
	Action      string  `json:"action"`
	Observation string  `json:"observation"`
	Error       string  `json:"error,omitempty"`
	Reward      float64 `json:"reward"`
	Done        bool    `json:"done"`
	Truncated   bool    `json:"truncated,omitempty"`
}

type trajectory struct {
	Task       string           `json:"task"`
	RewardMode string           `json:"reward_mode"`
	Sandbox    string           `json:"sandbox"`
	Prompt     string           `json:"prompt"`
	Steps      []trajectoryStep `json:"steps"`
	Reward     float64          `json:"reward"`
	Done       bool             `json:"done"`
	Outcome    *gym.Outcome     `json:"outcome,omitempty"`
}

func gymRun(g *gymFlags, pos []string) error {
	t, err := g.task(pos)
	if err != nil {
		return err
	}
	if g.actions == "" {
		return fmt.Errorf("%w: run needs -actions FILE", errUsage)
	}
	raw, err := os.ReadFile(g.actions)
	if err != nil {
		return err
	}
	// An empty file would print a trajectory of no steps, reward 0, as if an episode had run.
	if !slices.ContainsFunc(strings.Split(string(raw), "\n"), func(l string) bool {
		l = strings.TrimSpace(l)
		return l != "" && !strings.HasPrefix(l, "#")
	}) {
		return fmt.Errorf("%w: -actions %s holds no actions (one a line; # starts a comment)", errUsage, g.actions)
	}
	cfg, err := g.config()
	if err != nil {
		return err
	}
	pool, err := g.pool()
	if err != nil {
		return err
	}
	defer pool.Close()
	env := gym.NewEnv(pool, cfg)
	tr := trajectory{Task: t.ID, RewardMode: cfg.Reward.String(), Sandbox: pool.Mode().String(), Prompt: env.Reset(t).Text}
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var st gym.Step
		a, perr := gym.ParseCommand(line)
		if perr != nil {
			st, err = env.StepText(line)
		} else {
			st, err = env.Step(a)
		}
		if err != nil {
			return err
		}
		ts := trajectoryStep{Action: line, Observation: st.Obs.Text, Reward: st.Reward, Done: st.Done, Truncated: st.Truncated}
		if st.Obs.Struct.Error != gym.ErrNone {
			ts.Error = st.Obs.Struct.Error.String()
		}
		tr.Steps = append(tr.Steps, ts)
		tr.Reward, tr.Done, tr.Outcome = st.Reward, st.Done, st.Outcome
		if st.Done {
			break
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(tr)
}

func gymValidate(g *gymFlags) error {
	tasks, err := loadTasks(g.tasks)
	if err != nil {
		return err
	}
	pool, err := g.pool()
	if err != nil {
		return err
	}
	defer pool.Close()
	fmt.Printf("sandbox mode: %s, %d workers\n", pool.Mode(), pool.Workers())
	gym.PrintCounts(os.Stdout, tasks)
	start := time.Now()
	v, err := gym.Validate(pool, tasks)
	if err != nil {
		return err
	}
	v.Print(os.Stdout)
	fmt.Printf("(%.1f s)\n", time.Since(start).Seconds())
	if !v.OK() {
		return fmt.Errorf("%d problems", len(v.Problems))
	}
	return nil
}

func gymBench(g *gymFlags) error {
	if err := checkBounds(bound{flag: "-seconds", value: g.seconds, lo: 0, hi: 3600, loOpen: true}); err != nil {
		return err
	}
	tasks, err := loadTasks(g.tasks)
	if err != nil {
		return err
	}
	pool, err := g.pool()
	if err != nil {
		return err
	}
	defer pool.Close()
	fmt.Printf("sandbox mode: %s, %d workers; visible tests of %d tasks, %.0f s per mode\n", pool.Mode(), pool.Workers(), len(tasks), g.seconds)
	res, err := gym.Bench(pool, tasks, time.Duration(g.seconds*float64(time.Second)))
	if err != nil {
		return err
	}
	for _, r := range res {
		fmt.Printf("%-7s %8d runs in %5.1f s: %10.1f runs/s\n", r.Name, r.Runs, r.Seconds, r.RunsPerSec)
	}
	cold, fresh, cached := res[0], res[1], res[2]
	fmt.Printf("fresh/cold: %.1fx   cached/fresh: %.0fx\n", fresh.RunsPerSec/cold.RunsPerSec, cached.RunsPerSec/fresh.RunsPerSec)
	return nil
}

func gymGenerate(g *gymFlags) error {
	if !slices.Contains(taskgen.Families(), g.family) {
		return fmt.Errorf("%w: unknown family %q (want %s)", errUsage, g.family, strings.Join(taskgen.Families(), " or "))
	}
	tasksSet := false
	g.fs.Visit(func(f *flag.Flag) { tasksSet = tasksSet || f.Name == "tasks" })
	if g.family != "bugfix" && !tasksSet {
		// Another family never goes into datasets/bugfix by default: it has a folder of its own.
		g.tasks = filepath.Join(filepath.Dir(defaultTasks()), "bugfix-"+g.family)
	}
	tasks, err := taskgen.Generate(taskgen.Options{Family: g.family, Seed: g.seed})
	if err != nil {
		return err
	}
	changed, err := taskgen.Write(g.tasks, tasks, g.overwrite)
	if errors.Is(err, taskgen.ErrDifferentFamily) {
		return fmt.Errorf("%w; family %s, seed %d makes another one. Pass -overwrite to replace it, or -tasks DIR to write elsewhere", err, g.family, g.seed)
	}
	if err != nil {
		return err
	}
	if !changed {
		fmt.Printf("%s already holds these %d tasks (family %s, seed %d): nothing to write\n", g.tasks, len(tasks), g.family, g.seed)
		return nil
	}
	fmt.Printf("wrote %d tasks to %s\n", len(tasks), g.tasks)
	gym.PrintCounts(os.Stdout, tasks)
	return nil
}
