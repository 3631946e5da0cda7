package safetensors

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Names of the files in a Hugging Face model directory.
const (
	SingleFile = "model.safetensors"
	IndexFile  = "model.safetensors.index.json"
)

// index is the JSON layout of model.safetensors.index.json.
type index struct {
	Metadata  map[string]any    `json:"metadata"`
	WeightMap map[string]string `json:"weight_map"`
}

// Checkpoint is the set of safetensors files of one model directory, addressed by tensor name.
type Checkpoint struct {
	files []*File
	where map[string]*File
}

// OpenDir opens a model directory: the shards listed by model.safetensors.index.json when it
// exists, otherwise model.safetensors.
func OpenDir(dir string) (*Checkpoint, error) {
	idxPath := filepath.Join(dir, IndexFile)
	raw, err := os.ReadFile(idxPath)
	if errors.Is(err, os.ErrNotExist) {
		f, err := Open(filepath.Join(dir, SingleFile))
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("model directory %s has neither %s nor %s", dir, IndexFile, SingleFile)
		}
		if err != nil {
			return nil, err
		}
		c := &Checkpoint{files: []*File{f}, where: map[string]*File{}}
		for name := range f.Tensors {
			c.where[name] = f
		}
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	var idx index
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", idxPath, err)
	}
	c := &Checkpoint{where: map[string]*File{}}
	byShard := map[string]*File{}
	for _, name := range sortedKeys(idx.WeightMap) {
		shard := idx.WeightMap[name]
		f, ok := byShard[shard]
		if !ok {
			if f, err = Open(filepath.Join(dir, shard)); err != nil {
				c.Close()
				return nil, fmt.Errorf("%s: shard of %q: %w", idxPath, name, err)
			}
			byShard[shard] = f
			c.files = append(c.files, f)
		}
		if _, ok := f.Tensors[name]; !ok {
			c.Close()
			return nil, fmt.Errorf("%s: maps %q to %s, which does not hold it", idxPath, name, shard)
		}
		c.where[name] = f
	}
	return c, nil
}

// Names returns every tensor name in sorted order.
func (c *Checkpoint) Names() []string { return sortedKeys(c.where) }

// Info returns the header entry of the named tensor.
func (c *Checkpoint) Info(name string) (Info, bool) {
	f, ok := c.where[name]
	if !ok {
		return Info{}, false
	}
	return f.Tensors[name], true
}

// Float32 reads the named tensor as float32 (see File.Float32).
func (c *Checkpoint) Float32(name string) ([]float32, []int, error) {
	f, ok := c.where[name]
	if !ok {
		return nil, nil, fmt.Errorf("checkpoint has no tensor %q", name)
	}
	return f.Float32(name)
}

// Close closes every file.
func (c *Checkpoint) Close() error {
	var errs []error
	for _, f := range c.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// WriteDir writes tensors into dir as a model checkpoint: one model.safetensors when shards <= 1,
// otherwise that many files named model-0000i-of-0000n.safetensors, split in name order into
// parts of about equal size, with the model.safetensors.index.json that maps names to files.
func WriteDir(dir string, tensors []Tensor, shards int, metadata map[string]string) error {
	if shards <= 1 {
		return Write(filepath.Join(dir, SingleFile), tensors, metadata)
	}
	if shards > len(tensors) {
		return fmt.Errorf("safetensors: %d shards for %d tensors", shards, len(tensors))
	}
	sorted := append([]Tensor(nil), tensors...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var total int64
	sizes := make([]int64, len(sorted))
	for i, t := range sorted {
		size, err := elementSize(t.DType)
		if err != nil {
			return fmt.Errorf("safetensors: tensor %q: %w", t.Name, err)
		}
		sizes[i] = int64(size * len(t.Data))
		total += sizes[i]
	}
	idx := index{Metadata: map[string]any{"total_size": total}, WeightMap: map[string]string{}}
	start := 0
	var done int64
	for s := range shards {
		// Close this shard once it reaches its share of the bytes, leaving one tensor per later shard.
		end := start + 1
		done += sizes[start]
		for end < len(sorted)-(shards-s-1) && (s == shards-1 || done < total*int64(s+1)/int64(shards)) {
			done += sizes[end]
			end++
		}
		name := fmt.Sprintf("model-%05d-of-%05d.safetensors", s+1, shards)
		if err := Write(filepath.Join(dir, name), sorted[start:end], metadata); err != nil {
			return err
		}
		for _, t := range sorted[start:end] {
			idx.WeightMap[t.Name] = name
		}
		start = end
	}
	raw, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, IndexFile), append(raw, '\n'), 0o644)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
