package dotgrad

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/agenticrl/course/backend"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestAttentionProductsMatchDotGeneralBitForBit: Scores and Mix give graph.DotGeneral's value and
// both gradients to the bit (FastScores and FastMix: the second operand's gradient within 1e-5 of
// its scale), for a loss Σ y·r with random r, on TinyAgent's attention shapes
// (rows × heads × 128 × 128 scores of 16-wide heads), a prompt pass of odd sizes, and a rank-3
// (one batch axis) case.
func TestAttentionProductsMatchDotGeneralBitForBit(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		lead    []int
		t, s, d int
	}{
		{[]int{8, 4}, 128, 128, 16},
		{[]int{3, 2}, 37, 41, 16},
		{[]int{5}, 6, 9, 3},
	} {
		dims := func(a, b int) []int { return append(append([]int(nil), c.lead...), a, b) }
		r := len(c.lead) + 2
		batch := make([]int, r-2)
		for i := range batch {
			batch[i] = i
		}
		for _, p := range []struct {
			name       string
			a, b, y    []int
			got        func(a, b *graph.Node) *graph.Node
			bContracts int  // b's contracted axis in DotGeneral
			fast       bool // b's gradient sums in another order: equal up to rounding
		}{
			{"Scores", dims(c.t, c.d), dims(c.s, c.d), dims(c.t, c.s), Scores, r - 1, false},
			{"Mix", dims(c.t, c.s), dims(c.s, c.d), dims(c.t, c.d), Mix, r - 2, false},
			{"FastScores", dims(c.t, c.d), dims(c.s, c.d), dims(c.t, c.s), FastScores, r - 1, true},
			{"FastMix", dims(c.t, c.s), dims(c.s, c.d), dims(c.t, c.d), FastMix, r - 2, true},
		} {
			a, b, rt := random(rng, p.a...), random(rng, p.b...), random(rng, p.y...)
			want := valueAndGradients(be, func(a, b *graph.Node) *graph.Node {
				return graph.DotGeneral(a, []int{r - 1}, batch, b, []int{p.bContracts}, batch)
			}, a, b, rt)
			got := valueAndGradients(be, p.got, a, b, rt)
			for k, name := range []string{"value", "gradient of the first operand", "gradient of the second operand"} {
				if k == 2 && p.fast {
					scale, diff := 0.0, 0.0
					for i := range want[k] {
						scale = max(scale, math.Abs(float64(want[k][i])))
						diff = max(diff, math.Abs(float64(got[k][i]-want[k][i])))
					}
					if diff > 1e-5*scale || scale == 0 {
						t.Fatalf("%s %v×%v: %s differs from DotGeneral's by %g (scale %g)", p.name, p.a, p.b, name, diff, scale)
					}
					continue
				}
				for i := range want[k] {
					if math.Float32bits(got[k][i]) != math.Float32bits(want[k][i]) {
						t.Fatalf("%s %v×%v: %s entry %d is %g, DotGeneral gives %g", p.name, p.a, p.b, name, i, got[k][i], want[k][i])
					}
				}
			}
		}
	}
}

// TestSwapIsATranspose: swap of every pair of adjacent axis groups of a rank-4 tensor equals
// graph.TransposeAllAxes with the permutation that exchanges them.
func TestSwapIsATranspose(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	x := random(rand.New(rand.NewPCG(5, 6)), 2, 3, 4, 5)
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			for k := j + 1; k <= 4; k++ {
				perm := []int{}
				for a := 0; a < i; a++ {
					perm = append(perm, a)
				}
				for a := j; a < k; a++ {
					perm = append(perm, a)
				}
				for a := i; a < j; a++ {
					perm = append(perm, a)
				}
				for a := k; a < 4; a++ {
					perm = append(perm, a)
				}
				out := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
					return []*graph.Node{swap(in[0], i, j, k), graph.TransposeAllAxes(in[0], perm...)}
				}, x)
				if !reflect.DeepEqual(out[0].Value(), out[1].Value()) {
					t.Errorf("swap(x, %d, %d, %d) differs from TransposeAllAxes(x, %v)", i, j, k, perm)
				}
			}
		}
	}
}

