package dotgrad

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agenticrl/course/backend"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// random is a tensor of the given dimensions with normal entries.
func random(rng *rand.Rand, dims ...int) *tensors.Tensor {
	n := 1
	for _, d := range dims {
		n *= d
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return tensors.FromFlatDataAndDimensions(v, dims...)
}

// valueAndGradients runs product(a, b) and the gradients of the loss Σ product·r with respect to
// a and b, flattened in that order.
func valueAndGradients(be compute.Backend, product func(a, b *graph.Node) *graph.Node, a, b, r *tensors.Tensor) [][]float32 {
	out := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
		y := product(in[0], in[1])
		loss := graph.ReduceAllSum(graph.Mul(y, in[2]))
		return append([]*graph.Node{y}, graph.Gradient(loss, in[0], in[1])...)
	}, a, b, r)
	var flat [][]float32
	for _, o := range out {
		flat = append(flat, tensors.MustCopyFlatData[float32](o))
	}
	return flat
}

// TestDenseMatchesDotGeneralBitForBit: Dense's value and both its gradients equal those of
// graph.DotGeneral to the bit, for a loss Σ y·r with random r, on TinyAgent's dense shapes
// (in < out, in > out, in = out), its output head, a rank-2 input and a tiny one.
func TestDenseMatchesDotGeneralBitForBit(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ x, w []int }{
		{[]int{32, 128, 64}, []int{64, 192}},
		{[]int{32, 128, 256}, []int{256, 64}},
		{[]int{8, 64, 64}, []int{64, 64}},  // below packedKernelWork: GoMLX's gradient
		{[]int{16, 64, 64}, []int{64, 64}}, // exactly packedKernelWork
		{[]int{32, 6, 64}, []int{64, 117}},
		{[]int{40, 64}, []int{64, 256}},
		{[]int{2, 3, 4}, []int{4, 5}},
	} {
		y := append(append([]int(nil), c.x[:len(c.x)-1]...), c.w[1])
		x, w, r := random(rng, c.x...), random(rng, c.w...), random(rng, y...)
		want := valueAndGradients(be, func(x, w *graph.Node) *graph.Node {
			return graph.DotGeneral(x, []int{x.Rank() - 1}, nil, w, []int{0}, nil)
		}, x, w, r)
		got := valueAndGradients(be, Dense, x, w, r)
		for k, name := range []string{"value", "gradient of x", "gradient of w"} {
			for i := range want[k] {
				if math.Float32bits(got[k][i]) != math.Float32bits(want[k][i]) {
					t.Fatalf("x %v, w %v: %s entry %d is %g, DotGeneral gives %g", c.x, c.w, name, i, got[k][i], want[k][i])
				}
			}
		}
	}
}

// TestDenseByHand: [[1 2] [3 4]]·[[1 0 1] [0 1 1]] = [[1 2 3] [3 4 7]]; under the loss Σ y the
// gradient of w is xᵀ·1 = [[4 4 4] [6 6 6]].
func TestDenseByHand(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	x := tensors.FromValue([][]float32{{1, 2}, {3, 4}})
	w := tensors.FromValue([][]float32{{1, 0, 1}, {0, 1, 1}})
	out := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
		y := Dense(in[0], in[1])
		return []*graph.Node{y, graph.Gradient(graph.ReduceAllSum(y), in[1])[0]}
	}, x, w)
	if got := out[0].Value().([][]float32); got[0][2] != 3 || got[1][0] != 3 || got[1][2] != 7 {
		t.Errorf("Dense = %v, want [[1 2 3] [3 4 7]]", got)
	}
	if got := out[1].Value().([][]float32); got[0][0] != 4 || got[0][2] != 4 || got[1][1] != 6 {
		t.Errorf("gradient of w = %v, want [[4 4 4] [6 6 6]]", got)
	}
}

// TestDenseRejectsBadRanks: a vector input is a programming error.
func TestDenseRejectsBadRanks(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewGraph(be, "bad ranks")
	x := graph.Parameter(g, "x", shapes.Make(dtypes.Float32, 2))
	w := graph.Parameter(g, "w", shapes.Make(dtypes.Float32, 2, 1))
	defer func() {
		if recover() == nil {
			t.Error("Dense of a vector: no panic")
		}
	}()
	Dense(x, w)
}
