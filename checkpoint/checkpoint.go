package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"golang.org/x/sys/unix"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// Names of the files a checkpoint folder holds.
const (
	ManifestFile  = "checkpoint.json"       // the layout, step and meta; written last
	ModelFile     = "model.safetensors"     // the weights
	OptimizerFile = "optimizer.safetensors" // the optimizer's state
)

// Format names this layout in checkpoint.json; Open refuses any other.
const Format = "agentrl-checkpoint/1"

// Variable is where one variable of a GoMLX store is kept: its path in the store, the
// safetensors file and tensor name that hold it, its dtype (safetensors.F32 or safetensors.I64)
// and shape, whether it is trainable, and whether it is a weight of the model (the rest is the
// optimizer's state).
type Variable struct {
	Path      string `json:"path"`
	File      string `json:"file"`
	Tensor    string `json:"tensor"`
	DType     string `json:"dtype"`
	Shape     []int  `json:"shape"`
	Trainable bool   `json:"trainable"`
	Weight    bool   `json:"weight"`
}

// Value is a variable with its values: Float32 for F32, Int64 for I64.
type Value struct {
	Variable
	Float32 []float32
	Int64   []int64
}

// ValueOf copies a float32 or int64 tensor into a Value stored as tensor name in a file (set by
// Writer.Write).
func ValueOf(path, tensor string, t *tensors.Tensor) (Value, error) {
	v := Value{Variable: Variable{Path: path, Tensor: tensor, Shape: slices.Clone(t.Shape().Dimensions)}}
	switch t.DType() {
	case dtypes.Float32:
		v.DType, v.Float32 = safetensors.F32, tensors.MustCopyFlatData[float32](t)
	case dtypes.Int64:
		v.DType, v.Int64 = safetensors.I64, tensors.MustCopyFlatData[int64](t)
	default:
		return v, fmt.Errorf("checkpoint: %s has dtype %s (want float32 or int64)", path, t.DType())
	}
	return v, nil
}

// FileSum is a file's size and SHA-256, as checkpoint.json records them.
type FileSum struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// manifest is checkpoint.json.
type manifest struct {
	Format    string             `json:"format"`
	Step      int                `json:"step"`
	Meta      json.RawMessage    `json:"meta"`
	Files     map[string]FileSum `json:"files"`
	Variables []Variable         `json:"variables"`
}

// Writer is a checkpoint being saved. Its files go into a hidden folder beside the checkpoint
// (Dir); Commit moves them in at once, and Abort (or a crash) leaves the previous checkpoint as
// it was.
type Writer struct {
	dir, stage string
	vars       []Variable
}

// Create starts a checkpoint that Commit will write into dir. dir may be missing, empty or a
// previous checkpoint; anything else is refused rather than replaced. Staging folders left by an
// earlier save that was interrupted are removed.
func Create(dir string) (*Writer, error) {
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
		return nil, err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	if stale, _ := filepath.Glob(filepath.Join(parent, "."+base+".new-*")); len(stale) > 0 {
		for _, s := range stale {
			os.RemoveAll(s)
		}
	}
	stage, err := os.MkdirTemp(parent, "."+base+".new-")
	if err == nil {
		err = os.Chmod(stage, 0o755) // MkdirTemp makes it private; a checkpoint is an ordinary folder
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	return &Writer{dir: dir, stage: stage}, nil
}

// replaceable refuses a dir that holds something other than a checkpoint.
func replaceable(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("checkpoint %s: is a file, not a checkpoint folder: refusing to replace it", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); len(entries) > 0 && err != nil {
		return fmt.Errorf("checkpoint %s: holds files but no %s, so it is not a checkpoint: refusing to replace it", dir, ManifestFile)
	}
	return nil
}

// Dir is the staging folder: a caller writes there the files the checkpoint carries besides its
// tensors (a Hugging Face config.json), or tensors written by other code (see Describe).
func (w *Writer) Dir() string { return w.stage }

// Write stores values in a new safetensors file of the checkpoint and records their layout.
func (w *Writer) Write(file string, values []Value) error {
	ts := make([]safetensors.Tensor, len(values))
	for i, v := range values {
		ts[i] = safetensors.Tensor{Name: v.Tensor, DType: v.DType, Shape: v.Shape, Data: v.Float32, Int64: v.Int64}
		v.Variable.File = file
		if v.Shape == nil {
			v.Shape = []int{} // a scalar: [] in checkpoint.json, as in the safetensors header
		}
		w.vars = append(w.vars, v.Variable)
	}
	if err := safetensors.Write(filepath.Join(w.stage, file), ts, nil); err != nil {
		return fmt.Errorf("checkpoint %s: %w", w.dir, err)
	}
	return nil
}

// Describe records the layout of variables that other code wrote into a file under Dir (a
// model's own Save); Commit checks them against the file.
func (w *Writer) Describe(file string, vars []Variable) {
	for _, v := range vars {
		v.File = file
		if v.Shape == nil {
			v.Shape = []int{}
		}
		w.vars = append(w.vars, v)
	}
}

// Abort removes the staging folder; the previous checkpoint, if any, stays as it was. It does
// nothing after Commit.
func (w *Writer) Abort() {
	if w.stage != "" {
		os.RemoveAll(w.stage)
		w.stage = ""
	}
}

// Commit writes checkpoint.json (step, meta as JSON, the size and SHA-256 of every staged file,
// the variables' layout), flushes everything to disk and puts the staged folder in place of the
// previous checkpoint in one rename.
func (w *Writer) Commit(step int, meta any) error {
	if w.stage == "" {
		return fmt.Errorf("checkpoint %s: committed twice", w.dir)
	}
	defer w.Abort()
	raw, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("checkpoint %s: meta: %w", w.dir, err)
	}
	m := manifest{Format: Format, Step: step, Meta: raw, Files: map[string]FileSum{}, Variables: w.vars}
	entries, err := os.ReadDir(w.stage)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ManifestFile || !e.Type().IsRegular() {
			return fmt.Errorf("checkpoint %s: staged %s is not a file a checkpoint may carry", w.dir, e.Name())
		}
		if m.Files[e.Name()], err = sum(filepath.Join(w.stage, e.Name()), true); err != nil {
			return fmt.Errorf("checkpoint %s: %w", w.dir, err)
		}
	}
	if err := checkLayout(w.stage, m); err != nil {
		return fmt.Errorf("checkpoint %s: %w", w.dir, err)
	}
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeSynced(filepath.Join(w.stage, ManifestFile), append(out, '\n')); err != nil {
		return fmt.Errorf("checkpoint %s: %w", w.dir, err)
	}
	if err := syncDir(w.stage); err != nil {
		return err
	}
	if err := replaceable(w.dir); err != nil {
		return err
	}
	if err := swap(w.stage, w.dir); err != nil {
		return fmt.Errorf("checkpoint %s: %w", w.dir, err)
	}
	return syncDir(filepath.Dir(w.dir))
}

