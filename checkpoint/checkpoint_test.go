package checkpoint

import (
	"encoding/json"
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

// testStore holds a trainable weight, an optimizer moment and an int64 step count.
func testStore(t *testing.T, w0 float32, step int64) *mlmodel.Store {
	t.Helper()
	store := mlmodel.NewStore()
	add := func(path string, val *tensors.Tensor, trainable bool) {
		v, err := store.CreateVariable(path, val)
		if err != nil {
			t.Fatal(err)
		}
		v.Trainable = trainable
	}
	add("/m/w", tensors.FromFlatDataAndDimensions([]float32{w0, 2, 3, 4, 5, 6}, 2, 3), true)
	add("/opt/m/w", tensors.FromFlatDataAndDimensions([]float32{0.5, -0.25}, 2), false)
	add("/opt/step", tensors.FromFlatDataAndDimensions([]int64{step}, 1), false)
	return store
}

func value[T float32 | int64](t *testing.T, store *mlmodel.Store, path string) []T {
	t.Helper()
	v := store.GetVariable(path)
	if v == nil {
		t.Fatalf("no variable %s", path)
	}
	val, err := v.Value()
	if err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[T](val)
}

// TestSaveOpenRestore: the weights go to model.safetensors, the optimizer's state to
// optimizer.safetensors, each with its layout in checkpoint.json; everything comes back exactly
// (an int64 beyond float64's 53 bits included), with its trainable flag.
func TestSaveOpenRestore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ck")
	big := int64(1<<60 + 3)
	if err := Save(dir, testStore(t, 1, big), 7, testMeta{"tiny", 64}, nil); err != nil {
		t.Fatal(err)
	}
	ck, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var meta testMeta
	if err := ck.DecodeMeta(&meta); err != nil || meta != (testMeta{"tiny", 64}) || ck.Step != 7 {
		t.Errorf("meta %+v (%v), step %d", meta, err, ck.Step)
	}
	where := map[string]string{}
	for _, v := range ck.Variables {
		where[v.Path] = v.File + " " + v.DType
	}
	want := map[string]string{"/m/w": "model.safetensors F32", "/opt/m/w": "optimizer.safetensors F32", "/opt/step": "optimizer.safetensors I64"}
	if len(where) != len(want) {
		t.Errorf("layout %v, want %v", where, want)
	}
	for p, w := range want {
		if where[p] != w {
			t.Errorf("%s in %q, want %q", p, where[p], w)
		}
	}
	fresh := mlmodel.NewStore()
	if err := ck.Restore(fresh); err != nil {
		t.Fatal(err)
	}
	if got := value[float32](t, fresh, "/m/w"); !slices.Equal(got, []float32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("weights %v", got)
	}
	if got := value[int64](t, fresh, "/opt/step"); got[0] != big {
		t.Errorf("step count %d, want %d", got[0], big)
	}
	if !fresh.GetVariable("/m/w").Trainable || fresh.GetVariable("/opt/m/w").Trainable {
		t.Error("trainable flags not restored")
	}
	// RestoreOptimizer leaves the weights alone.
	other := testStore(t, 9, 0)
	if err := ck.RestoreOptimizer(other); err != nil {
		t.Fatal(err)
	}
	if w, s := value[float32](t, other, "/m/w"), value[int64](t, other, "/opt/step"); w[0] != 9 || s[0] != big {
		t.Errorf("RestoreOptimizer: weight %g, step %d", w[0], s[0])
	}
	if got, err := ck.Float32("/m/w", []int{2, 3}); err != nil || got[0] != 1 {
		t.Errorf("Float32: %v %v", got, err)
	}
	if _, err := ck.Float32("/m/w", []int{3, 2}); err == nil || !strings.Contains(err.Error(), "want F32[3 2]") {
		t.Errorf("Float32 with the wrong shape: %v", err)
	}
	// The tensors are plain safetensors under the store's paths, and checkpoint.json is JSON.
	var m map[string]any
	raw, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err := json.Unmarshal(raw, &m); err != nil || m["format"] != Format {
		t.Errorf("checkpoint.json: %v, format %v", err, m["format"])
	}
}

