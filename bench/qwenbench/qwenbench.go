package qwenbench

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/safetensors"
)

// Precisions, in the order the benchmark documents them.
var Precisions = []string{"f32", "tf32", "bf16"}

// Tolerances are the default parity tolerances per precision: the largest max |Δ log-prob|
// between the two sides that still counts as the same model. Exact float32 differs only in
// summation order; TF32 and bfloat16 round differently on each side, so theirs catch a wrong
// model, not a rounding difference.
var Tolerances = map[string]float64{"f32": 1e-4, "tf32": 1e-2, "bf16": 1e-1}

// Options configures Run.
type Options struct {
	ModelDir  string `json:"model_dir"`  // a Qwen3 model folder; "" writes a random checkpoint (see Tiny)
	KeepModel string `json:"keep_model"` // with ModelDir "", write the random checkpoint here and keep it
	// Tiny makes the random checkpoint TinyShape's instead of Qwen3-0.6B's.
	Tiny      bool    `json:"tiny"`
	Precision string  `json:"precision"` // f32, tf32 or bf16
	Tolerance float64 `json:"tolerance"` // parity tolerance; 0: Tolerances[Precision]
	Rows      int     `json:"rows"`      // the batch: Rows sequences of Seq tokens
	Seq       int     `json:"seq"`
	Agent     int     `json:"agent"`  // agent tokens per row in the update (the last ones)
	Group     int     `json:"group"`  // rows generated together
	Prompt    int     `json:"prompt"` // prompt tokens of the generation
	New       int     `json:"new"`    // tokens generated per row
	Warmup    int     `json:"warmup"` // untimed runs of each part first
	Iters     int     `json:"iters"`  // timed runs; the median is reported
	Seed      uint64  `json:"seed"`   // the checkpoint, the token ids, the advantages and the sampling
	Python    string  `json:"python"` // interpreter of the PyTorch side; "" times the Go side alone, without parity
	// Backend is the Go side's backend configuration before the precision's options; "":
	// backend.Config() ($GOMLX_BACKEND, else the pure-Go backend).
	Backend  string    `json:"base_backend"`
	Progress io.Writer `json:"-"` // gets a line as each stage starts and ends; nil: none
}

// DefaultOptions are `agentrl bench qwen3`'s defaults: Qwen3-0.6B's training-sized batch.
func DefaultOptions() Options {
	return Options{Precision: "f32", Rows: 8, Seq: 1024, Agent: 256, Group: 8, Prompt: 128, New: 128,
		Warmup: 2, Iters: 5, Seed: 1, Python: "python3"}
}

// TinyOptions are the sizes of a run on TinyShape, small enough for a CPU.
func TinyOptions() Options {
	o := DefaultOptions()
	o.Tiny, o.Rows, o.Seq, o.Agent, o.Group, o.Prompt, o.New, o.Warmup, o.Iters = true, 2, 64, 16, 2, 8, 8, 1, 2
	return o
}

// Qwen06Shape is Qwen3-0.6B's architecture; its rms_norm_eps (1e-6), rope_theta (1e6) and
// special tokens are model.TinyConfig's. Weights at transformers' initialisation scale.
var Qwen06Shape = model.TinyOptions{VocabSize: 151936, HiddenSize: 1024, IntermediateSize: 3072, NumHiddenLayers: 28,
	NumAttentionHeads: 16, NumKeyValueHeads: 8, HeadDim: 128, Tied: true, InitStd: 0.02, DType: safetensors.BF16}

// TinyShape is a two-layer model of the same kind, for a CPU.
var TinyShape = model.TinyOptions{VocabSize: 512, HiddenSize: 64, IntermediateSize: 128, NumHiddenLayers: 2,
	NumAttentionHeads: 4, NumKeyValueHeads: 2, HeadDim: 16, Tied: true, InitStd: 0.02, DType: safetensors.BF16}

// Validate reports the first option Run cannot work with.
func (o Options) Validate() error {
	if _, ok := Tolerances[o.Precision]; !ok {
		return fmt.Errorf("unknown precision %q: want f32, tf32 or bf16", o.Precision)
	}
	switch {
	case o.Rows < 1 || o.Seq < 2 || o.Group < 1 || o.Prompt < 1 || o.New < 1:
		return errors.New("rows, group, prompt and new must be positive and seq at least 2")
	case o.Agent < 1 || o.Agent >= o.Seq:
		return fmt.Errorf("agent tokens (%d) must lie in [1, seq) = [1, %d)", o.Agent, o.Seq)
	case o.Prompt > o.Seq:
		return fmt.Errorf("the prompt (%d tokens) comes from the batch: at most seq = %d", o.Prompt, o.Seq)
	case o.Iters < 1 || o.Warmup < 0 || o.Tolerance < 0:
		return errors.New("iters must be at least 1, warmup and tolerance not negative")
	case o.ModelDir != "" && o.KeepModel != "":
		return errors.New("keep-model writes a random checkpoint: not with model-dir")
	}
	return nil
}