// swap puts stage at dir. With a previous checkpoint there, the two folders trade places in one
// rename and the old one (now at stage) is removed by Abort. On a file system without
// RENAME_EXCHANGE, the previous checkpoint moves aside before the new one moves in: a crash
// between the two renames leaves it whole under its hidden name.
func swap(stage, dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return os.Rename(stage, dir)
	}
	err := unix.Renameat2(unix.AT_FDCWD, stage, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	if err == nil || !(errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP)) {
		return err
	}
	base := "." + filepath.Base(dir)
	old := filepath.Join(filepath.Dir(dir), base+".old-"+strings.TrimPrefix(filepath.Base(stage), base+".new-"))
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(stage, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	return os.RemoveAll(old)
}

// Save writes every variable of store (weights into model.safetensors, the rest into
// optimizer.safetensors, each under its store path), the step and meta to dir. isWeight says
// which variables are the model's weights; nil means the trainable ones.
func Save(dir string, store *mlmodel.Store, step int, meta any, isWeight func(path string) bool) error {
	files := map[string][]Value{}
	for v := range store.IterVariables() {
		t, err := v.Value()
		if err != nil {
			return fmt.Errorf("checkpoint %s: %s: %w", dir, v.Path(), err)
		}
		val, err := ValueOf(v.Path(), v.Path(), t)
		if err != nil {
			return err
		}
		val.Trainable = v.Trainable
		val.Weight = v.Trainable
		if isWeight != nil {
			val.Weight = isWeight(v.Path())
		}
		file := OptimizerFile
		if val.Weight {
			file = ModelFile
		}
		files[file] = append(files[file], val)
	}
	w, err := Create(dir)
	if err != nil {
		return err
	}
	defer w.Abort()
	for _, file := range []string{ModelFile, OptimizerFile} {
		if len(files[file]) > 0 {
			if err := w.Write(file, files[file]); err != nil {
				return err
			}
		}
	}
	return w.Commit(step, meta)
}

// Checkpoint is a checkpoint read back by Open: its step, its meta (JSON) and its variables.
type Checkpoint struct {
	Dir       string
	Step      int
	Meta      json.RawMessage
	Variables []Variable
}

// Open reads dir's checkpoint.json and checks the folder against it: every file it lists has the
// recorded size and SHA-256 (a file from another save is refused), and every variable's tensor is
// in its file with the recorded dtype and shape. It reads no tensor.
func Open(dir string) (*Checkpoint, error) {
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(dir); serr != nil {
			return nil, fmt.Errorf("checkpoint: %w", serr)
		}
		return nil, fmt.Errorf("checkpoint %s: no %s: not a checkpoint folder", dir, ManifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %s: %w", dir, ManifestFile, err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("checkpoint %s: %s has format %q, want %q", dir, ManifestFile, m.Format, Format)
	}
	for name, want := range m.Files {
		got, err := sum(filepath.Join(dir, name), false)
		if err != nil {
			return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
		}
		if got != want {
			return nil, fmt.Errorf("checkpoint %s: %s is not the file %s was written with (%d bytes, sha256 %.12s; recorded %d bytes, %.12s): mixed with another save",
				dir, name, ManifestFile, got.Bytes, got.SHA256, want.Bytes, want.SHA256)
		}
	}
	if err := checkLayout(dir, m); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	return &Checkpoint{Dir: dir, Step: m.Step, Meta: m.Meta, Variables: m.Variables}, nil
}

