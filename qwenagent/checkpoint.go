package qwenagent

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// Files a checkpoint holds besides the model's config.json and model.safetensors.
const (
	OptimizerFile = "optimizer.safetensors" // Adam's moments and step count, keyed by variable path
	StateFile     = "trainer.json"          // the update count
)

type trainerState struct {
	Updates int `json:"updates"`
}

// isWeight reports whether a variable path is one of the model's weights.
func isWeight(path string) bool {
	return strings.HasPrefix(path, "/model/") || strings.HasPrefix(path, "/lm_head/")
}

// Save writes a checkpoint into dir: the weights as model.Load reads them (float32, bit for bit),
// the optimizer's float32 state and the update count. The files are written beside dir first and
// moved in when all are complete, so an interrupted save leaves the previous checkpoint whole.
func (t *Trainer) Save(dir string) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(dir))+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := t.Model.Save(stage, safetensors.F32); err != nil {
		return err
	}
	var opt []safetensors.Tensor
	for v := range t.Model.Store.IterVariables() {
		if isWeight(v.Path()) || v.DType() != dtypes.Float32 {
			continue // the global step (int64) is GoMLX's bookkeeping: Adam keeps its own
		}
		val, err := v.Value()
		if err != nil {
			return fmt.Errorf("qwenagent: optimizer variable %s: %w", v.Path(), err)
		}
		opt = append(opt, safetensors.Tensor{Name: v.Path(), DType: safetensors.F32,
			Shape: v.Shape().Dimensions, Data: tensors.MustCopyFlatData[float32](val)})
	}
	sort.Slice(opt, func(i, j int) bool { return opt[i].Name < opt[j].Name })
	if err := safetensors.Write(filepath.Join(stage, OptimizerFile), opt, nil); err != nil {
		return err
	}
	state, _ := json.Marshal(trainerState{Updates: t.Updates})
	if err := os.WriteFile(filepath.Join(stage, StateFile), append(state, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(stage, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// Restore reads the optimizer state and update count that Save wrote into dir, for a trainer
// made over the model loaded from dir and not yet used. A folder holding weights only (a
// downloaded model) is not an error: training starts there with fresh moments.
func (t *Trainer) Restore(dir string) error {
	raw, err := os.ReadFile(filepath.Join(dir, StateFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var st trainerState
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("qwenagent: %s: %w", filepath.Join(dir, StateFile), err)
	}
	f, err := safetensors.Open(filepath.Join(dir, OptimizerFile))
	if err != nil {
		return fmt.Errorf("qwenagent: checkpoint %s: %w", dir, err)
	}
	defer f.Close()
	names := make([]string, 0, len(f.Tensors))
	for n := range f.Tensors {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		vals, shape, err := f.Float32(n)
		if err != nil {
			return err
		}
		v, err := t.Model.Store.CreateVariable(n, tensors.FromFlatDataAndDimensions(vals, shape...))
		if err != nil {
			return fmt.Errorf("qwenagent: restoring %s (restore before the first update): %w", n, err)
		}
		v.SetTrainable(false)
	}
	t.Updates = st.Updates
	return nil
}