// BackendConfig is the Go side's backend configuration for precision: base with XLA's TF32
// option set as the precision needs (bf16's products are bfloat16, its float32 parts exact).
func BackendConfig(base, precision string) (string, error) {
	switch precision {
	case "f32", "bf16":
		return backend.WithTF32(base, false)
	case "tf32":
		cfg, err := backend.WithTF32(base, true)
		if err != nil {
			return "", fmt.Errorf("precision tf32: %w", err)
		}
		return cfg, nil
	}
	return "", fmt.Errorf("unknown precision %q: want f32, tf32 or bf16", precision)
}

// Run measures both sides and returns the report. It fails before timing anything when the
// options, the model folder, the backend or the PyTorch side's packages are wrong, and when
// parity does not hold; once the model is loaded, a failure comes with the report so far, its
// Error set.
func Run(o Options) (*Report, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Tolerance == 0 {
		o.Tolerance = Tolerances[o.Precision]
	}
	if o.Backend == "" {
		o.Backend = backend.Config()
	}
	config, err := BackendConfig(o.Backend, o.Precision)
	if err != nil {
		return nil, err
	}
	if o.Python != "" {
		if err := torchAvailable(o.Python); err != nil {
			return nil, err
		}
	}
	b, err := backend.Open(config) // before writing a checkpoint: a missing plugin fails at once
	if err != nil {
		return nil, err
	}
	dir, cleanup, err := o.modelDir()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	rep := newReport(o, config, dir)
	g, err := newGoSide(o, b, dir, rep)
	if err != nil {
		return nil, err
	}
	if err := measure(o, g, dir, rep); err != nil {
		rep.Error = err.Error()
		return rep, err
	}
	return rep, nil
}

// measure runs the parts in order: Go's first forward (for parity), the whole PyTorch side,
// then Go's timings, so that the two sides never share the device at once.
func measure(o Options, g *goSide, dir string, rep *Report) error {
	b := newBatch(o, g.m.Config.VocabSize)
	if err := g.parityForward(b); err != nil {
		return err
	}
	if o.Python != "" {
		o.progress("PyTorch side (%s, device %s): parity, then forward, update and generation", o.Python, rep.TorchDevice)
		// Parity that fails stops everything. A PyTorch side that broke leaves the Go side worth
		// timing, as --no-torch would: its error goes in the report.
		if err := runTorch(o, dir, b, rep); errors.Is(err, errParity) {
			return err
		} else if err != nil {
			rep.TorchError = err.Error()
			o.progress("%v; timing the Go side alone", err)
		}
	}
	return g.time(b)
}

// modelDir returns the model folder to benchmark, writing a random checkpoint when none is
// given, and what removes it afterwards.
func (o Options) modelDir() (string, func(), error) {
	if o.ModelDir != "" {
		if _, err := model.ReadConfig(o.ModelDir); err != nil {
			return "", nil, fmt.Errorf("model dir %s is not a Qwen3 model folder (config.json and safetensors): %w", o.ModelDir, err)
		}
		return o.ModelDir, func() {}, nil
	}
	dir, cleanup := o.KeepModel, func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "qwenbench")
		if err != nil {
			return "", nil, err
		}
		dir, cleanup = tmp, func() { os.RemoveAll(tmp) }
	}
	shape := Qwen06Shape
	if o.Tiny {
		shape = TinyShape
	}
	shape.Seed = o.Seed
	start := time.Now()
	cfg, err := model.WriteTiny(dir, shape)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	o.progress("wrote a random checkpoint (%d parameters, %d layers) to %s in %.1f s", cfg.NumParameters(), cfg.NumHiddenLayers, dir, time.Since(start).Seconds())
	return dir, cleanup, nil
}

func (o Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench qwen3: "+format+"\n", args...)
	}
}

// batch is the data both sides run on: Rows rows of Seq+1 token ids (each row's ids and, shifted
// by one, its targets), one advantage per row, and Go's forward log-probs once computed.
type batch struct {
	ids    [][]int
	adv    []float64
	goLogp [][]float32 // [Rows][Seq]: Go's log p(ids[r][t+1] | ids[r][:t+1])
}

func newBatch(o Options, vocab int) *batch {
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	ordinary := min(vocab, 151643) // below Qwen3's special tokens
	b := &batch{ids: make([][]int, o.Rows), adv: make([]float64, o.Rows)}
	for r := range b.ids {
		b.ids[r] = make([]int, o.Seq+1)
		for t := range b.ids[r] {
			b.ids[r][t] = rng.IntN(ordinary)
		}
		b.adv[r] = 2*rng.Float64() - 1
	}
	return b
}

// inputs and targets are the batch's rows without their last and first token.
func (b *batch) inputs() [][]int {
	out := make([][]int, len(b.ids))
	for i, r := range b.ids {
		out[i] = r[:len(r)-1]
	}
	return out
}

func (b *batch) targets() [][]int {
	out := make([][]int, len(b.ids))
	for i, r := range b.ids {
		out[i] = r[1:]
	}
	return out
}
