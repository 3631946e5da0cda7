package tinyrt

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// Checkpoint is a training run on disk: every variable of a GoMLX store (the weights and the
// optimizer's state), the number of updates done, and what the caller says identifies the model
// (Meta, gob-encoded), so that a run restored into another model fails loudly instead of
// continuing with the wrong weights.
//
// The course writes its own format instead of GoMLX's checkpoint package, which keeps a directory
// of numbered checkpoints per run: a run folder here holds one file, replaced atomically.
type Checkpoint struct {
	Step      int
	Meta      []byte
	Paths     []string
	Trainable []bool
	Dims      [][]int
	Float32s  [][]float32
	Int64s    [][]int64 // integer variables (an optimizer's step count)
}

// SaveCheckpoint writes store's variables, step and meta to path. It writes a temporary file and
// renames it, so that a crash mid-write never leaves a half checkpoint behind.
func SaveCheckpoint(path string, store *mlmodel.Store, step int, meta any) error {
	ck := Checkpoint{Step: step}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(meta); err != nil {
		return fmt.Errorf("tinyrt: checkpoint %s: %w", path, err)
	}
	ck.Meta = buf.Bytes()
	for v := range store.IterVariables() {
		val, err := v.Value()
		if err != nil {
			return fmt.Errorf("tinyrt: checkpoint %s: %s: %w", path, v.Path(), err)
		}
		ck.Paths = append(ck.Paths, v.Path())
		ck.Trainable = append(ck.Trainable, v.Trainable)
		ck.Dims = append(ck.Dims, val.Shape().Dimensions)
		switch val.DType() {
		case dtypes.Float32:
			ck.Float32s, ck.Int64s = append(ck.Float32s, tensors.MustCopyFlatData[float32](val)), append(ck.Int64s, nil)
		case dtypes.Int64:
			ck.Float32s, ck.Int64s = append(ck.Float32s, nil), append(ck.Int64s, tensors.MustCopyFlatData[int64](val))
		default:
			return fmt.Errorf("tinyrt: checkpoint %s: %s has dtype %s (want float32 or int64)", path, v.Path(), val.DType())
		}
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("tinyrt: checkpoint: %w", err)
	}
	if err := gob.NewEncoder(f).Encode(ck); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("tinyrt: checkpoint %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("tinyrt: checkpoint %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// ReadCheckpoint reads a checkpoint and decodes its meta into meta (a pointer), without touching
// any store: the caller checks meta, then calls Restore.
func ReadCheckpoint(path string, meta any) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tinyrt: load checkpoint: %w", err)
	}
	defer f.Close()
	var ck Checkpoint
	if err := gob.NewDecoder(f).Decode(&ck); err != nil {
		return nil, fmt.Errorf("tinyrt: load checkpoint %s: %w", path, err)
	}
	if err := gob.NewDecoder(bytes.NewReader(ck.Meta)).Decode(meta); err != nil {
		return nil, fmt.Errorf("tinyrt: load checkpoint %s: its model description: %w", path, err)
	}
	n := len(ck.Paths)
	if len(ck.Trainable) != n || len(ck.Dims) != n || len(ck.Float32s) != n || len(ck.Int64s) != n {
		return nil, fmt.Errorf("tinyrt: load checkpoint %s: inconsistent variable lists", path)
	}
	return &ck, nil
}

// Restore sets every variable of the checkpoint in store, creating those the store lacks (an
// optimizer's state before its first step).
func (ck *Checkpoint) Restore(store *mlmodel.Store) error {
	for i, p := range ck.Paths {
		var val *tensors.Tensor
		if ck.Float32s[i] != nil {
			val = tensors.FromFlatDataAndDimensions(ck.Float32s[i], ck.Dims[i]...)
		} else {
			val = tensors.FromFlatDataAndDimensions(ck.Int64s[i], ck.Dims[i]...)
		}
		if v := store.GetVariable(p); v != nil {
			if err := v.SetValue(val); err != nil {
				return fmt.Errorf("tinyrt: restore %s: %w", p, err)
			}
			continue
		}
		v, err := store.CreateVariable(p, val)
		if err != nil {
			return fmt.Errorf("tinyrt: restore %s: %w", p, err)
		}
		v.Trainable = ck.Trainable[i]
	}
	return nil
}
