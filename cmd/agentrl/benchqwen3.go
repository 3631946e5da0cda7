package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/agenticrl/course/bench/qwenbench"
)

const benchQwen3Usage = `usage: agentrl bench qwen3 [flags]

Times the Qwen3 model (forward log-probs, the PPO update of qwenagent's trainer, and generation
of a group of rows with the key/value cache) on the current backend against the same checkpoint
in PyTorch (transformers' Qwen3ForCausalLM, one python3 process), after checking that both give
the same log-probs on the same batch. Without -model-dir it writes a random checkpoint of
Qwen3-0.6B's architecture (28 layers, hidden 1024, vocab 151936) at transformers' initial scale.

It is meant for a machine with an NVIDIA GPU: build agentrl with the XLA backend (make
agentrl-xla), eval "$(bash backend/gpu.sh)" there, and PyTorch runs on CUDA; on the pure-Go
backend PyTorch runs on the CPU, and -tiny makes the run small enough for it. The PyTorch side
needs python3 with the pip packages torch, transformers and safetensors.

Precision (both sides): f32 exact float32 (TF32 off); tf32 TF32 matrix products (XLA on CUDA
only); bf16 torch.autocast(bfloat16) and the Go model's bfloat16 autocast.

flags:`

// benchQwen3 parses the flags, runs the benchmark and prints its table.
func benchQwen3(w io.Writer, args []string) error {
	o := qwenbench.DefaultOptions()
	fs := flag.NewFlagSet("agentrl bench qwen3", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.ModelDir, "model-dir", "", "Qwen3 model folder (config.json + safetensors); default: a random Qwen3-0.6B-shaped checkpoint")
	fs.StringVar(&o.KeepModel, "keep-model", "", "write the random checkpoint into this folder and keep it (reuse it with -model-dir)")
	fs.BoolVar(&o.Tiny, "tiny", false, "a random 2-layer model (hidden 64, vocab 512) and small shapes, for a CPU")
	fs.StringVar(&o.Precision, "precision", o.Precision, "f32, tf32 or bf16")
	fs.Float64Var(&o.Tolerance, "tolerance", 0, "largest max |Δ log-prob| parity accepts (default 1e-4 at f32, 1e-2 at tf32, 1e-1 at bf16)")
	sizes := map[string]*int{}
	for _, f := range []struct {
		name, usage string
		v           *int
	}{
		{"rows", "sequences in the batch", &o.Rows}, {"seq", "tokens per sequence", &o.Seq},
		{"agent", "agent tokens per row in the update (the last ones)", &o.Agent},
		{"group", "rows generated together", &o.Group}, {"prompt", "prompt tokens of the generation", &o.Prompt},
		{"new", "tokens generated per row", &o.New}, {"warmup", "untimed runs of each part", &o.Warmup},
		{"iters", "timed runs of each part (the median is reported)", &o.Iters},
	} {
		fs.IntVar(f.v, f.name, *f.v, f.usage)
		sizes[f.name] = f.v
	}
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "seeds the checkpoint, the batch and the sampling")
	fs.StringVar(&o.Python, "python", o.Python, "python3 with torch, transformers and safetensors")
	noTorch := fs.Bool("no-torch", false, "time the Go side alone (no parity check)")
	jsonOut := fs.String("json", "", "also write every figure, the devices, the settings and the date to this JSON file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, benchQwen3Usage)
		fs.PrintDefaults()
	}
	if err := parseFlagSet(fs, args); err != nil {
		return err
	}
	if o.Tiny { // the small shapes, where no flag said otherwise
		tiny := qwenbench.TinyOptions()
		small := map[string]int{"rows": tiny.Rows, "seq": tiny.Seq, "agent": tiny.Agent, "group": tiny.Group,
			"prompt": tiny.Prompt, "new": tiny.New, "warmup": tiny.Warmup, "iters": tiny.Iters}
		fs.Visit(func(f *flag.Flag) { delete(small, f.Name) })
		for name, v := range small {
			*sizes[name] = v
		}
	}
	if *noTorch {
		o.Python = ""
	}
	if err := o.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	o.Progress = stderr
	rep, err := qwenbench.Run(o)
	if rep != nil && *jsonOut != "" { // also after a failure: what was measured, and why it stopped
		if jerr := rep.WriteJSON(*jsonOut); jerr != nil && err == nil {
			err = jerr
		}
	}
	if err != nil {
		return err
	}
	return rep.Write(w)
}