// TestInterruptedSave: a save that stops before Commit (killed, or Abort after an error) leaves
// the previous checkpoint exactly as it was; the next save clears what the stopped one staged and
// replaces the checkpoint.
func TestInterruptedSave(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ck")
	if err := Save(dir, testStore(t, 1, 1), 1, testMeta{"first", 1}, nil); err != nil {
		t.Fatal(err)
	}
	// Killed mid-save: its files are written, checkpoint.json and the swap are not.
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	val, _ := ValueOf("/m/w", "/m/w", tensors.FromFlatDataAndDimensions([]float32{99, 99}, 2))
	if err := w.Write(ModelFile, []Value{val}); err != nil {
		t.Fatal(err)
	}
	// Aborted: an error part way.
	w2, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Write(ModelFile, []Value{val}); err != nil {
		t.Fatal(err)
	}
	w2.Abort()
	ck, err := Open(dir)
	if err != nil {
		t.Fatalf("the previous checkpoint after an interrupted save: %v", err)
	}
	fresh := mlmodel.NewStore()
	if err := ck.Restore(fresh); err != nil {
		t.Fatal(err)
	}
	if ck.Step != 1 || value[float32](t, fresh, "/m/w")[0] != 1 {
		t.Errorf("previous checkpoint changed: step %d, weight %v", ck.Step, value[float32](t, fresh, "/m/w"))
	}
	if err := Save(dir, testStore(t, 2, 2), 2, testMeta{"second", 2}, nil); err != nil {
		t.Fatal(err)
	}
	if ck, err = Open(dir); err != nil || ck.Step != 2 {
		t.Fatalf("after the next save: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".ck.*")); len(left) > 0 {
		t.Errorf("staging folders left behind: %v", left)
	}
}

// TestMismatchedFiles: a tensor file from another save, a truncated file, a missing file, a
// folder that is no checkpoint, or another format are refused with what is wrong.
func TestMismatchedFiles(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	if err := Save(a, testStore(t, 1, 1), 1, testMeta{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := Save(b, testStore(t, 2, 1), 1, testMeta{}, nil); err != nil {
		t.Fatal(err)
	}
	swapped, _ := os.ReadFile(filepath.Join(b, ModelFile))
	if err := os.WriteFile(filepath.Join(a, ModelFile), swapped, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(a); err == nil || !strings.Contains(err.Error(), "model.safetensors is not the file checkpoint.json was written with") {
		t.Errorf("a model.safetensors from another save: %v", err)
	}
	opt := filepath.Join(b, OptimizerFile)
	st, _ := os.Stat(opt)
	if err := os.Truncate(opt, st.Size()-4); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(b); err == nil || !strings.Contains(err.Error(), "optimizer.safetensors is not the file") {
		t.Errorf("a truncated optimizer.safetensors: %v", err)
	}
	os.Remove(opt)
	if _, err := Open(b); err == nil || !strings.Contains(err.Error(), "optimizer.safetensors") {
		t.Errorf("a missing optimizer.safetensors: %v", err)
	}
	if _, err := Open(root); err == nil || !strings.Contains(err.Error(), "no checkpoint.json") {
		t.Errorf("a folder without checkpoint.json: %v", err)
	}
	foreign := filepath.Join(root, "notes")
	os.Mkdir(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "mine.txt"), []byte("x"), 0o644)
	if err := Save(foreign, testStore(t, 1, 1), 1, testMeta{}, nil); err == nil || !strings.Contains(err.Error(), "not a checkpoint") {
		t.Errorf("a save over a folder of other files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "mine.txt")); err != nil {
		t.Errorf("the folder's file: %v", err)
	}
	raw, _ := os.ReadFile(filepath.Join(a, ManifestFile))
	os.WriteFile(filepath.Join(a, ManifestFile), []byte(strings.Replace(string(raw), Format, "other/9", 1)), 0o644)
	if _, err := Open(a); err == nil || !strings.Contains(err.Error(), `format "other/9"`) {
		t.Errorf("another format: %v", err)
	}
}
