package tinybench

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/gym"
	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// LearningRate is Adam's learning rate in the timed training step: Chapter 6's.
const LearningRate = 3e-3

// Tolerances of the parity check. Both sides compute in float32 and sum in different orders;
// disagreements past these mean the PyTorch network is not GoMLX's.
const (
	MaxLogProbDiff = 1e-4 // absolute, per token
	MaxGradRelDiff = 1e-4 // per weight, relative to the largest GoMLX gradient entry of that weight
)

// Options configures Compare.
type Options struct {
	Tasks   string // the BugFix task folder; start states come from its train split
	Rows    []int  // batch sizes: states per sampling step and calls per training batch
	Iters   int    // timed runs of each step on each side; the median is reported
	Warmup  int    // untimed runs before them (compilation, first-touch allocation)
	Threads int    // threads on both sides; 0: runtime.GOMAXPROCS(0)
	Seed    uint64 // seeds the weights, the sampled calls and the advantages
	// TorchDefaults runs PyTorch without TorchTuning: with glibc's and OpenMP's defaults.
	TorchDefaults bool
	// FastGraph times the training step with agentrl.TinyAgent.FastGraph set (among others, the
	// last layer only at the positions whose log-probs are read), and PyTorch's step pruned the
	// same way.
	FastGraph bool
	// Progress, when set, gets a line as each batch size's parity is checked and each step's
	// timing ends.
	Progress io.Writer
}

// Parity is how far PyTorch's numbers are from GoMLX's on one batch.
type Parity struct {
	LogProbs float64 // max |Δ| of the per-token log-probs of the training batch
	// Sampler is the max |Δ| of the sampler's per-token log-probs when PyTorch replays the calls
	// the Go sampler (tinyrt) drew, through its own prompt pass and cached steps.
	Sampler float64
	Grads   float64 // max over weights of max |Δ gradient| / max |GoMLX gradient| of the REINFORCE loss
}

// Pair is the median time of one step on each side.
type Pair struct{ GoMLX, PyTorch time.Duration }

// Ratio is GoMLX's time over PyTorch's: below 1, GoMLX is faster.
func (p Pair) Ratio() float64 { return p.GoMLX.Seconds() / p.PyTorch.Seconds() }

// Case is the comparison at one batch size.
type Case struct {
	Rows        int
	TrainWidth  int // tokens per row of the training batch, padded
	PromptWidth int // tokens per row of the sampler's prompt pass, padded
	// Cached single-token steps in one timed sample call on each side. Each side draws its own
	// calls (the same distribution, different random streams), so the counts can differ.
	GoSteps, TorchSteps int
	Parity              Parity
	// EngineGap is the max |Δ| between the per-token log-probs the Go sampler (tinyrt, plain Go)
	// reported and those the GoMLX trainer computes for the same calls: the mismatch between an
	// inference engine and a trainer, measured.
	EngineGap     float64
	Train, Sample Pair
}

// Report is the result of Compare.
type Report struct {
	Params        int // TinyAgent's weights
	Threads       int
	CPUs          int
	Load          float64 // the 1-minute load average when the comparison started
	GoMLX         string  // GoMLX's version and backend
	Torch         string  // PyTorch's version
	BLAS          string  // the BLAS library PyTorch really loaded
	TorchEnv      string  // the allocator and OpenMP settings PyTorch ran with
	Iters, Warmup int
	FastGraph     bool // Options.FastGraph
	Cases         []Case
}

