//go:build !(goexperiment.simd && amd64)

package tinyrt

func axpy(dst []float32, a float32, x []float32) { axpyGo(dst, a, x) }
func gatherAxpy(dst []float32, w []float32, rows []float32, stride int) {
	gatherAxpyGo(dst, w, rows, stride)
}
func scalarAfterVector() {}
