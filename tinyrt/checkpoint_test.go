package tinyrt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

type testMeta struct {
	Name string
	Dim  int
}

// TestCheckpointRoundTrip: a store saved and restored into a fresh one holds the same variables,
// values (an int64 beyond float64's 53 bits included) and trainable flags; the meta and step
// come back; a corrupt checkpoint.json is refused.
func TestCheckpointRoundTrip(t *testing.T) {
	store := mlmodel.NewStore()
	w, err := store.CreateVariable("/m/w", tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateVariable("/opt/step", tensors.FromFlatDataAndDimensions([]int64{1<<60 + 7}, 1)); err != nil {
		t.Fatal(err)
	}
	w.Trainable = true
	path := filepath.Join(t.TempDir(), "ck")
	if err := SaveCheckpoint(path, store, 42, testMeta{"tiny", 64}); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".ck.*")); len(left) > 0 {
		t.Errorf("staging folders left behind: %v", left)
	}
	var meta testMeta
	ck, err := ReadCheckpoint(path, &meta)
	if err != nil {
		t.Fatal(err)
	}
	if ck.Step != 42 || meta != (testMeta{"tiny", 64}) {
		t.Errorf("step %d meta %+v", ck.Step, meta)
	}
	fresh := mlmodel.NewStore()
	if err := ck.Restore(fresh); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/m/w", "/opt/step"} {
		a, _ := store.GetVariable(p).Value()
		b, _ := fresh.GetVariable(p).Value()
		if a.Shape().String() != b.Shape().String() || store.GetVariable(p).Trainable != fresh.GetVariable(p).Trainable {
			t.Errorf("%s: %s/%v restored as %s/%v", p, a.Shape(), store.GetVariable(p).Trainable, b.Shape(), fresh.GetVariable(p).Trainable)
		}
	}
	v, _ := fresh.GetVariable("/m/w").Value()
	if got := tensors.MustCopyFlatData[float32](v); !slices.Equal(got, []float32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("values %v", got)
	}
	s, _ := fresh.GetVariable("/opt/step").Value()
	if got := tensors.MustCopyFlatData[int64](s); !slices.Equal(got, []int64{1<<60 + 7}) {
		t.Errorf("step counter %v", got)
	}
	if err := os.WriteFile(filepath.Join(path, "checkpoint.json"), []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCheckpoint(path, &meta); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a corrupt file: %v", err)
	}
}