// TestAttentionProductsByHand: with q = [[1 0] [0 1]] and k = [[1 2] [3 4]], q·kᵀ = [[1 3] [2 4]];
// under the loss Σ y the gradient of k is 1ᵀ·q, every row [1 1]. With p = [[1 0] [0.5 0.5]] and
// v = [[2 4] [6 8]], p·v = [[2 4] [4 6]], and the gradient of v is pᵀ·1 = [[1.5 1.5] [0.5 0.5]].
func TestAttentionProductsByHand(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	one := func(m [][]float32) *tensors.Tensor { return tensors.FromValue([][][]float32{m}) }
	check := func(name string, product func(a, b *graph.Node) *graph.Node, a, b *tensors.Tensor, wantY, wantGrad [][]float32) {
		out := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
			y := product(in[0], in[1])
			return []*graph.Node{y, graph.Gradient(graph.ReduceAllSum(y), in[1])[0]}
		}, a, b)
		if got := out[0].Value().([][][]float32)[0]; !reflect.DeepEqual(got, wantY) {
			t.Errorf("%s = %v, want %v", name, got, wantY)
		}
		if got := out[1].Value().([][][]float32)[0]; !reflect.DeepEqual(got, wantGrad) {
			t.Errorf("%s: gradient of its second operand = %v, want %v", name, got, wantGrad)
		}
	}
	check("Scores", Scores, one([][]float32{{1, 0}, {0, 1}}), one([][]float32{{1, 2}, {3, 4}}),
		[][]float32{{1, 3}, {2, 4}}, [][]float32{{1, 1}, {1, 1}})
	check("Mix", Mix, one([][]float32{{1, 0}, {0.5, 0.5}}), one([][]float32{{2, 4}, {6, 8}}),
		[][]float32{{2, 4}, {4, 6}}, [][]float32{{1.5, 1.5}, {0.5, 0.5}})
}

// TestAttentionProductsRejectBadRanks: matrices without a batch axis, or operands of different
// ranks, are programming errors.
func TestAttentionProductsRejectBadRanks(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	g := graph.NewGraph(be, "bad ranks")
	m := graph.Parameter(g, "m", shapes.Make(dtypes.Float32, 2, 2))
	b := graph.Parameter(g, "b", shapes.Make(dtypes.Float32, 1, 2, 2))
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Scores of matrices", func() { Scores(m, m) }},
		{"Mix of ranks 3 and 2", func() { Mix(b, m) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.f()
		}()
	}
}

// TestGradientBuiltTwice: a graph may differentiate the same loss twice (a trainer that logs its
// gradient's norm, then lets the optimizer build its own). Each product's second gradient must
// equal its first: the closures that build them must not change what they captured.
func TestGradientBuiltTwice(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	dense := func(x, w *graph.Node) *graph.Node { return Dense(x, w) }
	for _, p := range []struct {
		name    string
		a, b    []int
		product func(a, b *graph.Node) *graph.Node
	}{
		{"Scores", []int{4, 2, 64, 16}, []int{4, 2, 64, 16}, Scores},
		{"Mix", []int{4, 2, 64, 64}, []int{4, 2, 64, 16}, Mix},
		{"FastScores", []int{4, 2, 64, 16}, []int{4, 2, 64, 16}, FastScores},
		{"FastMix", []int{4, 2, 64, 64}, []int{4, 2, 64, 16}, FastMix},
		{"Dense", []int{32, 128, 64}, []int{64, 192}, dense},
	} {
		a, b := random(rng, p.a...), random(rng, p.b...)
		out := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
			loss := graph.ReduceAllSum(graph.Square(p.product(in[0], in[1])))
			first := graph.Gradient(loss, in[1])[0]
			return []*graph.Node{first, graph.Gradient(loss, in[1])[0]}
		}, a, b)
		first, second := tensors.MustCopyFlatData[float32](out[0]), tensors.MustCopyFlatData[float32](out[1])
		for i := range first {
			if math.Float32bits(first[i]) != math.Float32bits(second[i]) {
				t.Fatalf("%s: the second gradient's entry %d is %g, the first's %g", p.name, i, second[i], first[i])
			}
		}
	}
}