// Compare checks parity and times both steps on both sides for every batch size of o.Rows.
//
// It stops between rounds once ctx is done, stopping the PyTorch process and removing its files,
// and returns ctx's error.
func Compare(ctx context.Context, o Options) (*Report, error) {
	if len(o.Rows) == 0 || o.Iters < 1 || o.Warmup < 0 {
		return nil, fmt.Errorf("tinybench: need batch sizes, at least one timed run and no negative warm-up, got %+v", o)
	}
	if err := Available(); err != nil {
		return nil, err
	}
	threads := o.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	// The pure-Go backend's worker pool never runs more goroutines than GOMAXPROCS at once.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
	backend, err := backend.Default()
	if err != nil {
		return nil, fmt.Errorf("tinybench: %w", err)
	}
	states, err := startStates(o.Tasks, slices.Max(o.Rows))
	if err != nil {
		return nil, err
	}
	rep := &Report{Threads: threads, CPUs: runtime.NumCPU(), Load: loadAverage(), GoMLX: gomlxVersion(backend),
		Iters: o.Iters, Warmup: o.Warmup, FastGraph: o.FastGraph}
	for _, rows := range o.Rows {
		c, err := runCase(ctx, states[:rows], o, threads, rep)
		if err != nil {
			return nil, fmt.Errorf("tinybench: %d rows: %w", rows, err)
		}
		rep.Cases = append(rep.Cases, c)
	}
	return rep, nil
}

func progress(o Options, format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}

// Round is how many timed runs of a step one side makes before the other side's turn. The two
// sides alternate in rounds so that both meet the same changes in the machine's load.
const Round = 5

// runCase compares one batch size. PyTorch checks parity before it times anything; then both
// steps are timed in alternating rounds, every sampling round before any training round, since
// training changes the weights and with them the calls that sampling draws.
func runCase(ctx context.Context, states []gym.StructObs, o Options, threads int, rep *Report) (Case, error) {
	b, err := newBatch(states, o.Seed, o.FastGraph)
	if err != nil {
		return Case{}, err
	}
	dir, err := os.MkdirTemp("", "tinybench")
	if err != nil {
		return Case{}, err
	}
	defer os.RemoveAll(dir)
	if err := b.write(dir); err != nil {
		return Case{}, err
	}
	torch, head, err := startTorch(dir, torchRun{Bench: true, Tuned: !o.TorchDefaults, Threads: threads, Seed: o.Seed})
	if err != nil {
		return Case{}, err
	}
	defer torch.close()
	rep.Torch, rep.BLAS, rep.TorchEnv, rep.Params = head.Torch, head.BLAS, head.Env, b.agent.NumParameters()
	goSide, err := b.goSteps(o.Seed)
	if err != nil {
		return Case{}, err
	}
	defer goSide.close()
	c := Case{Rows: len(states), TrainWidth: b.trainWidth(), PromptWidth: b.promptWidth, Parity: head.Parity, EngineGap: b.engineGap()}
	progress(o, "%d rows: parity within tolerance; timing %d runs of each step on each side", len(states), o.Iters)
	for _, step := range []struct {
		name string
		pair *Pair
		run  func(n int) ([]time.Duration, error)
	}{{"sample", &c.Sample, goSide.sample}, {"train", &c.Train, goSide.train}} {
		var goTimes, torchTimes []time.Duration
		for done := -o.Warmup; done < o.Iters; {
			if err := ctx.Err(); err != nil {
				return c, err
			}
			n := min(Round, o.Iters-done)
			if done < 0 {
				n = -done // the warm-up runs, discarded
			}
			g, err := step.run(n)
			if err != nil {
				return c, fmt.Errorf("GoMLX %s: %w", step.name, err)
			}
			t, steps, err := torch.times(step.name, n)
			if err != nil {
				return c, err
			}
			if done >= 0 {
				goTimes, torchTimes = append(goTimes, g...), append(torchTimes, t...)
			}
			c.TorchSteps = max(c.TorchSteps, steps)
			done += n
		}
		*step.pair = Pair{GoMLX: Median(goTimes), PyTorch: Median(torchTimes)}
		progress(o, "%d rows: %s: GoMLX %v, PyTorch %v", len(states), step.name, step.pair.GoMLX.Round(time.Microsecond*100), step.pair.PyTorch.Round(time.Microsecond*100))
	}
	c.GoSteps = goSide.steps
	return c, torch.close()
}

