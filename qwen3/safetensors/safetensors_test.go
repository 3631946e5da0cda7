package safetensors

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestEncodeDecode(t *testing.T) {
	tests := []struct {
		name  string
		dtype string
		in    []float32
		want  []float32
	}{
		{"f32 exact", F32, []float32{0, -1.5, 3.25e-8, float32(math.Inf(1))}, []float32{0, -1.5, 3.25e-8, float32(math.Inf(1))}},
		{"bf16 representable", BF16, []float32{1, -2, 0.5, 65536}, []float32{1, -2, 0.5, 65536}},
		// 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even mantissa (1).
		// 1 + 3*2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: even is 1 + 2^-6.
		{"bf16 ties to even", BF16, []float32{1 + 1.0/256, 1 + 3.0/256}, []float32{1, 1 + 1.0/64}},
		{"bf16 rounds to nearest", BF16, []float32{1 + 1.0/256 + 1.0/4096}, []float32{1 + 1.0/128}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := Encode(tc.in, tc.dtype)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(raw, tc.dtype)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDecodeF16(t *testing.T) {
	tests := []struct {
		bits uint16
		want float32
	}{
		{0x3c00, 1},
		{0xc000, -2},
		{0x7bff, 65504},                       // largest finite half
		{0x0001, float32(math.Ldexp(1, -24))}, // smallest subnormal
		{0x8000, float32(math.Copysign(0, -1))},
		{0x7c00, float32(math.Inf(1))},
	}
	for _, tc := range tests {
		raw := binary.LittleEndian.AppendUint16(nil, tc.bits)
		got, err := Decode(raw, F16)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float32bits(got[0]) != math.Float32bits(tc.want) {
			t.Errorf("F16 %#04x: got %g, want %g", tc.bits, got[0], tc.want)
		}
	}
}

func testTensors() []Tensor {
	return []Tensor{
		{Name: "b.weight", DType: BF16, Shape: []int{2, 3}, Data: []float32{1, 2, 3, -4, 0.5, 0.25}},
		{Name: "a.weight", DType: F32, Shape: []int{3}, Data: []float32{0.1, 0.2, 0.3}},
		{Name: "c.bias", DType: F32, Shape: []int{}, Data: []float32{7}},
		{Name: "d.weight", DType: F32, Shape: []int{1, 2}, Data: []float32{-1, 1}},
	}
}

func TestWriteDirRoundTrip(t *testing.T) {
	for _, shards := range []int{1, 2, 3} {
		dir := t.TempDir()
		if err := WriteDir(dir, testTensors(), shards, map[string]string{"format": "pt"}); err != nil {
			t.Fatal(err)
		}
		_, errIdx := os.Stat(filepath.Join(dir, IndexFile))
		if (errIdx == nil) != (shards > 1) {
			t.Errorf("shards=%d: index file present=%v", shards, errIdx == nil)
		}
		c, err := OpenDir(dir)
		if err != nil {
			t.Fatalf("shards=%d: %v", shards, err)
		}
		if got, want := c.Names(), []string{"a.weight", "b.weight", "c.bias", "d.weight"}; !reflect.DeepEqual(got, want) {
			t.Errorf("shards=%d: names %v, want %v", shards, got, want)
		}
		if got := len(c.files); got != shards {
			t.Errorf("shards=%d: opened %d files", shards, got)
		}
		for _, tt := range testTensors() {
			vals, shape, err := c.Float32(tt.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(vals, tt.Data) || len(shape) != len(tt.Shape) {
				t.Errorf("shards=%d %s: got %v %v, want %v %v", shards, tt.Name, vals, shape, tt.Data, tt.Shape)
			}
			if info, _ := c.Info(tt.Name); info.DType != tt.DType {
				t.Errorf("shards=%d %s: dtype %s, want %s", shards, tt.Name, info.DType, tt.DType)
			}
		}
		c.Close()
	}
}

func TestOpenRejectsBadFiles(t *testing.T) {
	header := func(h string) []byte {
		return append(binary.LittleEndian.AppendUint64(nil, uint64(len(h))), h...)
	}
	tests := []struct {
		name    string
		content []byte
		wantErr string
	}{
		{"short", []byte{1, 2}, "header length"},
		{"huge header", binary.LittleEndian.AppendUint64(nil, 1<<40), "implausible"},
		{"not json", header("{nope"), "not JSON"},
		{"range outside data", header(`{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`), "outside"},
		{"size mismatch", append(header(`{"x":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`), make([]byte, 8)...), "needs 12 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.safetensors")
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(path)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestOpenDirMissing(t *testing.T) {
	if _, err := OpenDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), SingleFile) {
		t.Errorf("got %v, want an error naming %s", err, SingleFile)
	}
}

// TestInt64RoundTrip: I64 tensors (an optimizer's step counts) are written and read back exactly,
// beyond float64's 53 bits and negative, and are not read as floats.
func TestInt64RoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "i.safetensors")
	want := []int64{1<<62 + 1, -3, 0}
	if err := Write(path, []Tensor{{Name: "step", DType: I64, Shape: []int{3}, Int64: want},
		{Name: "w", DType: F32, Shape: []int{1}, Data: []float32{0.5}}}, nil); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, shape, err := f.Int64("step")
	if err != nil || len(shape) != 1 || shape[0] != 3 || len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Int64: %v %v %v", got, shape, err)
	}
	if _, _, err := f.Float32("step"); err == nil {
		t.Error("an I64 tensor read as float32")
	}
	if _, _, err := f.Int64("w"); err == nil {
		t.Error("an F32 tensor read as int64")
	}
	if err := Write(path, []Tensor{{Name: "n", DType: I64, Shape: []int{2}, Int64: []int64{1}}}, nil); err == nil {
		t.Error("an I64 tensor with too few values written")
	}
}
