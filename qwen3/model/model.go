package model

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agenticrl/course/backend"

	"github.com/agenticrl/course/qwen3/safetensors"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend: always available, no plugin needed
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// Model is a loaded Qwen3 model. Its weights live in Store as float32 variables whose paths are
// the Hugging Face tensor names with "/" for "." (model.norm.weight is /model/norm/weight), so a
// trainer can build graphs over the same Store with LogitsGraph and update them in place. They
// stay float32 whatever the precision of the computation: WithDType makes an engine's rounded
// copy, SetAutocast runs the matrix products in bf16 or f16 over these same weights.
//
// A Model serialises its own calls; it is safe for concurrent use but runs one call at a time.
type Model struct {
	Config   Config
	Store    *model.Store
	backend  compute.Backend
	dtype    dtypes.DType // the precision weights and activations are stored in (see WithDType)
	autocast dtypes.DType // the precision matrix products run in (see SetAutocast)

	mu       sync.Mutex
	logits   *model.Exec // ids [B,T] -> logits [B,T,V]
	logProbs *model.Exec // ids, targets [B,T] -> log p(targets) [B,T]
	step     *model.Exec // cached step, see stepGraph
	decode   *model.Exec // the Decoder's step, see decodeGraph
	// decodeShapes holds the [rows, width, capacity] shapes decode was called with: each one
	// compiled a graph (see DecodeCompilations).
	decodeShapes map[[3]int]bool
}

// DefaultBackend is the course's shared backend (package backend): the one $GOMLX_BACKEND names,
// or else the pure-Go backend. Every model loaded with a nil backend uses it.
var DefaultBackend = backend.Default

// Load reads a model directory (config.json plus model.safetensors or a sharded
// model.safetensors.index.json) and places its weights on backend (DefaultBackend when nil).
// Every tensor the architecture needs must be present with the expected shape; tensors it does
// not use are ignored, including an lm_head.weight next to tie_word_embeddings=true, which
// Hugging Face also replaces by the embedding matrix.
func Load(dir string, backend compute.Backend) (*Model, error) {
	cfg, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	ckpt, err := safetensors.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer ckpt.Close()
	weights := map[string]*tensors.Tensor{}
	for name, shape := range cfg.tensorShapes() {
		vals, got, err := ckpt.Float32(name)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", dir, err)
		}
		if !equalInts(got, shape) {
			return nil, fmt.Errorf("model %s: tensor %s has shape %v, config implies %v", dir, name, got, shape)
		}
		weights[name] = tensors.FromFlatDataAndDimensions(vals, shape...)
	}
	m, err := New(cfg, weights, backend)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", dir, err)
	}
	return m, nil
}

// New builds a model from float32 weights keyed by Hugging Face tensor name.
func New(cfg Config, weights map[string]*tensors.Tensor, backend compute.Backend) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if backend == nil {
		var err error
		if backend, err = DefaultBackend(); err != nil {
			return nil, err
		}
	}
	store := model.NewStore()
	shapes := cfg.tensorShapes()
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t, ok := weights[name]
		if !ok {
			return nil, fmt.Errorf("missing tensor %s", name)
		}
		if !equalInts(t.Shape().Dimensions, shapes[name]) || t.DType() != dtypes.Float32 {
			return nil, fmt.Errorf("tensor %s is %s, want Float32%v", name, t.Shape(), shapes[name])
		}
		if _, err := store.CreateVariable(VariablePath(name), t); err != nil {
			return nil, fmt.Errorf("tensor %s: %w", name, err)
		}
	}
	m := &Model{Config: cfg, Store: store, backend: backend, dtype: dtypes.Float32, autocast: dtypes.Float32}
	if err := m.buildExecs(); err != nil {
		return nil, err
	}
	return m, nil
}

// WithDType returns an inference engine's copy of the model when dt is BFloat16 or Float16: a
// model with its own weights, m's rounded to dt, that computes the way a reduced-precision
// engine does: every stored activation (each matrix product's output, the norms' outputs, the
// residual stream, the attention probabilities, the logits) rounded to dt, while the sums inside
// matrix products, norms and softmaxes run in float32, as tensor cores and fused kernels
// accumulate. Float32 gives a copy that computes exactly as m does. Like an engine's weights,
// the copy does not follow later updates to m: call WithDType again to sync it. Its log-probs
// differ from m's by rounding alone: the engine/trainer mismatch that Chapter 13 measures.
//
// This is an emulation: the copy's arithmetic all runs in float32 and only the stored values are
// rounded, so it gives an engine's numbers on any backend but not its speed. SetAutocast is the
// native path, which differs in what it rounds: only the matrix products' operands and results,
// which then run in the reduced precision, while norms and the residual stream stay float32.
// The copy keeps m's autocast setting. With autocast dt on a WithDType(dt) copy its matrix
// products run natively what the emulation imitates (operands already in dt, float32 sums, the
// result rounded to dt) and the roundings elsewhere stay: an engine's numbers at an engine's
// speed. On the pure-Go backend, whose autocast is itself float32 arithmetic, they are the
// emulation's very bits.
func (m *Model) WithDType(dt dtypes.DType) (*Model, error) {
	if dt != dtypes.Float32 && dt != dtypes.BFloat16 && dt != dtypes.Float16 {
		return nil, fmt.Errorf("qwen3 model: compute dtype %s: want Float32, BFloat16 or Float16", dt)
	}
	weights := map[string]*tensors.Tensor{}
	for name := range m.Config.tensorShapes() {
		v, err := m.Store.GetVariable(VariablePath(name)).Value()
		if err != nil {
			return nil, fmt.Errorf("qwen3 model: tensor %s: %w", name, err)
		}
		vals := tensors.MustCopyFlatData[float32](v)
		for i, x := range vals {
			switch dt {
			case dtypes.BFloat16:
				vals[i] = bfloat16.FromFloat32(x).Float32()
			case dtypes.Float16:
				vals[i] = float16.FromFloat32(x).Float32()
			}
		}
		weights[name] = tensors.FromFlatDataAndDimensions(vals, v.Shape().Dimensions...)
	}
	w, err := New(m.Config, weights, m.backend)
	if err != nil {
		return nil, err
	}
	w.dtype, w.autocast = dt, m.autocast
	return w, w.buildExecs() // again: the graphs round activations now
}