// CheckParity builds a batch of rows start states and returns how far PyTorch's log-probs,
// sampler and gradients are from GoMLX's; the error is set when any exceeds its tolerance. It
// times nothing and accepts any BLAS. With fast, GoMLX runs TinyAgent's fast graph and PyTorch the
// pass pruned the same way (Options.FastGraph).
func CheckParity(tasks string, rows int, seed uint64, fast bool) (Parity, error) {
	if err := Available(); err != nil {
		return Parity{}, err
	}
	states, err := startStates(tasks, rows)
	if err != nil {
		return Parity{}, err
	}
	b, err := newBatch(states, seed, fast)
	if err != nil {
		return Parity{}, err
	}
	dir, err := os.MkdirTemp("", "tinybench")
	if err != nil {
		return Parity{}, err
	}
	defer os.RemoveAll(dir)
	if err := b.write(dir); err != nil {
		return Parity{}, err
	}
	torch, head, err := startTorch(dir, torchRun{Threads: runtime.GOMAXPROCS(0), Seed: seed})
	if err != nil {
		return Parity{}, err
	}
	return head.Parity, torch.close()
}

// startStates returns n start states of the train split's tasks, in task order, repeating the
// split when n exceeds it.
func startStates(tasks string, n int) ([]gym.StructObs, error) {
	all, err := gym.LoadTasks(tasks)
	if err != nil {
		return nil, fmt.Errorf("tinybench: %w", err)
	}
	train := gym.Filter(all, gym.Train, "")
	if len(train) == 0 {
		return nil, fmt.Errorf("tinybench: no train tasks under %s", tasks)
	}
	states := make([]gym.StructObs, n)
	for i := range states {
		states[i] = gym.NewEnv(nil, gym.Config{}).Reset(train[i%len(train)]).Struct
	}
	return states, nil
}

