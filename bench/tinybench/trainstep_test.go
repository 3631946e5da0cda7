package tinybench

import (
	"fmt"
	"testing"
)

// BenchmarkTrainStep times GoMLX's side of the bench's training step alone (no PyTorch), with and
// without the fastd pass, so that it can be profiled:
//
//	go test ./bench/tinybench -run '^$' -bench TrainStep -cpuprofile cpu.out
func BenchmarkTrainStep(b *testing.B) {
	for _, fast := range []bool{false, true} {
		for _, rows := range []int{32, 128} {
			b.Run(fmt.Sprintf("fast=%v/rows=%d", fast, rows), func(b *testing.B) { benchmarkTrainStep(b, rows, fast) })
		}
	}
}

func benchmarkTrainStep(b *testing.B, rows int, fast bool) {
	states, err := startStates(tasks, rows)
	if err != nil {
		b.Fatal(err)
	}
	bt, err := newBatch(states, 1, fast)
	if err != nil {
		b.Fatal(err)
	}
	side, err := bt.goSteps(1)
	if err != nil {
		b.Fatal(err)
	}
	defer side.close()
	if _, err := side.train(2); err != nil { // compiles the step
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := side.train(1); err != nil {
			b.Fatal(err)
		}
	}
}
