//go:build goexperiment.simd && amd64

package tinyrt

import (
	"math"
	"simd/archsimd"
)

// The vector width the machine offers: 16 lanes with AVX-512, 8 with AVX2, otherwise the scalar
// code runs. Each kernel keeps a block of outputs in registers across its whole sum, so a call
// does enough work to pay for the switch between vector and scalar code.
var (
	hasAVX512 = archsimd.X86.AVX512()
	hasAVX2   = !hasAVX512 && archsimd.X86.AVX2()
)

// mulAcc is y += Σ_i x[i]·rows[i·stride : i·stride+len(y)], summed in the order of i for every
// entry. The vector code multiplies and then adds, each rounded, as the scalar code does, instead
// of fusing them: a fused multiply-add rounds once, so machines with and without vector units
// would sample different tokens from the same weights.
func mulAcc(y, x, rows []float32, stride int) {
	j := 0
	switch {
	case hasAVX512:
		for ; j+32 <= len(y); j += 32 {
			a0, a1 := archsimd.LoadFloat32x16(y[j:j+16]), archsimd.LoadFloat32x16(y[j+16:j+32])
			for i, xi := range x {
				r := rows[i*stride+j : i*stride+j+32]
				xv := archsimd.BroadcastFloat32x16(xi)
				a0 = xv.Mul(archsimd.LoadFloat32x16(r[:16])).Add(a0)
				a1 = xv.Mul(archsimd.LoadFloat32x16(r[16:32])).Add(a1)
			}
			a0.Store(y[j : j+16])
			a1.Store(y[j+16 : j+32])
		}
		for ; j+16 <= len(y); j += 16 {
			a := archsimd.LoadFloat32x16(y[j : j+16])
			for i, xi := range x {
				a = archsimd.BroadcastFloat32x16(xi).Mul(archsimd.LoadFloat32x16(rows[i*stride+j : i*stride+j+16])).Add(a)
			}
			a.Store(y[j : j+16])
		}
		archsimd.ClearAVXUpperBits()
	case hasAVX2:
		for ; j+32 <= len(y); j += 32 {
			a0, a1 := archsimd.LoadFloat32x8(y[j:j+8]), archsimd.LoadFloat32x8(y[j+8:j+16])
			a2, a3 := archsimd.LoadFloat32x8(y[j+16:j+24]), archsimd.LoadFloat32x8(y[j+24:j+32])
			for i, xi := range x {
				r := rows[i*stride+j : i*stride+j+32]
				xv := archsimd.BroadcastFloat32x8(xi)
				a0 = xv.Mul(archsimd.LoadFloat32x8(r[:8])).Add(a0)
				a1 = xv.Mul(archsimd.LoadFloat32x8(r[8:16])).Add(a1)
				a2 = xv.Mul(archsimd.LoadFloat32x8(r[16:24])).Add(a2)
				a3 = xv.Mul(archsimd.LoadFloat32x8(r[24:32])).Add(a3)
			}
			a0.Store(y[j : j+8])
			a1.Store(y[j+8 : j+16])
			a2.Store(y[j+16 : j+24])
			a3.Store(y[j+24 : j+32])
		}
		for ; j+8 <= len(y); j += 8 {
			a := archsimd.LoadFloat32x8(y[j : j+8])
			for i, xi := range x {
				a = archsimd.BroadcastFloat32x8(xi).Mul(archsimd.LoadFloat32x8(rows[i*stride+j : i*stride+j+8])).Add(a)
			}
			a.Store(y[j : j+8])
		}
		archsimd.ClearAVXUpperBits()
	}
	if j < len(y) {
		mulAccGo(y[j:], x, rows[j:], stride)
	}
}

// hasFMA: math.Exp on amd64 takes its fused multiply-add path when the CPU has AVX and FMA; the
// vector exp below replays that path, so it runs only there (and needs AVX2's 64-bit integer ops).
var hasFMA = archsimd.X86.AVX2() && archsimd.X86.FMA()

// exp32 sets xs[i] to float32(math.Exp(float64(xs[i]))), bit for bit: four lanes run the same
// operations, in the same order and with the same roundings, as the assembly of math.Exp (its
// FMA path: the argument reduced by k·ln 2 in two parts, a degree-8 Taylor polynomial at x/16,
// squared four times, scaled by 2^k). Blocks with an argument outside [−700, 700], where math.Exp
// takes its overflow, underflow or subnormal branches, and the tail run math.Exp itself.
func exp32(xs []float32) {
	if !hasFMA {
		exp32Go(xs)
		return
	}
	const (
		log2e = 1.4426950408889634073599246810018920
		ln2u  = 0.69314718055966295651160180568695068359375
		ln2l  = 0.28235290563031577122588448175013436025525412068e-12
		magic = 1 << 52 // k + 1023 + 2^52 holds k + 1023 in its low mantissa bits
	)
	bc := archsimd.BroadcastFloat64x4
	lo, hi := bc(-700), bc(700)
	mLog2e, mLn2u, mLn2l, sixteenth := bc(log2e), bc(-ln2u), bc(-ln2l), bc(0.0625)
	var taylor [8]archsimd.Float64x4
	for i, c := range [8]float64{2.4801587301587301587e-5, 1.9841269841269841270e-4, 1.3888888888888888889e-3,
		8.3333333333333333333e-3, 4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0} {
		taylor[i] = bc(c)
	}
	one, two, bias := bc(1), bc(2), bc(1023+magic)
	magicBits := archsimd.BroadcastInt64x4(int64(math.Float64bits(magic)))
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		x := archsimd.LoadFloat32x4(xs[i : i+4]).ConvertToFloat64()
		if x.GreaterEqual(lo).And(x.LessEqual(hi)).ToBits() != 0b1111 {
			exp32Go(xs[i : i+4])
			continue
		}
		k := x.Mul(mLog2e).Round()
		r := k.MulAdd(mLn2u, x) // x − k·ln2u, one rounding, as VFNMADD231SD
		r = k.MulAdd(mLn2l, r).Mul(sixteenth)
		p := taylor[0]
		for _, c := range taylor[1:] {
			p = p.MulAdd(r, c)
		}
		r = r.Mul(p)
		for range 3 {
			r = r.Mul(r.Add(two))
		}
		r = r.Add(two).MulAdd(r, one)
		scale := k.Add(bias).AsInt64x4().Sub(magicBits).ShiftAllLeft(52).AsFloat64x4()
		r.Mul(scale).ConvertToFloat32().Store(xs[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	exp32Go(xs[i:])
}
