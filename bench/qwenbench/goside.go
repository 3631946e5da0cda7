package qwenbench

import (
	"fmt"
	"slices"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/bench/tinybench"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwenagent"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
)

// The update's settings on both sides: `agentrl train qwen3`'s learning rate for Qwen3-0.6B and
// the course's clip range.
const (
	LR   = 1e-6
	Clip = 0.2
)

// goSide is the Go model on the benchmark's backend.
type goSide struct {
	o   Options
	m   *model.Model
	rep *Report
}

func newGoSide(o Options, b compute.Backend, dir string, rep *Report) (*goSide, error) {
	start := time.Now()
	m, err := model.Load(dir, b)
	if err != nil {
		return nil, err
	}
	if err := goAutocast(m, o.Precision); err != nil {
		return nil, err
	}
	rep.setModel(m, b)
	o.progress("Go: loaded the model on %s in %.1f s", b.Description(), time.Since(start).Seconds())
	return &goSide{o: o, m: m, rep: rep}, nil
}

// goAutocast makes the Go model compute at precision where that is not plain float32: bf16
// runs every matrix product in bfloat16 over the float32 weights (Model.SetAutocast), as
// torch.autocast does on the PyTorch side.
func goAutocast(m *model.Model, precision string) error {
	if precision != "bf16" {
		return nil
	}
	return m.SetAutocast(dtypes.BFloat16)
}

// goGenerate draws group continuations of prompt, n tokens each, at temperature 1 with no stop
// token, with the batched decoder the lab's rollouts use (the rows decode together, the cache
// and the sampling stay on the backend), and returns how many tokens it drew.
func goGenerate(m *model.Model, prompt []int, group, n int, seed uint64) (int, error) {
	d, err := m.NewDecoder(group, len(prompt)+n)
	if err != nil {
		return 0, err
	}
	feed, seeds := make([][]int, group), make([]uint64, group)
	for i := range feed {
		feed[i], seeds[i] = prompt, seed+uint64(i)
	}
	gens, err := d.Generate(feed, model.GenerateOptions{MaxNew: n, Temperature: 1}, seeds)
	if err != nil {
		return 0, err
	}
	drawn := 0
	for _, g := range gens {
		drawn += len(g.Tokens)
	}
	return drawn, nil
}

// parityForward computes Go's log-probs of the batch once, for the parity check and as the
// update's old log-probs; it is also the forward part's first call.
func (g *goSide) parityForward(b *batch) error {
	g.o.progress("Go: forward of %d x %d tokens, first call (compiles)", g.o.Rows, g.o.Seq)
	start := time.Now()
	lp, err := g.m.BatchLogProbs(b.inputs(), b.targets())
	if err != nil {
		return fmt.Errorf("Go forward: %w", err)
	}
	b.goLogp = lp
	g.rep.Forward.Go = &Side{FirstS: time.Since(start).Seconds()}
	g.o.progress("Go: first forward took %.1f s", g.rep.Forward.Go.FirstS)
	return nil
}

// time times the three parts on the Go side.
func (g *goSide) time(b *batch) error {
	o := g.o
	fwd, err := timed(o.Warmup, o.Iters, func() error {
		_, err := g.m.BatchLogProbs(b.inputs(), b.targets())
		return err
	})
	if err != nil {
		return fmt.Errorf("Go forward: %w", err)
	}
	fwd.FirstS = g.rep.Forward.Go.FirstS // the parity call compiled it
	g.rep.Forward.Go = fwd
	g.o.progress("Go: forward median %.1f ms", fwd.MedianMS)
	if err := g.update(b); err != nil {
		return fmt.Errorf("Go update: %w", err)
	}
	prompt := b.ids[0][:o.Prompt]
	gen, err := timed(o.Warmup, o.Iters, func() error {
		drawn, err := goGenerate(g.m, prompt, o.Group, o.New, o.Seed)
		if err == nil && drawn != o.Group*o.New {
			err = fmt.Errorf("drew %d tokens, want %d", drawn, o.Group*o.New)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("Go generation: %w", err)
	}
	g.rep.Generate.Go = gen
	g.o.progress("Go: generation median %.1f ms, %d compiled decoder shapes", gen.MedianMS, g.m.DecodeCompilations())
	if o.Precision == "bf16" {
		return g.mismatch(b)
	}
	return nil
}

// mismatch measures, on the batch's tokens, how far a bf16 engine is from the float32 trainer
// on this architecture: an engine copy (weights rounded to bf16, activations stored in bf16,
// matrix products run in bf16) against the model with autocast off (Chapter 13's
// engine/trainer mismatch, there emulated on a tiny model).
func (g *goSide) mismatch(b *batch) error {
	start := time.Now()
	engine, err := g.m.WithDType(dtypes.BFloat16) // keeps the model's autocast: bf16 products
	if err != nil {
		return err
	}
	if err := g.m.SetAutocast(dtypes.Float32); err != nil {
		return err
	}
	s, err := model.Mismatch(g.m, engine, b.ids)
	if err != nil {
		return fmt.Errorf("Go mismatch: %w", err)
	}
	g.rep.Mismatch = &s
	g.o.progress("Go: bf16 engine against the float32 trainer over %d tokens: mean |Δ log p| %.2e, max %.3f (%.1f s)",
		s.Tokens, s.Mean, s.Max, time.Since(start).Seconds())
	return nil
}

// update times qwenagent.Trainer's step on the batch: each row's first Seq−Agent tokens are its
// prompt, the rest the agent's, recorded with Go's own log-probs.
func (g *goSide) update(b *batch) error {
	o := g.o
	tr, err := qwenagent.NewTrainer(g.m, qwenagent.TrainOptions{LR: LR, Clip: Clip})
	if err != nil {
		return err
	}
	cut := o.Seq - o.Agent
	trs := make([]agentrl.Trajectory, o.Rows)
	for i, row := range b.ids {
		trs[i] = agentrl.Trajectory{Segments: []agentrl.Segment{
			{Role: agentrl.RolePrompt, IDs: row[:cut]},
			{Role: agentrl.RoleAgent, IDs: row[cut:o.Seq], LogProbs: b.old(i, cut, o.Seq)},
		}}
	}
	var losses []float64
	side, err := timed(o.Warmup, o.Iters, func() error {
		s, err := tr.UpdateWith(trs, b.adv)
		losses = append(losses, s.Loss)
		return err
	})
	if err != nil {
		return err
	}
	g.rep.Update.Go, g.rep.FirstLoss.Go = side, losses[0]
	g.o.progress("Go: update median %.1f ms", side.MedianMS)
	return nil
}

// old is row i's recorded log-probs of its tokens cut..end−1: Go's forward log-probs, so that
// every ratio of the first update is 1 up to rounding.
func (b *batch) old(i, cut, end int) []float32 {
	return slices.Clone(b.goLogp[i][cut-1 : end-1])
}

// timed runs f warmup times untimed, then iters times timed. The first call of all, which
// compiles on XLA, is reported as FirstS.
func timed(warmup, iters int, f func() error) (*Side, error) {
	s := &Side{}
	for i := range warmup + iters {
		start := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		d := time.Since(start)
		if i == 0 {
			s.FirstS = d.Seconds()
		}
		if i >= warmup {
			s.RunsMS = append(s.RunsMS, d.Seconds()*1e3)
		}
	}
	s.MedianMS = tinybench.Median(s.RunsMS)
	return s, nil
}
