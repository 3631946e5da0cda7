package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gomlx/compute/dtypes"

	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwenagent"
)

// qwen3Settings are the settings a Qwen3 run's updates depend on, kept in its run.json.
type qwen3Settings struct {
	Kind        string // kindQwen3
	ModelDir    string
	Round       qwenagent.RoundOptions
	Train       qwenagent.TrainOptions
	Tasks       string
	TestTimeout time.Duration
	// BF16 runs the model's matrix products in bfloat16 over its float32 weights and Adam state
	// (model.SetAutocast): the rollouts' and the update's.
	BF16 bool
}

type qwen3TrainFlags struct {
	qwen3Settings
	steps, every int
	out          string
	resume       bool
	progress     io.Writer
}

const qwen3TrainUsage = `usage: agentrl train qwen3 -model-dir DIR [flags]

Trains a Qwen3 model as a BugFix agent with a GRPO-family update: each update draws a train task,
plays -group-size episodes of it through the model's chat template (replies sampled with the
key/value cache, <tool_call> JSON parsed into gym actions, tool responses appended), and takes one
Adam step on the clipped token-level surrogate over the agent's tokens, with group-relative
advantages. The run folder (-out) keeps run.json (the settings), metrics.jsonl (one line per
update) and checkpoint/ (config.json and model.safetensors, which -model-dir and every
"agentrl qwen3" command read, plus Adam's state for -resume).

Weights: -model-dir names a folder with config.json and safetensors (a download of
Qwen/Qwen3-0.6B); without it the Hugging Face cache is searched. Nothing is downloaded. To try the
loop without weights: agentrl qwen3 init-tiny DIR, then -model-dir DIR -lr 1e-3.

Backend: the pure-Go CPU backend, unless GOMLX_BACKEND names another. On a machine with an
NVIDIA GPU: build agentrl with the XLA backend (make agentrl-xla: .cache/bin/agentrl-xla), have
Python with the pip package jax-cuda13-pjrt there, eval "$(bash backend/gpu.sh)" in the
repository, which sets GOMLX_BACKEND=xla:<JAX's CUDA plugin> and the library paths, and run
.cache/bin/agentrl-xla train qwen3 ... (TF32 matrix products; append ,notf32 to GOMLX_BACKEND for
exact float32). README, "Using a GPU".

flags:`

func parseQwen3TrainFlags(args []string) (*qwen3TrainFlags, error) {
	f := &qwen3TrainFlags{progress: stderr}
	f.Kind = kindQwen3
	r, tr := &f.Round, &f.Train
	*tr = qwenagent.DefaultTrainOptions()
	tr.LR = 1e-6
	fs := flag.NewFlagSet("train qwen3", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.ModelDir, "model-dir", "", "model folder (config.json + safetensors); default: Qwen/Qwen3-0.6B in the Hugging Face cache")
	fs.IntVar(&f.steps, "steps", 2, "updates")
	fs.IntVar(&r.Group, "group-size", 4, "episodes per task in an update")
	fs.IntVar(&r.Turns, "turns", 4, "tool calls per episode")
	fs.IntVar(&r.MaxNew, "max-new", 64, "tokens per reply at most")
	fs.Float64Var(&r.Temperature, "temperature", 1, "sampling temperature")
	fs.BoolVar(&r.Teacher, "teacher", false, "make each group's first episode the scripted solution (a warm start while the model cannot solve a task)")
	fs.Uint64Var(&r.Seed, "seed", 1, "seeds the tasks drawn and every sample")
	fs.Float64Var(&tr.LR, "lr", tr.LR, "Adam learning rate (1e-6 suits Qwen3-0.6B; a tiny random checkpoint needs about 1e-3)")
	fs.Float64Var(&tr.Clip, "clip", tr.Clip, "clip range ε of the surrogate")
	fs.BoolVar(&tr.ScaleByStd, "scale-std", false, "GRPO's advantages (divided by the group's standard deviation); default Dr. GRPO's (not divided)")
	fs.BoolVar(&tr.TrainEmbeddings, "train-embeddings", false, "also train the embedding matrix")
	fs.BoolVar(&f.BF16, "bf16", false, "run the matrix products in bfloat16 (autocast) over float32 weights and Adam state: on a GPU, its tensor cores")
	fs.IntVar(&r.Batch, "batch", 0, "episodes of a group decoded together (0: the whole group)")
	fs.StringVar(&f.out, "out", "", "run folder (default runs/qwen3-seedN)")
	fs.BoolVar(&f.resume, "resume", false, "continue from the run folder's checkpoint under the settings in its run.json (only -steps may change)")
	fs.IntVar(&f.every, "checkpoint-every", 10, "write a checkpoint every N updates (and at the end)")
	fs.StringVar(&f.Tasks, "tasks", defaultTasks(), "task folder")
	fs.DurationVar(&f.TestTimeout, "test-timeout", 200*time.Millisecond, "CPU-time limit of one test run in the sandbox (its wall-clock backstop: 10 times this, at least 2s)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, qwen3TrainUsage)
		fs.PrintDefaults()
	}
	if err := parseFlagSet(fs, args); err != nil {
		return nil, err
	}
	if err := checkBounds(
		bound{flag: "-steps", value: float64(f.steps), lo: 1, hi: 100_000},
		bound{flag: "-group-size", value: float64(r.Group), lo: 2, hi: 64},
		bound{flag: "-turns", value: float64(r.Turns), lo: 1, hi: 32},
		bound{flag: "-max-new", value: float64(r.MaxNew), lo: 1, hi: 4096},
		bound{flag: "-batch", value: float64(r.Batch), lo: 0, hi: 64},
		bound{flag: "-temperature", value: r.Temperature, lo: 0, hi: 10, loOpen: true},
		bound{flag: "-lr", value: tr.LR, lo: 0, hi: 1, loOpen: true},
		bound{flag: "-clip", value: tr.Clip, lo: 0, hi: 10, loOpen: true},
		bound{flag: "-checkpoint-every", value: float64(f.every), lo: 1, hi: 100_000},
		bound{flag: "-test-timeout", value: f.TestTimeout.Seconds(), lo: 0, hi: 60, loOpen: true},
	); err != nil {
		return nil, err
	}
	if f.out == "" {
		f.out = filepath.Join("runs", fmt.Sprintf("qwen3-seed%d", r.Seed))
	}
	if tasks, err := filepath.Abs(f.Tasks); err == nil {
		f.Tasks = tasks
	}
	return f, nil
}

