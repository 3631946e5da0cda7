package safetensors

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
)

// Element types this package understands, spelled as in the safetensors header.
const (
	F32  = "F32"
	BF16 = "BF16"
	F16  = "F16"
	I64  = "I64" // integers, such as an optimizer's step count: read with File.Int64
)

// maxHeaderLen guards against reading a corrupt or foreign file's first 8 bytes as a huge length.
const maxHeaderLen = 100 << 20

// Info describes one tensor in a file's header.
type Info struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"` // byte range relative to the start of the data section
}

// NumElements is the product of the shape (1 for a scalar).
func (i Info) NumElements() int {
	n := 1
	for _, d := range i.Shape {
		n *= d
	}
	return n
}

// File is an open safetensors file. Tensors are read on demand, so a large checkpoint is never
// held in memory twice.
type File struct {
	path      string
	f         *os.File
	dataStart int64
	Tensors   map[string]Info
	Metadata  map[string]string
}

// Open reads and validates the header of the safetensors file at path.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	sf, err := readHeader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return sf, nil
}

func readHeader(f *os.File, path string) (*File, error) {
	var lenBuf [8]byte
	if _, err := io.ReadFull(f, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("safetensors %s: reading header length: %w", path, err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxHeaderLen {
		return nil, fmt.Errorf("safetensors %s: header length %d is implausible", path, n)
	}
	header := make([]byte, n)
	if _, err := io.ReadFull(f, header); err != nil {
		return nil, fmt.Errorf("safetensors %s: reading %d-byte header: %w", path, n, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(header, &raw); err != nil {
		return nil, fmt.Errorf("safetensors %s: header is not JSON: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	sf := &File{path: path, f: f, dataStart: 8 + int64(n), Tensors: map[string]Info{}}
	dataLen := st.Size() - sf.dataStart
	for name, msg := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &sf.Metadata); err != nil {
				return nil, fmt.Errorf("safetensors %s: __metadata__: %w", path, err)
			}
			continue
		}
		var info Info
		if err := json.Unmarshal(msg, &info); err != nil {
			return nil, fmt.Errorf("safetensors %s: tensor %q: %w", path, name, err)
		}
		size, err := elementSize(info.DType)
		if err != nil {
			// Unknown dtypes are kept in the index: only reading them fails.
			size = 0
		}
		b, e := info.Offsets[0], info.Offsets[1]
		if b < 0 || e < b || e > dataLen {
			return nil, fmt.Errorf("safetensors %s: tensor %q: byte range [%d, %d) outside the %d-byte data section",
				path, name, b, e, dataLen)
		}
		if size > 0 && e-b != int64(info.NumElements()*size) {
			return nil, fmt.Errorf("safetensors %s: tensor %q: %s%v needs %d bytes, header gives %d",
				path, name, info.DType, info.Shape, info.NumElements()*size, e-b)
		}
		sf.Tensors[name] = info
	}
	return sf, nil
}

// Close releases the file.
func (sf *File) Close() error { return sf.f.Close() }

// Float32 reads the named tensor, converting BF16 and F16 to float32, and returns its values in
// row-major order with its shape.
func (sf *File) Float32(name string) ([]float32, []int, error) {
	raw, info, err := sf.raw(name)
	if err != nil {
		return nil, nil, err
	}
	vals, err := Decode(raw, info.DType)
	if err != nil {
		return nil, nil, fmt.Errorf("safetensors %s: tensor %q: %w", sf.path, name, err)
	}
	return vals, info.Shape, nil
}

// Int64 reads the named I64 tensor exactly, with its shape.
func (sf *File) Int64(name string) ([]int64, []int, error) {
	raw, info, err := sf.raw(name)
	if err != nil {
		return nil, nil, err
	}
	if info.DType != I64 {
		return nil, nil, fmt.Errorf("safetensors %s: tensor %q is %s, not %s", sf.path, name, info.DType, I64)
	}
	out := make([]int64, len(raw)/8)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return out, info.Shape, nil
}

// raw reads the named tensor's bytes.
func (sf *File) raw(name string) ([]byte, Info, error) {
	info, ok := sf.Tensors[name]
	if !ok {
		return nil, info, fmt.Errorf("safetensors %s: no tensor %q", sf.path, name)
	}
	raw := make([]byte, info.Offsets[1]-info.Offsets[0])
	if _, err := sf.f.ReadAt(raw, sf.dataStart+info.Offsets[0]); err != nil {
		return nil, info, fmt.Errorf("safetensors %s: reading %q: %w", sf.path, name, err)
	}
	return raw, info, nil
}

func elementSize(dtype string) (int, error) {
	switch dtype {
	case I64:
		return 8, nil
	case F32:
		return 4, nil
	case BF16, F16:
		return 2, nil
	}
	return 0, fmt.Errorf("unsupported dtype %q (want %s, %s, %s or %s)", dtype, F32, BF16, F16, I64)
}

// Decode converts little-endian raw data of the given dtype (F32, BF16 or F16) to float32.
func Decode(raw []byte, dtype string) ([]float32, error) {
	if dtype == I64 {
		return nil, fmt.Errorf("dtype %s holds integers: read it as integers", I64)
	}
	size, err := elementSize(dtype)
	if err != nil {
		return nil, err
	}
	if len(raw)%size != 0 {
		return nil, fmt.Errorf("%d bytes is not a whole number of %s elements", len(raw), dtype)
	}
	out := make([]float32, len(raw)/size)
	switch dtype {
	case F32:
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case BF16:
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(raw[2*i:])) << 16)
		}
	case F16:
		for i := range out {
			out[i] = halfToFloat32(binary.LittleEndian.Uint16(raw[2*i:]))
		}
	}
	return out, nil
}

// Encode converts float32 values to little-endian raw data of dtype F32 or BF16. BF16 rounds to
// nearest, ties to even, as PyTorch's conversion does.
func Encode(vals []float32, dtype string) ([]byte, error) {
	switch dtype {
	case F32:
		out := make([]byte, 4*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
		}
		return out, nil
	case BF16:
		out := make([]byte, 2*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint16(out[2*i:], float32ToBF16(v))
		}
		return out, nil
	}
	return nil, fmt.Errorf("safetensors: cannot encode dtype %q (want %s or %s)", dtype, F32, BF16)
}

func float32ToBF16(v float32) uint16 {
	b := math.Float32bits(v)
	if v != v { // keep NaN a NaN: rounding could carry it into infinity
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal half: value = frac * 2^-24.
	v := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}
