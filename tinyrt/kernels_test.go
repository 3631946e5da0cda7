package tinyrt

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestKernelsMatchScalarBitForBit: the kernel the decoder runs (vector code where the machine has
// AVX-512 or AVX2) gives exactly the scalar code's float32 results, so a sampled token never
// depends on the machine's instruction set. On a machine with neither, both sides run the scalar
// code. The lengths cover every block size and tail; the strides, a dense layer's weights (stride
// = length), transposed keys (stride > length) and a head's values (stride > length).
func TestKernelsMatchScalarBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	lengths := []int{100, 192}
	for n := 1; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, extra := range []int{0, 5} {
			const terms = 37
			stride := n + extra
			x, rows, y := vec(terms), vec(terms*stride), vec(n)
			want := append([]float32(nil), y...)
			mulAccGo(want, x, rows, stride)
			mulAcc(y, x, rows, stride)
			for i := range y {
				if y[i] != want[i] {
					t.Fatalf("mulAcc n=%d stride=%d entry %d: %g, scalar %g", n, stride, i, y[i], want[i])
				}
			}
		}
	}
}

// TestMulAccSums checks the kernel against a hand-computed case: y = [1 2 3] plus 2·[1 0 1] plus
// 3·[0 1 0] (rows at stride 4, the fourth column unread) is [3 5 5].
func TestMulAccSums(t *testing.T) {
	y := []float32{1, 2, 3}
	mulAcc(y, []float32{2, 3}, []float32{1, 0, 1, 99, 0, 1, 0, 99}, 4)
	if y[0] != 3 || y[1] != 5 || y[2] != 5 {
		t.Fatalf("mulAcc = %v, want [3 5 5]", y)
	}
}

// TestExp32MatchesMathExpBitForBit: the vector exp gives float32(math.Exp(float64(x))) exactly,
// over the arguments softmax and SiLU produce, the edges of its range and the values it hands
// back to math.Exp (beyond ±700, infinities, NaN).
func TestExp32MatchesMathExpBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 1, -1, 0.5, -0.5, 88, -88, 89, -104, -700, 700,
		-700.5, 700.5, -745, 750, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32}
	for range 200000 {
		xs = append(xs, float32(rng.NormFloat64()*8), float32(-rng.ExpFloat64()*20), float32((rng.Float64()*2-1)*760))
	}
	xs = append(xs, 3, 4, 5) // a tail shorter than a vector
	got := slices.Clone(xs)
	exp32(got)
	for i, x := range xs {
		want := float32(math.Exp(float64(x)))
		if math.Float32bits(got[i]) != math.Float32bits(want) && !(want != want && got[i] != got[i]) {
			t.Fatalf("exp32(%g) = %g (%#x), math.Exp gives %g (%#x)", x, got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
		}
	}
}

// TestKernelsMatchScalarWithAVX512: the book hides AVX-512 from the Go runtime
// (GODEBUG=cpu.avx512f=off, see package backend), so under its settings the tests above run the
// AVX2 code. This runs them again in a child process whose GODEBUG lacks that setting, which takes
// the AVX-512 code where the CPU has it, so that code stays held to the scalar code too.
func TestKernelsMatchScalarWithAVX512(t *testing.T) {
	var kept []string
	hidden := false
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if kv == "cpu.avx512f=off" {
			hidden = true
		} else if kv != "" {
			kept = append(kept, kv)
		}
	}
	if !hidden {
		t.Skip("AVX-512 is not hidden: the tests above ran on what the CPU offers")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^(TestKernelsMatchScalarBitForBit|TestMulAccSums|TestExp32MatchesMathExpBitForBit)$", "-test.v")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GODEBUG="+strings.Join(kept, ","))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), "--- PASS") != 3 {
		t.Fatalf("the kernel tests with AVX-512 visible: %v\n%s", err, out)
	}
}