// qwen3ModelDir is the folder -model-dir names, or Qwen3-0.6B in the Hugging Face cache.
func qwen3ModelDir(dir string) (string, error) {
	const how = "pass -model-dir DIR, a folder holding config.json and model.safetensors (a download of " + files.Repo +
		"), or download it into the Hugging Face cache; to try the loop without weights, write a small random checkpoint with `agentrl qwen3 init-tiny DIR` and pass -model-dir DIR"
	if dir == "" {
		d, err := files.Find("")
		if err == nil && d.Source == files.FromHFCache {
			if _, err := os.Stat(filepath.Join(d.Path, model.ConfigFile)); err == nil {
				return d.Path, nil
			}
		}
		return "", fmt.Errorf("%w: no Qwen3 weights found: %s", errUsage, how)
	}
	if _, err := os.Stat(filepath.Join(dir, model.ConfigFile)); err != nil {
		return "", fmt.Errorf("%w: %s has no %s: %s", errUsage, dir, model.ConfigFile, how)
	}
	return filepath.Abs(dir)
}

func trainQwen3Main(args []string, out io.Writer) error {
	f, err := parseQwen3TrainFlags(args)
	if err != nil {
		return err
	}
	return trainQwen3(f, out)
}

func trainQwen3(f *qwen3TrainFlags, out io.Writer) (err error) {
	if !f.resume {
		if f.ModelDir, err = qwen3ModelDir(f.ModelDir); err != nil {
			return err
		}
	}
	rf, err := claimRunFolder(f.out, kindQwen3, "checkpoint", f.resume)
	if err != nil {
		return err
	}
	defer func() { rf.release(err) }()
	settings, metrics, ckpt := filepath.Join(f.out, "run.json"), filepath.Join(f.out, "metrics.jsonl"), filepath.Join(f.out, "checkpoint")
	load := ckpt
	if f.resume {
		if err := checkSettings(settings, f.qwen3Settings, qwen3TrainFlagNames, sameQwen3(f.ModelDir != "")); err != nil {
			return err
		}
	} else {
		if err := writeJSON(settings, f.qwen3Settings); err != nil {
			return err
		}
		load = f.ModelDir
	}
	tasks, err := trainTasks(f.Tasks)
	if err != nil {
		return err
	}
	a, tr, err := loadQwen3Trainer(load, f.Train, f.BF16)
	if err != nil {
		return err
	}
	if err := startQwen3Metrics(tr, f.resume, ckpt, metrics, out); err != nil {
		return err
	}
	pool, err := sandbox.New(sandbox.Options{Timeout: f.TestTimeout, MemoDir: memoDir()})
	if err != nil {
		return err // the sandbox names what is missing (python3, a limit) itself
	}
	defer pool.Close()
	rf.start()
	c := a.Model.Config
	fmt.Fprintf(out, "model %s: %d layers, hidden %d, %d parameters; backend %s; matrix products in %s\n", load, c.NumHiddenLayers, c.HiddenSize,
		c.NumParameters(), a.Model.Backend().Name(), a.Model.Autocast())
	bar := newProgress(f.progress, f.steps)
	var rewards, secs float64
	var replies, parsed, prompt, rounds int
	var warm warmTimes
	for tr.Updates < f.steps {
		r, err := tr.PlayRound(a, pool, tasks, f.Round)
		if err != nil {
			return fmt.Errorf("update %d: %w (last checkpoint: %s)", tr.Updates+1, err, ckpt)
		}
		if err := appendMetric(metrics, metricLine[qwenagent.Round]{Update: &r}); err != nil {
			return err
		}
		rewards += meanOf(r.Rewards)
		replies, parsed, prompt, rounds = replies+r.Replies, parsed+r.Parsed, r.PromptTokens, rounds+1
		secs += r.RolloutSeconds + r.UpdateSeconds
		warm.add(rounds, r)
		bar.update(tr.Updates, fmt.Sprintf("reward %.2f  parsed %d/%d  log-prob change %+.3f / %+.3f", meanOf(r.Rewards), r.Parsed, r.Replies, r.GainUp, r.GainDown))
		if tr.Updates%f.every == 0 || tr.Updates == f.steps {
			if err := tr.Save(ckpt); err != nil {
				return err
			}
		}
	}
	bar.done()
	if rounds == 0 {
		fmt.Fprintf(out, "the run already has %d updates: raise -steps to train further\n", tr.Updates)
		return nil
	}
	fmt.Fprintf(out, "%d updates of %d episodes: mean reward %.3f, replies that parsed as a tool call %d of %d, prompt %d tokens, %.1f s per update\n",
		rounds, f.Round.Group, rewards/float64(rounds), parsed, replies, prompt, secs/float64(rounds))
	if warm.rounds > 0 {
		fmt.Fprintf(out, "after this process's first update (which compiles): per update, rollouts %.2f s (%.0f generated tokens/s), gradient step %.2f s\n",
			warm.rollout/float64(warm.rounds), float64(warm.tokens)/warm.rollout, warm.update/float64(warm.rounds))
	}
	fmt.Fprintf(out, "metrics: %s  checkpoint: %s\n", metrics, ckpt)
	return nil
}

