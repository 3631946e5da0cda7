package model

import (
	"fmt"
	"math"
	"slices"
)

// MismatchStats summarises the per-token |Δ log p| in nats between two models scoring the same
// tokens. P50 and P99 are nearest-rank percentiles.
type MismatchStats struct {
	Tokens              int     // tokens compared
	Mean, P50, P99, Max float64 // of |Δ log p|
	Above01             float64 // fraction of tokens with |Δ log p| > 0.1
	// OutsideBand is the fraction of tokens whose ratio π_engine/π_trainer lies outside
	// [0.8, 1.25], |Δ log p| > ln 1.25: Chapter 13's band, where PPO's clip starts to bind.
	OutsideBand float64
}

// mismatchRows is how many streams Mismatch scores per call: the full-vocabulary log-softmax
// holds [rows, length, vocab] float32s, 2.5 GB for 8 x 512 tokens of Qwen3's vocabulary.
const mismatchRows = 8

// Mismatch measures the engine/trainer mismatch: every token of every stream after its first is
// scored given the tokens before it by trainer (the float32 model the policy gradient is computed
// with) and by engine (the copy that sampled them, say a WithDType(BFloat16) copy with autocast
// on), and the differences of their log-probs are summarised. It is what off-policy corrections
// such as truncated importance sampling have to absorb, measured on the caller's own tokens.
func Mismatch(trainer, engine *Model, streams [][]int) (MismatchStats, error) {
	if len(streams) == 0 {
		return MismatchStats{}, fmt.Errorf("qwen3 mismatch: no streams")
	}
	if trainer.Config.VocabSize != engine.Config.VocabSize {
		return MismatchStats{}, fmt.Errorf("qwen3 mismatch: vocabularies of %d and %d tokens",
			trainer.Config.VocabSize, engine.Config.VocabSize)
	}
	var diffs []float64
	for start := 0; start < len(streams); start += mismatchRows {
		chunk := streams[start:min(start+mismatchRows, len(streams))]
		ids, targets := make([][]int, len(chunk)), make([][]int, len(chunk))
		for i, s := range chunk {
			if len(s) < 2 {
				return MismatchStats{}, fmt.Errorf("qwen3 mismatch: stream %d has %d tokens, want at least 2", start+i, len(s))
			}
			ids[i], targets[i] = s[:len(s)-1], s[1:]
		}
		want, err := trainer.BatchLogProbs(ids, targets)
		if err != nil {
			return MismatchStats{}, fmt.Errorf("qwen3 mismatch: trainer: %w", err)
		}
		got, err := engine.BatchLogProbs(ids, targets)
		if err != nil {
			return MismatchStats{}, fmt.Errorf("qwen3 mismatch: engine: %w", err)
		}
		for b := range want {
			for t := range want[b] {
				diffs = append(diffs, math.Abs(float64(got[b][t])-float64(want[b][t])))
			}
		}
	}
	return summarise(diffs), nil
}

// summarise computes MismatchStats of some non-negative differences (sorting them in place).
func summarise(diffs []float64) MismatchStats {
	slices.Sort(diffs)
	n := len(diffs)
	rank := func(p float64) float64 { return diffs[max(0, int(math.Ceil(p*float64(n)))-1)] }
	s := MismatchStats{Tokens: n, P50: rank(0.5), P99: rank(0.99), Max: diffs[n-1]}
	above, outside, band := 0, 0, math.Log(1.25)
	for _, d := range diffs {
		s.Mean += d / float64(n)
		if d > 0.1 {
			above++
		}
		if d > band {
			outside++
		}
	}
	s.Above01, s.OutsideBand = float64(above)/float64(n), float64(outside)/float64(n)
	return s
}