// checkLayout checks that every variable is in a listed file, under its tensor name, with its
// dtype and shape, and that no store path comes twice.
func checkLayout(dir string, m manifest) error {
	byFile := map[string][]Variable{}
	seen := map[string]bool{}
	for _, v := range m.Variables {
		if _, ok := m.Files[v.File]; !ok {
			return fmt.Errorf("variable %s: its file %q is not listed in %s", v.Path, v.File, ManifestFile)
		}
		if seen[v.Path] {
			return fmt.Errorf("variable %s listed twice", v.Path)
		}
		seen[v.Path] = true
		byFile[v.File] = append(byFile[v.File], v)
	}
	for file, vars := range byFile {
		f, err := safetensors.Open(filepath.Join(dir, file))
		if err != nil {
			return err
		}
		for _, v := range vars {
			info, ok := f.Tensors[v.Tensor]
			if !ok || info.DType != v.DType || !slices.Equal(info.Shape, v.Shape) {
				f.Close()
				return fmt.Errorf("variable %s: %s holds %q as %s%v, %s records %s%v", v.Path, file, v.Tensor, info.DType, info.Shape, ManifestFile, v.DType, v.Shape)
			}
		}
		f.Close()
	}
	return nil
}

// DecodeMeta decodes the checkpoint's meta into v (a pointer).
func (c *Checkpoint) DecodeMeta(v any) error {
	if err := json.Unmarshal(c.Meta, v); err != nil {
		return fmt.Errorf("checkpoint %s: its model description: %w", c.Dir, err)
	}
	return nil
}

// Float32 reads the F32 variable at store path, which must have the given shape.
func (c *Checkpoint) Float32(path string, shape []int) ([]float32, error) {
	i := slices.IndexFunc(c.Variables, func(v Variable) bool { return v.Path == path })
	if i < 0 {
		return nil, fmt.Errorf("checkpoint %s: no variable %s", c.Dir, path)
	}
	v := c.Variables[i]
	if v.DType != safetensors.F32 || !slices.Equal(v.Shape, shape) {
		return nil, fmt.Errorf("checkpoint %s: %s is %s%v, want %s%v", c.Dir, path, v.DType, v.Shape, safetensors.F32, shape)
	}
	f, err := safetensors.Open(filepath.Join(c.Dir, v.File))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vals, _, err := f.Float32(v.Tensor)
	return vals, err
}

// Restore sets every variable of the checkpoint in store, creating those the store lacks (an
// optimizer's state before its first step) with their trainable flag.
func (c *Checkpoint) Restore(store *mlmodel.Store) error {
	return c.restore(store, func(Variable) bool { return true })
}

// RestoreOptimizer is Restore for the optimizer's state alone, for a store whose weights were
// loaded otherwise (a Hugging Face model folder).
func (c *Checkpoint) RestoreOptimizer(store *mlmodel.Store) error {
	return c.restore(store, func(v Variable) bool { return !v.Weight })
}

func (c *Checkpoint) restore(store *mlmodel.Store, keep func(Variable) bool) error {
	files := map[string]*safetensors.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	vars := slices.Clone(c.Variables)
	sort.SliceStable(vars, func(i, j int) bool { return vars[i].Path < vars[j].Path })
	for _, v := range vars {
		if !keep(v) {
			continue
		}
		f := files[v.File]
		if f == nil {
			var err error
			if f, err = safetensors.Open(filepath.Join(c.Dir, v.File)); err != nil {
				return fmt.Errorf("checkpoint %s: %w", c.Dir, err)
			}
			files[v.File] = f
		}
		var val *tensors.Tensor
		if v.DType == safetensors.I64 {
			data, _, err := f.Int64(v.Tensor)
			if err != nil {
				return err
			}
			val = tensors.FromFlatDataAndDimensions(data, v.Shape...)
		} else {
			data, _, err := f.Float32(v.Tensor)
			if err != nil {
				return err
			}
			val = tensors.FromFlatDataAndDimensions(data, v.Shape...)
		}
		if sv := store.GetVariable(v.Path); sv != nil {
			if err := sv.SetValue(val); err != nil {
				return fmt.Errorf("checkpoint %s: restore %s: %w", c.Dir, v.Path, err)
			}
			continue
		}
		sv, err := store.CreateVariable(v.Path, val)
		if err != nil {
			return fmt.Errorf("checkpoint %s: restore %s: %w", c.Dir, v.Path, err)
		}
		sv.Trainable = v.Trainable
	}
	return nil
}

// sum is a file's size and SHA-256; with sync, the file is flushed to disk first.
func sum(path string, sync bool) (FileSum, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileSum{}, err
	}
	defer f.Close()
	if sync {
		if err := f.Sync(); err != nil {
			return FileSum{}, err
		}
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return FileSum{}, fmt.Errorf("%s: %w", path, err)
	}
	return FileSum{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
