package dotgrad

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
)

// swap exchanges two adjacent groups of x's axes, [i, j) and [j, k): for x [..., X..., Y..., ...]
// it returns [..., Y..., X..., ...]. It is graph.TransposeAllAxes with that permutation, run as
// the backend's fast four-axis transpose [0 2 1 3] of x viewed as [before, X, Y, after]
// (attention heads' transpose: it copies runs of the last axis) instead of its generic one,
// which moves one element at a time. A transpose only moves values, so the result is the same
// bit for bit either way.
func swap(x *graph.Node, i, j, k int) *graph.Node {
	dims := x.Shape().Dimensions
	if i < 0 || i >= j || j >= k || k > len(dims) {
		panic(fmt.Sprintf("dotgrad: swap of axes [%d,%d) and [%d,%d) of %s", i, j, j, k, x.Shape()))
	}
	prod := func(ds []int) int {
		n := 1
		for _, d := range ds {
			n *= d
		}
		return n
	}
	swapped := append(append(append(append([]int(nil), dims[:i]...), dims[j:k]...), dims[i:j]...), dims[k:]...)
	view := graph.Reshape(x, prod(dims[:i]), prod(dims[i:j]), prod(dims[j:k]), prod(dims[k:]))
	return graph.Reshape(graph.TransposeAllAxes(view, 0, 2, 1, 3), swapped...)
}
