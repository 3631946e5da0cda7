package qwenagent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agenticrl/course/checkpoint"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/safetensors"
)

// isWeight reports whether a variable path is one of the model's weights.
func isWeight(path string) bool {
	return strings.HasPrefix(path, "/model/") || strings.HasPrefix(path, "/lm_head/")
}

// Save writes a checkpoint into dir in the course's checkpoint format (package checkpoint): the
// weights as model.Load reads them (config.json and model.safetensors, float32, bit for bit,
// under Hugging Face's names), the optimizer's state in optimizer.safetensors and the update
// count in checkpoint.json. The folder is staged beside dir and swapped in whole, so an
// interrupted save leaves the previous checkpoint whole.
func (t *Trainer) Save(dir string) error {
	w, err := checkpoint.Create(dir)
	if err != nil {
		return err
	}
	defer w.Abort()
	if err := t.Model.Save(w.Dir(), safetensors.F32); err != nil {
		return err
	}
	f, err := safetensors.Open(filepath.Join(w.Dir(), checkpoint.ModelFile))
	if err != nil {
		return err
	}
	var weights []checkpoint.Variable
	for name, info := range f.Tensors {
		v := checkpoint.Variable{Path: model.VariablePath(name), Tensor: name, DType: info.DType, Shape: info.Shape, Weight: true}
		if sv := t.Model.Store.GetVariable(v.Path); sv != nil {
			v.Trainable = sv.Trainable
		}
		weights = append(weights, v)
	}
	f.Close()
	sort.Slice(weights, func(i, j int) bool { return weights[i].Path < weights[j].Path })
	w.Describe(checkpoint.ModelFile, weights)
	var opt []checkpoint.Value
	for v := range t.Model.Store.IterVariables() {
		if isWeight(v.Path()) {
			continue
		}
		val, err := v.Value()
		if err != nil {
			return fmt.Errorf("qwenagent: optimizer variable %s: %w", v.Path(), err)
		}
		x, err := checkpoint.ValueOf(v.Path(), v.Path(), val)
		if err != nil {
			return err
		}
		x.Trainable = v.Trainable
		opt = append(opt, x)
	}
	if err := w.Write(checkpoint.OptimizerFile, opt); err != nil {
		return err
	}
	return w.Commit(t.Updates, nil) // config.json, hashed with the rest, identifies the model
}

// Restore reads the optimizer state and update count that Save wrote into dir, for a trainer
// made over the model loaded from dir and not yet used. A folder holding weights only (a
// downloaded model, without checkpoint.json) is not an error: training starts there with fresh
// moments.
func (t *Trainer) Restore(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, checkpoint.ManifestFile)); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	ck, err := checkpoint.Open(dir)
	if err != nil {
		return fmt.Errorf("qwenagent: %w", err)
	}
	if err := ck.RestoreOptimizer(t.Model.Store); err != nil {
		return fmt.Errorf("qwenagent: %w", err)
	}
	t.Updates = ck.Step
	return nil
}
