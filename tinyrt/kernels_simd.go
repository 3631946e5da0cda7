//go:build goexperiment.simd && amd64

package tinyrt

import "simd/archsimd"

var hasAVX512 = archsimd.X86.AVX512()

// axpy is dst += a·x over len(dst) entries. The vector code multiplies and then adds, each rounded,
// as the scalar code does, instead of fusing them: a fused multiply-add rounds once, so machines
// with and without AVX-512 would sample different tokens from the same weights.
func axpy(dst []float32, a float32, x []float32) {
	if !hasAVX512 || len(dst) < 16 {
		axpyGo(dst, a, x)
		return
	}
	x = x[:len(dst)]
	av := archsimd.BroadcastFloat32x16(a)
	i := 0
	for ; i+16 <= len(dst); i += 16 {
		av.Mul(archsimd.LoadFloat32x16(x[i : i+16])).Add(archsimd.LoadFloat32x16(dst[i : i+16])).Store(dst[i : i+16])
	}
	for ; i < len(dst); i++ {
		dst[i] += a * x[i]
	}
}

// gatherAxpy is dst += Σ_j w[j]·rows[j·stride : j·stride+len(dst)]. A head of 16 values is one
// vector, kept in a register across the whole sum.
func gatherAxpy(dst []float32, w []float32, rows []float32, stride int) {
	if !hasAVX512 || len(dst) != 16 {
		gatherAxpyGo(dst, w, rows, stride)
		return
	}
	acc := archsimd.LoadFloat32x16(dst)
	for j, wj := range w {
		acc = archsimd.BroadcastFloat32x16(wj).Mul(archsimd.LoadFloat32x16(rows[j*stride : j*stride+16])).Add(acc)
	}
	acc.Store(dst)
}

// scalarAfterVector clears the upper halves of the vector registers: scalar float code after
// AVX-512 code runs slowly until they are cleared.
func scalarAfterVector() {
	if hasAVX512 {
		archsimd.ClearAVXUpperBits()
	}
}
