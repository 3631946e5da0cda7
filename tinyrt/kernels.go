package tinyrt

import "math"

// mulAccGo is y += Σ_i x[i]·rows[i·stride : i·stride+len(y)], summed in the order of i for every
// entry: the portable form of mulAcc. It is a dense layer's product (rows: the weight matrix,
// stride: its width), attention's scores (rows: the keys of one head, stored transposed) and
// attention's weighted sum of values.
func mulAccGo(y, x, rows []float32, stride int) {
	n := len(y)
	for i, xi := range x {
		r := rows[i*stride : i*stride+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			y[j] += xi * r[j]
			y[j+1] += xi * r[j+1]
			y[j+2] += xi * r[j+2]
			y[j+3] += xi * r[j+3]
		}
		for ; j < n; j++ {
			y[j] += xi * r[j]
		}
	}
}

// exp32Go sets xs[i] to float32(math.Exp(float64(xs[i]))): the portable form of exp32.
func exp32Go(xs []float32) {
	for i, v := range xs {
		xs[i] = float32(math.Exp(float64(v)))
	}
}
