//go:build !(goexperiment.simd && amd64)

package tinyrt

func mulAcc(y, x, rows []float32, stride int) { mulAccGo(y, x, rows, stride) }

func exp32(xs []float32) { exp32Go(xs) }
