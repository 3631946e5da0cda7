package safetensors

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// Tensor is one named tensor to write.
type Tensor struct {
	Name  string
	DType string // F32, BF16 (from Data) or I64 (from Int64)
	Shape []int
	Data  []float32
	Int64 []int64 // the values of an I64 tensor
}

// Write stores tensors (sorted by name, as the reference implementation orders them) and optional
// metadata in a new safetensors file at path.
func Write(path string, tensors []Tensor, metadata map[string]string) error {
	sorted := append([]Tensor(nil), tensors...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })

	header := map[string]any{}
	if len(metadata) > 0 {
		header["__metadata__"] = metadata
	}
	blobs := make([][]byte, len(sorted))
	var offset int64
	var err error
	for i, t := range sorted {
		n := 1
		for _, d := range t.Shape {
			n *= d
		}
		values := len(t.Data)
		if t.DType == I64 {
			values = len(t.Int64)
		}
		if n != values {
			return fmt.Errorf("safetensors: tensor %q: shape %v holds %d values, got %d", t.Name, t.Shape, n, values)
		}
		if _, dup := header[t.Name]; dup {
			return fmt.Errorf("safetensors: tensor %q given twice", t.Name)
		}
		var raw []byte
		if t.DType == I64 {
			raw = make([]byte, 8*len(t.Int64))
			for i, v := range t.Int64 {
				binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
			}
		} else if raw, err = Encode(t.Data, t.DType); err != nil {
			return fmt.Errorf("safetensors: tensor %q: %w", t.Name, err)
		}
		blobs[i] = raw
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		header[t.Name] = Info{DType: t.DType, Shape: shape, Offsets: [2]int64{offset, offset + int64(len(raw))}}
		offset += int64(len(raw))
	}
	hdr, err := json.Marshal(header)
	if err != nil {
		return err
	}
	// Pad the header with spaces so the data section starts 8-byte aligned.
	for len(hdr)%8 != 0 {
		hdr = append(hdr, ' ')
	}

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var lenBuf [8]byte
	binary.LittleEndian.PutUint64(lenBuf[:], uint64(len(hdr)))
	w.Write(lenBuf[:])
	w.Write(hdr)
	for _, b := range blobs {
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("safetensors: writing %s: %w", path, err)
	}
	return f.Close()
}
