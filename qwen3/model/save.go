package model

import (
	"fmt"
	"os"
	"sort"

	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// Save writes the model's current weights (as a trainer left them in Store) into dir as a
// checkpoint Load reads back: config.json and model.safetensors, named and shaped as Hugging
// Face's Qwen3ForCausalLM stores them. dtype is safetensors.F32, which Load reads back bit for
// bit, or safetensors.BF16, half the size.
func (m *Model) Save(dir, dtype string) error {
	if dtype != safetensors.F32 && dtype != safetensors.BF16 {
		return fmt.Errorf("qwen3 model: save dtype %q: want %s or %s", dtype, safetensors.F32, safetensors.BF16)
	}
	shapes := m.Config.tensorShapes()
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	ts := make([]safetensors.Tensor, 0, len(names))
	for _, name := range names {
		v, err := m.Store.GetVariable(VariablePath(name)).Value()
		if err != nil {
			return fmt.Errorf("qwen3 model: tensor %s: %w", name, err)
		}
		data, err := tensors.CopyFlatData[float32](v)
		if err != nil {
			return fmt.Errorf("qwen3 model: tensor %s: %w", name, err)
		}
		ts = append(ts, safetensors.Tensor{Name: name, DType: dtype, Shape: shapes[name], Data: data})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := safetensors.WriteDir(dir, ts, 1, map[string]string{"format": "pt"}); err != nil {
		return err
	}
	cfg := m.Config
	cfg.TorchDType, cfg.DType = "float32", ""
	if dtype == safetensors.BF16 {
		cfg.TorchDType = "bfloat16"
	}
	return cfg.Write(dir)
}

// LogProbsAtGraph is LogProbsGraph at chosen positions only: for ids [B, T] and at, targets
// [B, K] (all int32) it builds log p(targets[b, k] | ids[b, :at[b, k]+1]) as [B, K] float32.
// The decoder runs over every position (each needs its context), but the output projection and
// the softmax over the vocabulary, which dominate a small model's cost, run for the K chosen
// positions alone: a policy-gradient loss needs the agent's tokens, not the prompt's or the
// tool responses'.
func (m *Model) LogProbsAtGraph(ids, at, targets *Node) *Node {
	g := ids.Graph()
	t := ids.Shape().Dimensions[1]
	pos := Iota(g, shapeInt32(t), 0)
	x := m.layers(m.embed(ids), pos, func(_ int, fresh kv) kv { return fresh })
	shape := at.Shape()
	rows := Iota(g, shape, 0)
	picked := Gather(x, Stack([]*Node{rows, at}, -1)) // [B, K, hidden]
	logp := LogSoftmax(m.head(picked), -1)
	where := Stack([]*Node{rows, Iota(g, shape, 1), targets}, -1)
	return Gather(logp, where)
}
