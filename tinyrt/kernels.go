package tinyrt

// axpyGo is dst += a·x over len(dst) entries: the portable form of axpy.
func axpyGo(dst []float32, a float32, x []float32) {
	x = x[:len(dst)]
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		dst[i] += a * x[i]
		dst[i+1] += a * x[i+1]
		dst[i+2] += a * x[i+2]
		dst[i+3] += a * x[i+3]
	}
	for ; i < len(dst); i++ {
		dst[i] += a * x[i]
	}
}

// gatherAxpyGo is dst += Σ_j w[j]·rows[j·stride : j·stride+len(dst)]: attention's weighted sum
// of value vectors, the portable form of gatherAxpy.
func gatherAxpyGo(dst []float32, w []float32, rows []float32, stride int) {
	for j, wj := range w {
		axpyGo(dst, wj, rows[j*stride:j*stride+len(dst)])
	}
}
