package gym

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agenticrl/course/gym/sandbox"
)

// BenchResult is the throughput of one way of running visible tests.
type BenchResult struct {
	Name       string // "cold", "fresh" or "cached"
	Runs       int64
	Seconds    float64
	RunsPerSec float64
}

// Bench measures how fast the visible tests of tasks run, for about d per mode, with one
// goroutine per worker of pool:
//
//	cold:   a newly started confined interpreter per run (what starting Python per run costs)
//	fresh:  a process forked from a pristine worker per run, as every run is; never memoized,
//	        and each run's module differs, so nothing is reused
//	cached: the same runs answered from the memo
func Bench(pool *sandbox.Pool, tasks []*Task, d time.Duration) ([]BenchResult, error) {
	if len(tasks) == 0 {
		return nil, fmt.Errorf("gym: no tasks to bench")
	}
	req := func(i int64) sandbox.Request {
		t := tasks[int(i)%len(tasks)]
		// A trailing comment makes every module distinct, so that the memo cannot answer it.
		return sandbox.Request{Module: t.Module, Source: t.Buggy + fmt.Sprintf("# run %d\n", i), Tests: t.VisibleTests, TestsFile: VisibleTestFile, NoCache: true}
	}
	measure := func(name string, run func(i int64) (*sandbox.Result, error)) (BenchResult, error) {
		var n atomic.Int64
		var firstErr error
		var once sync.Once
		start := time.Now()
		var wg sync.WaitGroup
		for range pool.Workers() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Since(start) < d {
					i := n.Add(1)
					r, err := run(i)
					if err == nil && r.Status != sandbox.StatusOK {
						err = fmt.Errorf("run %d: %s: %s", i, r.Status, r.Error)
					}
					if err != nil {
						once.Do(func() { firstErr = err })
						return
					}
				}
			}()
		}
		wg.Wait()
		secs := time.Since(start).Seconds()
		return BenchResult{Name: name, Runs: n.Load(), Seconds: secs, RunsPerSec: float64(n.Load()) / secs}, firstErr
	}
	cold, err := measure("cold", func(i int64) (*sandbox.Result, error) { return pool.RunCold(req(i)) })
	if err != nil {
		return nil, err
	}
	fresh, err := measure("fresh", func(i int64) (*sandbox.Result, error) { return pool.Run(req(i)) })
	if err != nil {
		return nil, err
	}
	// Memoize a set of runs first, then time answering them again.
	const distinct = 256
	for i := int64(0); i < distinct; i++ {
		r := req(i)
		r.NoCache = false
		if _, err := pool.Run(r); err != nil {
			return nil, err
		}
	}
	cached, err := measure("cached", func(i int64) (*sandbox.Result, error) {
		r := req(i % distinct)
		r.NoCache = false
		return pool.Run(r)
	})
	if err != nil {
		return nil, err
	}
	return []BenchResult{cold, fresh, cached}, nil
}
