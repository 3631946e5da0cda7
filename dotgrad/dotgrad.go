package dotgrad

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
)

// packedKernelWork is the size (multiply-adds, M·N·K) from which GoMLX's Go backend runs a
// float32 matrix product on its packed kernel, which packs either operand layout into the same
// panels and sums in the same order (compute v0.1.14, dot/matmul: SmallMatMulSizeThreshold).
// Smaller products run kernels whose order of summation depends on the layout, so there Dense
// keeps GoMLX's own gradient, and the gradient stays the same bit for bit either way.
const packedKernelWork = 4 << 20

// Dense returns x·w over x's last axis: x [..., in] and w [in, out] give [..., out], the value of
// graph.DotGeneral(x, {rank−1}, nil, w, {0}, nil). Its gradient with respect to x is GoMLX's own;
// its gradient with respect to w is built from the gradient that reaches the product, with one
// large transpose instead of two (see the package doc).
func Dense(x, w *graph.Node) *graph.Node {
	r := x.Rank()
	if r < 2 || w.Rank() != 2 {
		panic(fmt.Sprintf("dotgrad.Dense: x %s and w %s: want x of rank ≥ 2 and w of rank 2", x.Shape(), w.Shape()))
	}
	lead := make([]int, r-1) // x's and dy's leading axes, contracted by the weight gradient
	for i := range lead {
		lead[i] = i
	}
	trailing := make([]int, r-1) // the leading axes once the last one is in front
	for i := range trailing {
		trailing[i] = i + 1
	}
	// dy is the gradient that reaches the product. Reverse-mode differentiation visits the
	// product's output before the product's inputs, so dy is set when w's gradient is built.
	in, out := w.Shape().Dimensions[0], w.Shape().Dimensions[1]
	rows := x.Shape().Size() / in
	var dy *graph.Node
	wGrad := graph.IdentityWithCustomGradient(w, func(_, builtin *graph.Node) *graph.Node {
		if dy == nil || in*out*rows < packedKernelWork {
			return builtin
		}
		if in <= out { // transpose x: [in, ...]·[..., out] = [in, out]
			return graph.DotGeneral(swap(x, 0, r-1, r), trailing, nil, dy, lead, nil)
		}
		// transpose dy: [out, ...]·[..., in] = [out, in], then the small transpose to [in, out]
		return graph.TransposeAllAxes(graph.DotGeneral(swap(dy, 0, r-1, r), trailing, nil, x, lead, nil), 1, 0)
	})
	y := graph.DotGeneral(x, []int{r - 1}, nil, wGrad, []int{0}, nil)
	return graph.IdentityWithCustomGradient(y, func(_, v *graph.Node) *graph.Node {
		dy = v
		return v
	})
}
