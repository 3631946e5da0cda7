package tinybench

import (
	"reflect"
	"testing"

	"github.com/agenticrl/course/backend"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// BenchmarkTranspose is the case README's performance notes report for GoMLX's Go backend: two
// transposes of TinyAgent's training step, each timed beside the same bytes moved by another
// path of the backend. Run it with
//
//		go test ./bench/tinybench -run '^$' -bench Transpose
//
//	  - attention's backward pass transposes [B,H,T,S] scores to [B,H,S,T] (permutation
//	    [0 1 3 2]): the generic element-by-element path. As a [B·H, T, S, 1] tensor with
//	    permutation [0 2 1 3] it takes a fast path.
//	  - a weight gradient transposes the [rows, in] input of a dense layer: as a matrix
//	    (permutation [1 0]) it takes the backend's 2D path; as [B, T, in] (permutation [2 0 1])
//	    the generic one.
//
// Each pair must agree exactly; the benchmark reports each one's time.
func BenchmarkTranspose(b *testing.B) {
	be, err := backend.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		dims  []int
		a, b  func(x *graph.Node) *graph.Node
		aName string
		bName string
	}{
		{name: "scores [32 4 128 128]", dims: []int{32, 4, 128, 128},
			aName: "[0 1 3 2] generic", a: func(x *graph.Node) *graph.Node { return graph.TransposeAllAxes(x, 0, 1, 3, 2) },
			bName: "as [0 2 1 3]", b: func(x *graph.Node) *graph.Node {
				y := graph.TransposeAllAxes(graph.Reshape(x, 32*4, 128, 128, 1), 0, 2, 1, 3)
				return graph.Reshape(y, 32, 4, 128, 128)
			}},
		{name: "dense input [32 128 64]", dims: []int{32, 128, 64},
			aName: "[2 0 1] generic", a: func(x *graph.Node) *graph.Node {
				return graph.Reshape(graph.TransposeAllAxes(x, 2, 0, 1), 64, 32*128)
			},
			bName: "as 2D [1 0]", b: func(x *graph.Node) *graph.Node {
				return graph.TransposeAllAxes(graph.Reshape(x, 32*128, 64), 1, 0)
			}},
	} {
		n := 1
		for _, d := range c.dims {
			n *= d
		}
		data := make([]float32, n)
		for i := range data {
			data[i] = float32(i % 1013)
		}
		x := tensors.FromFlatDataAndDimensions(data, c.dims...)
		ea, eb := graph.MustNewExec(be, c.a), graph.MustNewExec(be, c.b)
		if !reflect.DeepEqual(ea.MustExec1(x).Value(), eb.MustExec1(x).Value()) {
			b.Fatalf("%s: the two transposes disagree", c.name)
		}
		for _, e := range []struct {
			name string
			exec *graph.Exec
		}{{c.aName, ea}, {c.bName, eb}} {
			b.Run(c.name+"/"+e.name, func(b *testing.B) {
				for b.Loop() {
					e.exec.MustExec1(x).FinalizeAll()
				}
			})
		}
	}
}
