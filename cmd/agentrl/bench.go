package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/agenticrl/course/bench/tinybench"
)

func init() {
	register(command{name: "bench", summary: "benchmarks: `bench tinyagent` times TinyAgent's steps against PyTorch, and a training run; `bench qwen3` times Qwen3 against PyTorch (on a GPU with the XLA build)", run: benchMain})
}

const benchUsage = `usage: agentrl bench tinyagent [flags]
       agentrl bench qwen3 [flags]     (its flags: agentrl bench qwen3 --help)

tinyagent: TinyAgent's training step (log-probs, REINFORCE loss, backward, Adam; GoMLX) and
sampling step (one tool call per row: prompt pass, cached decode steps; the plain-Go decoder of
package tinyrt) against the same model and steps in PyTorch on the CPU, after checking that both
compute the same numbers. Then a run of the default recipe, with where each update's time went.
Needs Debian's PyTorch and OpenBLAS (AGENTRL_TEST_DEPS=1 make setup).

flags:
  --rows 32,128   batch sizes (rows per step), comma-separated
  --iters N       timed runs per step and side, median reported (default 20)
  --warmup N      untimed runs first (default 3)
  --threads N     threads on both sides (default: GOMAXPROCS)
  --tasks DIR     BugFix tasks; start states come from the train split (default datasets/bugfix)
  --seed N        weights, sampled calls, advantages (default 1)
  --torch-defaults  PyTorch with glibc's and OpenMP's defaults instead of tinybench.TorchTuning
  --fast-graph    time TinyAgent's fast training graph (TinyAgent.FastGraph: the last layer only
                  at the positions whose log-probs are read, pruned the same way in PyTorch), and
                  train with -fast-graph
  --target R      then train TinyAgent with the defaults of 'agentrl train tinyagent' and time how
                  long it takes to reach held-out (test split) solve rate R, with the seconds per
                  update spent sampling, in the gym and in gradient steps (default 0.30; 0: skip)
  --target-steps N  give up after N updates (default 20)
  --target-every N  evaluate the held-out split every N updates (default 5)`

func benchMain(args []string) error {
	if isHelp(args) {
		fmt.Fprintln(stderr, benchUsage)
		return flag.ErrHelp
	}
	switch {
	case len(args) > 0 && args[0] == "tinyagent":
		return benchTinyAgent(os.Stdout, args[1:])
	case len(args) > 0 && args[0] == "qwen3":
		return benchQwen3(os.Stdout, args[1:])
	}
	fmt.Fprintln(stderr, benchUsage)
	return fmt.Errorf("%w: %swant `agentrl bench tinyagent|qwen3 [flags]`", errUsage, unknownWhat(args))
}

// benchTinyAgent parses the flags and runs the parts of the TinyAgent benchmark.
func benchTinyAgent(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("agentrl bench tinyagent", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rows := fs.String("rows", "32,128", "batch sizes")
	o := tinybench.Options{}
	fs.IntVar(&o.Iters, "iters", 20, "timed runs")
	fs.IntVar(&o.Warmup, "warmup", 3, "warm-up runs")
	fs.IntVar(&o.Threads, "threads", 0, "threads")
	fs.StringVar(&o.Tasks, "tasks", defaultTasks(), "task folder")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed")
	fs.BoolVar(&o.TorchDefaults, "torch-defaults", false, "PyTorch without allocator and OpenMP tuning")
	fs.BoolVar(&o.FastGraph, "fast-graph", false, "TinyAgent's fast training graph")
	target := fs.Float64("target", 0.30, "held-out solve rate to reach")
	targetSteps := fs.Int("target-steps", 20, "updates before giving up")
	targetEvery := fs.Int("target-every", 5, "updates between evaluations")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(stderr, benchUsage)
		return usageErr(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	for _, s := range strings.Split(*rows, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 1024 {
			return fmt.Errorf("%w: --rows %q: want comma-separated batch sizes from 1 to 1024", errUsage, *rows)
		}
		o.Rows = append(o.Rows, n)
	}
	if err := checkBounds(
		bound{flag: "--iters", value: float64(o.Iters), lo: 1, hi: 100_000},
		bound{flag: "--warmup", value: float64(o.Warmup), lo: 0, hi: 100_000},
		bound{flag: "--threads", value: float64(o.Threads), lo: 0, hi: 1024},
		bound{flag: "--target", value: *target, lo: 0, hi: 1},
		bound{flag: "--target-steps", value: float64(*targetSteps), lo: 1, hi: 100_000},
		bound{flag: "--target-every", value: float64(*targetEvery), lo: 1, hi: 100_000},
	); err != nil {
		return err
	}
	if err := benchTinyAgentSteps(w, o); err != nil {
		return err
	}
	if *target == 0 {
		return nil
	}
	f, err := parseTrainFlags([]string{"-tasks", o.Tasks, "-seed", strconv.FormatUint(o.Seed, 10), "-steps", strconv.Itoa(*targetSteps),
		"-fast-graph=" + strconv.FormatBool(o.FastGraph)})
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	return timeToTarget(f, *target, *targetEvery, w)
}

// benchTinyAgentSteps is the step-time part of the TinyAgent benchmark: each step's median time
// on both sides and their ratio.
func benchTinyAgentSteps(w io.Writer, o tinybench.Options) error {
	// An interrupt stops the timing between rounds, so the PyTorch process and its files go too.
	// It is caught only here: during the training run that follows, it ends the process at once,
	// as it ends `train` (sandbox workers die with it).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Progress = stderr
	rep, err := tinybench.Compare(ctx, o)
	if ctx.Err() != nil {
		return errors.New("interrupted")
	}
	if err != nil {
		return err
	}
	return rep.Write(w)
}
