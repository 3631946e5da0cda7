package sandbox

import (
	"fmt"
	"sync/atomic"
	"testing"
)

const benchModule = `def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
`

const benchTests = `from clamp import clamp


def check(got, want):
    assert got == want, "got %r, want %r" % (got, want)


def test_1():
    check(clamp(5, 0, 3), 3)


def test_2():
    check(clamp(-1, 0, 3), 0)


def test_3():
    check(clamp(2, 0, 3), 2)
`

// benchRequest returns distinct requests so that the memo never answers them.
func benchRequest(i int64) Request {
	return Request{Module: "clamp", Source: benchModule + fmt.Sprintf("\n# run %d\n", i), Tests: benchTests, TestsFile: "test_visible.py"}
}

func benchPool(b *testing.B) *Pool {
	p, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(p.Close)
	return p
}

// BenchmarkRun measures uncached runs, each in a process forked from a worker, one goroutine
// per worker.
func BenchmarkRun(b *testing.B) {
	p := benchPool(b)
	var n atomic.Int64
	b.SetParallelism(1)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, err := p.Run(benchRequest(n.Add(1)))
			if err != nil || !r.AllPassed() {
				b.Errorf("run: %v %+v", err, r)
				return
			}
		}
	})
}

// BenchmarkRunCached measures runs answered from the memo.
func BenchmarkRunCached(b *testing.B) {
	p := benchPool(b)
	req := benchRequest(0)
	if _, err := p.Run(req); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, err := p.Run(req)
			if err != nil || !r.Cached {
				b.Errorf("run: %v %+v", err, r)
				return
			}
		}
	})
}

// BenchmarkRunCold measures one newly started confined interpreter per run: the baseline.
func BenchmarkRunCold(b *testing.B) {
	p := benchPool(b)
	var n atomic.Int64
	b.SetParallelism(1)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, err := p.RunCold(benchRequest(n.Add(1)))
			if err != nil || !r.AllPassed() {
				b.Errorf("run: %v %+v", err, r)
				return
			}
		}
	})
}