// SetAutocast sets the precision the model's matrix products run in, as torch.autocast does:
// BFloat16 or Float16 casts both operands of every matrix product (the linear layers, the
// output head, attention's scores and its probabilities times values) to dt, multiplies there
// with float32 sums and converts the product, rounded to dt, back to float32; the norms,
// softmaxes and residual stream stay float32, and so do the weights in Store, their gradients
// (which flow back through the casts) and an optimizer's state. Float32 turns it off: the model
// then computes bit for bit as it does without autocast. On an accelerator's backend the
// products run natively in dt, on tensor cores where there are some, which is the point. The
// pure-Go backend gets the same numbers from float32 arithmetic instead: operands rounded to dt,
// a float32 product (exact, since products of dt values fit in float32), the result rounded to
// dt; its own half-precision kernels are not used (see roundedDot).
//
// It rebuilds the model's own executors. Graphs that others build over the model afterwards
// (LogitsGraph, LogProbsAtGraph) follow the setting, since it is read while a graph is built;
// graphs built before keep the setting they were built with.
func (m *Model) SetAutocast(dt dtypes.DType) error {
	if dt != dtypes.Float32 && dt != dtypes.BFloat16 && dt != dtypes.Float16 {
		return fmt.Errorf("qwen3 model: autocast dtype %s: want Float32 (off), BFloat16 or Float16", dt)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.autocast = dt
	return m.buildExecs()
}

// Autocast is the precision the model's matrix products run in: Float32 (autocast off) unless
// SetAutocast said otherwise.
func (m *Model) Autocast() dtypes.DType { return m.autocast }

// DType is the precision the model stores weights and activations in: Float32 unless WithDType
// said otherwise.
func (m *Model) DType() dtypes.DType { return m.dtype }

// VariablePath maps a Hugging Face tensor name to the path of its variable in Model.Store.
func VariablePath(name string) string {
	return "/" + strings.ReplaceAll(name, ".", "/")
}

// Backend is the backend the model's weights and computations live on.
func (m *Model) Backend() compute.Backend { return m.backend }

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func shapeInt32(n int) shapes.Shape { return shapes.Make(dtypes.Int32, n) }

// maxCachedGraphs bounds how many input shapes each executor keeps compiled: sequence lengths are
// padded to powers of two, so this covers every length up to far beyond any context used here.
const maxCachedGraphs = 64

func (m *Model) buildExecs() error {
	// The pure-Go backend asks for variables to be baked into compiled graphs as constants
	// unless the graph is marked as training; then a trainer's updates to Store would never
	// reach an already compiled graph. Marking every graph as training keeps the weights as
	// parameters (nothing here behaves differently in training: there is no dropout).
	asParams := func(g *Graph) { m.Store.SetTraining(g, true) }
	var err error
	if m.logits, err = model.NewExec(m.backend, m.Store, func(_ *model.Scope, ids *Node) *Node {
		asParams(ids.Graph())
		return m.LogitsGraph(ids)
	}); err != nil {
		return err
	}
	if m.logProbs, err = model.NewExec(m.backend, m.Store, func(_ *model.Scope, ids, targets *Node) *Node {
		asParams(ids.Graph())
		return m.LogProbsGraph(ids, targets)
	}); err != nil {
		return err
	}
	if m.step, err = model.NewExec(m.backend, m.Store, func(_ *model.Scope, inputs []*Node) []*Node {
		asParams(inputs[0].Graph())
		return m.stepGraph(inputs)
	}); err != nil {
		return err
	}
	if m.decode, err = model.NewExec(m.backend, m.Store, func(_ *model.Scope, inputs []*Node) []*Node {
		asParams(inputs[0].Graph())
		return m.decodeGraph(inputs)
	}); err != nil {
		return err
	}
	m.decodeShapes = map[[3]int]bool{}
	for _, e := range []*model.Exec{m.logits, m.logProbs, m.step, m.decode} {
		e.SetMaxCache(maxCachedGraphs)
	}
	return nil
}