// Write prints the report as a table.
func (r *Report) Write(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "TinyAgent (%d parameters) step times, Go vs PyTorch on the CPU, same weights and batches\n",
		r.Params)
	fmt.Fprintf(&sb, "GoMLX:   %s, GOMAXPROCS=%d\n", r.GoMLX, r.Threads)
	fmt.Fprintf(&sb, "PyTorch: %s, torch.set_num_threads(%d), BLAS: %s\n", r.Torch, r.Threads, r.BLAS)
	fmt.Fprintf(&sb, "         environment: %s\n", r.TorchEnv)
	fmt.Fprintf(&sb, "machine: %d CPUs, load average %.2f at the start; median of %d runs after %d warm-up runs,\n"+
		"         the two sides alternating every %d runs\n", r.CPUs, r.Load, r.Iters, r.Warmup, Round)
	if r.Load > float64(r.CPUs-r.Threads)+0.5 {
		sb.WriteString("warning: fewer idle CPUs than threads: these times include contention with other processes\n")
	}
	fmt.Fprintf(&sb, "\n%-6s %5s %6s %6s %9s %11s %14s\n", "step", "rows", "width", "steps", "Go ms", "PyTorch ms", "Go/PyTorch")
	for _, c := range r.Cases {
		fmt.Fprintf(&sb, "%-6s %5d %6d %6s %9.1f %11.1f %14.2f\n", "train", c.Rows, c.TrainWidth, "",
			msf(c.Train.GoMLX), msf(c.Train.PyTorch), c.Train.Ratio())
		fmt.Fprintf(&sb, "%-6s %5d %6d %6s %9.1f %11.1f %14.2f\n", "sample", c.Rows, c.PromptWidth,
			fmt.Sprintf("%d/%d", c.GoSteps, c.TorchSteps), msf(c.Sample.GoMLX), msf(c.Sample.PyTorch), c.Sample.Ratio())
	}
	sb.WriteString("\ntrain:  log-probs of the batch (one forward pass), REINFORCE loss, backward, Adam update.\n")
	if r.FastGraph {
		sb.WriteString("        Fast graph (TinyAgent.FastGraph): on both sides the last layer runs only at the\n" +
			"        positions whose log-probs are read.\n")
	}
	sb.WriteString("sample: one tool call per row: prompt pass (fills the K/V cache), then cached one-token\n" +
		"        steps, each token drawn from the grammar-masked softmax at temperature 1. Go: the\n" +
		"        book's plain-Go decoder, unpadded rows; PyTorch: one padded batch.\n")
	sb.WriteString("width:  padded tokens per row (train: prompt and call; sample: PyTorch's prompt pass).\n")
	sb.WriteString("steps:  cached steps in one sample call, Go/PyTorch (each side draws its own calls).\n\n")
	sb.WriteString("parity, checked before timing (max |PyTorch - Go|):\n")
	for _, c := range r.Cases {
		fmt.Fprintf(&sb, "  %3d rows: log-probs %.1e (batch), %.1e (sampler's cached path); gradients %.1e of their scale\n",
			c.Rows, c.Parity.LogProbs, c.Parity.Sampler, c.Parity.Grads)
	}
	sb.WriteString("sampler (plain Go) against trainer (GoMLX) on the same calls, max |Δ log-prob|:")
	for _, c := range r.Cases {
		fmt.Fprintf(&sb, " %.1e (%d rows)", c.EngineGap, c.Rows)
	}
	sb.WriteString("\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// batch is one batch size's data: an agent fresh from its seed, the start states, the calls it
// sampled there packed for training, and what GoMLX computes on them.
type batch struct {
	agent   *agentrl.TinyAgent
	states  []gym.StructObs
	samples []agentrl.TinySample
	train   agentrl.TinyBatch
	adv     *tensors.Tensor // [B,A]: one random advantage per row, on every token of its call
	mask    *tensors.Tensor // [B,A]: 1 on the tokens of real calls

	names       []string          // weights, without the /tiny/ prefix, in the store's order
	lp          *tensors.Tensor   // GoMLX's per-token log-probs of the batch [B,A]
	grads       []*tensors.Tensor // ∂loss/∂weight, in names' order
	promptWidth int
}

func newBatch(states []gym.StructObs, seed uint64, fast bool) (*batch, error) {
	cfg := agentrl.DefaultTinyAgentConfig()
	cfg.Seed = seed
	agent, err := agentrl.NewTinyAgent(cfg)
	if err != nil {
		return nil, err
	}
	agent.FastGraph = fast
	samples, err := agent.Sample(states, agentrl.TinySampleOptions{Temperature: 1, Seed: seed})
	if err != nil {
		return nil, err
	}
	tb, err := agent.Batch(samples)
	if err != nil {
		return nil, err
	}
	b := &batch{agent: agent, states: states, samples: samples, train: tb}
	rows := tb.IDs.Shape().Dimensions[0]
	adv, mask := make([][]float32, rows), make([][]float32, rows)
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := range rows {
		adv[i], mask[i] = make([]float32, agentrl.TinyMaxCall), make([]float32, agentrl.TinyMaxCall)
		if i >= len(samples) {
			continue
		}
		a := float32(2*rng.Float64() - 1)
		for j := range samples[i].Tokens {
			adv[i][j], mask[i][j] = a, 1
		}
	}
	b.adv, b.mask = tensors.FromValue(adv), tensors.FromValue(mask)
	longest := 0
	for _, s := range samples {
		longest = max(longest, len(s.Prompt))
	}
	// The width agentrl's Sample pads prompts to (a power of two, at least 8, within the context).
	b.promptWidth = 8
	for b.promptWidth < longest {
		b.promptWidth *= 2
	}
	b.promptWidth = min(b.promptWidth, cfg.Context)
	return b, b.goReference()
}

// weights lists the agent's weight variables in the store's (creation) order.
func (b *batch) weights() []*mlmodel.Variable {
	var vs []*mlmodel.Variable
	for v := range b.agent.Store.IterVariables() {
		if strings.HasPrefix(v.Path(), "/tiny/") {
			vs = append(vs, v)
		}
	}
	return vs
}

// goReference computes GoMLX's log-probs of the batch and the gradient of the REINFORCE loss
// with respect to every weight: what PyTorch must reproduce.
func (b *batch) goReference() error {
	backend, err := backend.Default()
	if err != nil {
		return err
	}
	vars := b.weights()
	for _, v := range vars {
		b.names = append(b.names, strings.TrimPrefix(v.Path(), "/tiny/"))
	}
	exec, err := mlmodel.NewExec(backend, b.agent.Store, func(_ *mlmodel.Scope, in []*graph.Node) []*graph.Node {
		g := in[0].Graph()
		b.agent.Store.SetTraining(g, true)
		lp := b.agent.LogProbsGraph(in[0], in[1], in[2], in[3])
		loss := agentrl.REINFORCELoss(lp, in[4], in[5])
		ws := make([]*graph.Node, len(vars))
		for i, v := range vars {
			ws[i] = v.NodeValue(g)
		}
		return append([]*graph.Node{lp}, graph.Gradient(loss, ws...)...)
	})
	if err != nil {
		return err
	}
	defer exec.Finalize()
	res, err := exec.Call(b.train.IDs, b.train.At, b.train.Targets, b.train.Allowed, b.adv, b.mask)
	if err != nil {
		return fmt.Errorf("GoMLX log-probs and gradients: %w", err)
	}
	b.lp, b.grads = res[0], res[1:]
	return nil
}

// engineGap is the max |Δ| between the sampler's per-token log-probs and the trainer's.
func (b *batch) engineGap() float64 {
	lp := tensors.MustCopyFlatData[float32](b.lp)
	a := b.lp.Shape().Dimensions[1]
	gap := 0.0
	for i, s := range b.samples {
		for j, x := range s.LogProbs {
			gap = math.Max(gap, math.Abs(x-float64(lp[i*a+j])))
		}
	}
	return gap
}

func (b *batch) trainWidth() int { return b.train.IDs.Shape().Dimensions[1] }

// goSide times GoMLX's two steps on a batch.
type goSide struct {
	b     *batch
	seed  uint64
	step  *mlmodel.Exec // Chapter 6's REINFORCE step
	steps int           // cached steps in the latest sample call
}

func (b *batch) goSteps(seed uint64) (*goSide, error) {
	backend, err := backend.Default()
	if err != nil {
		return nil, err
	}
	opt := optimizer.Adam().LearningRate(LearningRate).Done()
	step, err := mlmodel.NewExec(backend, b.agent.Store, func(scope *mlmodel.Scope, in []*graph.Node) *graph.Node {
		g := in[0].Graph()
		b.agent.Store.SetTraining(g, true) // the weights must be parameters, or updates never land
		loss := agentrl.REINFORCELoss(b.agent.LogProbsGraph(in[0], in[1], in[2], in[3]), in[4], in[5])
		opt.UpdateGraph(scope, g, loss)
		return loss
	})
	if err != nil {
		return nil, err
	}
	return &goSide{b: b, seed: seed, step: step}, nil
}

func (s *goSide) close() { s.step.Finalize() }

// sample times n calls of agent.Sample on the start states, with the same seed every time.
func (s *goSide) sample(n int) ([]time.Duration, error) {
	return timeRuns(n, func() error {
		got, err := s.b.agent.Sample(s.b.states, agentrl.TinySampleOptions{Temperature: 1, Seed: s.seed})
		longest := 0
		for _, x := range got {
			longest = max(longest, len(x.Tokens))
		}
		s.steps = longest - 1 // the sampler runs a cached step after every token but the last
		return err
	})
}

// train times n REINFORCE steps on the batch.
func (s *goSide) train(n int) ([]time.Duration, error) {
	b := s.b
	return timeRuns(n, func() error {
		res, err := s.step.Call(b.train.IDs, b.train.At, b.train.Targets, b.train.Allowed, b.adv, b.mask)
		if err != nil {
			return err
		}
		res[0].FinalizeAll()
		return nil
	})
}

func timeRuns(n int, f func() error) ([]time.Duration, error) {
	out := make([]time.Duration, n)
	for i := range out {
		start := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		out[i] = time.Since(start)
	}
	return out, nil
}

// loadAverage is the 1-minute load average, or 0 where /proc/loadavg is missing.
func loadAverage() float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var load float64
	fmt.Sscan(string(raw), &load)
	return load
}

// gomlxVersion names the GoMLX module version this program was built with, and the backend.
func gomlxVersion(backend compute.Backend) string {
	version := "(version unknown)"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "github.com/gomlx/gomlx" {
				version = m.Version
			}
		}
	}
	return fmt.Sprintf("GoMLX %s, backend %q", version, backend.String())
}

// Median is the middle of xs (the mean of the two middle values for an even count), 0 for
// none: what both benchmarks report of their timed runs.
func Median[T ~int64 | ~float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func msf(d time.Duration) float64 { return d.Seconds() * 1e3 }