// startQwen3Metrics empties metrics.jsonl for a new run; resuming, it restores the trainer from
// the checkpoint and keeps the metrics of the updates the checkpoint holds.
func startQwen3Metrics(tr *qwenagent.Trainer, resume bool, ckpt, metrics string, out io.Writer) error {
	if resume {
		if err := tr.Restore(ckpt); err != nil {
			return err
		}
		fmt.Fprintf(out, "resumed %s at update %d\n", ckpt, tr.Updates)
	}
	return startMetrics(metrics, resume, tr.Updates)
}

// trainTasks loads the train split of the task folder dir, which must have one.
func trainTasks(dir string) ([]*gym.Task, error) {
	all, err := loadTasks(dir)
	if err != nil {
		return nil, err
	}
	tasks := gym.Filter(all, gym.Train, "")
	if len(tasks) == 0 {
		return nil, fmt.Errorf("no train tasks in %s", dir)
	}
	return tasks, nil
}

// loadQwen3Trainer loads the model folder dir as an agent, its matrix products in bfloat16 with
// bf16, and makes its trainer.
func loadQwen3Trainer(dir string, o qwenagent.TrainOptions, bf16 bool) (*qwenagent.Agent, *qwenagent.Trainer, error) {
	a, err := qwenagent.Load(dir, nil)
	if err != nil {
		return nil, nil, err
	}
	if bf16 {
		if err := a.Model.SetAutocast(dtypes.BFloat16); err != nil {
			return nil, nil, err
		}
	}
	tr, err := qwenagent.NewTrainer(a.Model, o)
	if err != nil {
		return nil, nil, err
	}
	return a, tr, nil
}

// warmTimes adds up where the updates after a process's first went: the first compiles the
// graphs of a new process (seconds to a minute on a GPU) and would hide the steady state.
type warmTimes struct {
	rounds          int
	tokens          int
	rollout, update float64
}

// add counts round r, the nth of this process (counted from 1), unless it is the first.
func (w *warmTimes) add(n int, r qwenagent.Round) {
	if n > 1 {
		w.rounds, w.tokens = w.rounds+1, w.tokens+r.GenTokens
		w.rollout, w.update = w.rollout+r.RolloutSeconds, w.update+r.UpdateSeconds
	}
}

func meanOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(max(len(xs), 1))
}

// qwen3TrainFlagNames names the flag that sets each field of qwen3Settings, by the field's path.
var qwen3TrainFlagNames = map[string]string{
	"ModelDir": "-model-dir", "Round.Group": "-group-size", "Round.Turns": "-turns", "Round.MaxNew": "-max-new",
	"Round.Temperature": "-temperature", "Round.Teacher": "-teacher", "Round.Seed": "-seed", "Round.Batch": "-batch",
	"Train.LR": "-lr", "Train.Clip": "-clip", "Train.ScaleByStd": "-scale-std", "Train.TrainEmbeddings": "-train-embeddings",
	"Tasks": "-tasks", "TestTimeout": "-test-timeout", "BF16": "-bf16",
}

// sameQwen3 is what a resumed Qwen3 run may leave out: its model comes from its checkpoint, so
// -model-dir is only compared when given (modelDirGiven).
func sameQwen3(modelDirGiven bool) func(run qwen3Settings, now *qwen3Settings) {
	return func(run qwen3Settings, now *qwen3Settings) {
		now.Kind = run.Kind // claimRunFolder checked it, and a run.json of an earlier version has none
		if !modelDirGiven {
			now.ModelDir = run.ModelDir
		} else if abs, err := filepath.Abs(now.ModelDir); err == nil {
			now.ModelDir = abs
		}
	}
}
