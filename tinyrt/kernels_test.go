package tinyrt

import (
	"math/rand/v2"
	"testing"
)

// TestKernelsMatchScalarBitForBit: the kernels the decoder runs (vector code where the machine has
// AVX-512) give exactly the scalar code's float32 results, so a sampled token never depends on
// the machine's instruction set. On a machine without AVX-512 both sides run the scalar code.
func TestKernelsMatchScalarBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	for _, n := range []int{1, 15, 16, 17, 64, 100} {
		x, dst := vec(n), vec(n)
		a := float32(rng.NormFloat64())
		want := append([]float32(nil), dst...)
		axpyGo(want, a, x)
		axpy(dst, a, x)
		for i := range dst {
			if dst[i] != want[i] {
				t.Fatalf("axpy n=%d entry %d: %g, scalar %g", n, i, dst[i], want[i])
			}
		}
	}
	for _, n := range []int{16, 8} {
		const stride, rows = 24, 37
		w, all, dst := vec(rows), vec(rows*stride), vec(n)
		want := append([]float32(nil), dst...)
		gatherAxpyGo(want, w, all, stride)
		gatherAxpy(dst, w, all, stride)
		scalarAfterVector()
		for i := range dst {
			if dst[i] != want[i] {
				t.Fatalf("gatherAxpy n=%d entry %d: %g, scalar %g", n, i, dst[i], want[i])
			}
		}
	}
}
