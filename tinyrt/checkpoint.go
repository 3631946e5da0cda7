package tinyrt

import (
	mlmodel "github.com/gomlx/gomlx/ml/model"

	"github.com/agenticrl/course/checkpoint"
)

// Checkpoint is a training run on disk, in the course's one checkpoint format (package
// checkpoint): every variable of a GoMLX store (the weights and the optimizer's state), the
// number of updates done (Step), and what the caller says identifies the model (Meta, JSON), so
// that a run restored into another model fails loudly instead of continuing with the wrong
// weights.
type Checkpoint = checkpoint.Checkpoint

// SaveCheckpoint writes store's variables, step and meta to the checkpoint folder path: the
// trainable variables into model.safetensors, the optimizer's state into optimizer.safetensors,
// the rest into checkpoint.json. The previous checkpoint there is replaced atomically.
func SaveCheckpoint(path string, store *mlmodel.Store, step int, meta any) error {
	return checkpoint.Save(path, store, step, meta, nil)
}

// ReadCheckpoint reads a checkpoint and decodes its meta into meta (a pointer), without touching
// any store: the caller checks meta, then calls Restore.
func ReadCheckpoint(path string, meta any) (*Checkpoint, error) {
	ck, err := checkpoint.Open(path)
	if err != nil {
		return nil, err
	}
	if err := ck.DecodeMeta(meta); err != nil {
		return nil, err
	}
	return ck, nil
}
