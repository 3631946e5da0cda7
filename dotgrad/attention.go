package dotgrad

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
)

// Scores returns q·kᵀ for every index of the leading (batch) axes: q [..., T, D] and k [..., S, D]
// give [..., T, S], the value of graph.DotGeneral(q, {r−1}, batch, k, {r−1}, batch). Its gradient
// with respect to q is GoMLX's own. Its gradient with respect to k is GoMLX's product
// dS [..., T, S] · q [..., T, D] over T, whose operands the backend would transpose one element
// at a time to [..., S, T] and [..., D, T]; Scores hands it both already transposed by swap.
func Scores(q, k *graph.Node) *graph.Node {
	return scores("Scores", q, k, false)
}

// FastScores is Scores with k's gradient computed as (qᵀ·dS)ᵀ: the backend reads dS [..., T, S]
// as it is, contracting T right after the batch axes, and only q and the [..., D, S] result,
// both small, are transposed. The value and q's gradient are Scores' bit for bit; k's gradient
// sums the same terms in another order, so it equals Scores' up to float32 rounding.
func FastScores(q, k *graph.Node) *graph.Node {
	return scores("FastScores", q, k, true)
}

func scores(name string, q, k *graph.Node, fast bool) *graph.Node {
	r, batch := batchedShapes(name, q, k)
	return withSecondGradient(q, k, func(q, k *graph.Node) *graph.Node {
		return graph.DotGeneral(q, []int{r - 1}, batch, k, []int{r - 1}, batch)
	}, func(dy *graph.Node) *graph.Node {
		if fast {
			return swap(graph.DotGeneral(swap(q, r-2, r-1, r), []int{r - 1}, batch, dy, []int{r - 2}, batch), r-2, r-1, r)
		}
		return graph.DotGeneral(swap(dy, r-2, r-1, r), []int{r - 1}, batch, swap(q, r-2, r-1, r), []int{r - 1}, batch)
	})
}

// Mix returns p·v for every index of the leading (batch) axes: p [..., T, S] and v [..., S, D]
// give [..., T, D], the value of graph.DotGeneral(p, {r−1}, batch, v, {r−2}, batch). Its
// gradient with respect to p is GoMLX's own. Its gradient with respect to v is GoMLX's product
// dO [..., T, D] · p [..., T, S] over T, as [..., D, S] transposed to [..., S, D]; Mix makes the
// three transposes with swap.
func Mix(p, v *graph.Node) *graph.Node {
	return mix("Mix", p, v, false)
}

// FastMix is Mix with v's gradient computed as (dOᵀ·p)ᵀ: the backend reads p [..., T, S] as it
// is, and only dO and the [..., D, S] result, both small, are transposed. The value and p's
// gradient are Mix's bit for bit; v's gradient equals Mix's up to float32 rounding.
func FastMix(p, v *graph.Node) *graph.Node {
	return mix("FastMix", p, v, true)
}

func mix(name string, p, v *graph.Node, fast bool) *graph.Node {
	r, batch := batchedShapes(name, p, v)
	return withSecondGradient(p, v, func(p, v *graph.Node) *graph.Node {
		return graph.DotGeneral(p, []int{r - 1}, batch, v, []int{r - 2}, batch)
	}, func(dy *graph.Node) *graph.Node {
		// Local names: this closure runs once per gradient built over the graph, and p must stay p.
		pOp, pT := p, []int{r - 2} // p's axis T, read where it is
		if !fast {
			pOp, pT = swap(p, r-2, r-1, r), []int{r - 1}
		}
		return swap(graph.DotGeneral(swap(dy, r-2, r-1, r), []int{r - 1}, batch, pOp, pT, batch), r-2, r-1, r)
	})
}

// withSecondGradient returns product(a, b) with its gradient with respect to b replaced by
// grad(dy), dy being the gradient that reaches the product. Reverse-mode differentiation visits
// the product's output before its inputs, so dy is set when b's gradient is built.
func withSecondGradient(a, b *graph.Node, product func(a, b *graph.Node) *graph.Node, grad func(dy *graph.Node) *graph.Node) *graph.Node {
	var dy *graph.Node
	bGrad := graph.IdentityWithCustomGradient(b, func(_, builtin *graph.Node) *graph.Node {
		if dy == nil {
			return builtin
		}
		return grad(dy)
	})
	y := product(a, bGrad)
	return graph.IdentityWithCustomGradient(y, func(_, v *graph.Node) *graph.Node {
		dy = v
		return v
	})
}

// batchedShapes checks that a and b have the same rank r ≥ 3 and returns r and the batch axes
// 0 … r−3; the sizes of the other axes are DotGeneral's to check.
func batchedShapes(name string, a, b *graph.Node) (int, []int) {
	r := a.Rank()
	if r < 3 || b.Rank() != r {
		panic(fmt.Sprintf("dotgrad.%s: %s and %s: want two operands of the same rank ≥ 3", name, a.Shape(), b.Shape()))
	}
	batch := make([]int, r-2)
	for i := range batch {
		batch[i] = i
	}
	return r, batch
}
