package model

import (
	"math"
	"slices"
	"testing"
)

// TestGenerateCacheMatchesNoCache is the key/value cache's correctness check: decoding with the
// cache must give the same tokens as recomputing the whole sequence at every step, with
// log-probabilities equal up to float32 rounding.
func TestGenerateCacheMatchesNoCache(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 11, VocabSize: testVocab})
	short := []int{3, 141, 59, 26, 5, 358, 97, 93, 238}         // prefill padded to 16
	long := append(slices.Clone(short), 1, 2, 3, 4, 5, 6, 7, 8) // 17 tokens: prefill padded to 32
	tests := []struct {
		name   string
		prompt []int
		o      GenerateOptions
	}{
		// 9 + 23 tokens fill the 32-slot cache exactly: every slot, padding included, is reused.
		{"greedy", short, GenerateOptions{MaxNew: 23}},
		{"sampled", short, GenerateOptions{MaxNew: 23, Temperature: 1, Seed: 5}},
		{"sampled top-k top-p", short, GenerateOptions{MaxNew: 23, Temperature: 0.7, TopK: 40, TopP: 0.9, Seed: 6}},
		{"long prompt sampled", long, GenerateOptions{MaxNew: 20, Temperature: 1, Seed: 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prompt := tc.prompt
			cached, err := m.Generate(prompt, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			tc.o.NoCache = true
			plain, err := m.Generate(prompt, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cached.Tokens, plain.Tokens) {
				t.Fatalf("tokens differ:\ncache    %v\nno cache %v", cached.Tokens, plain.Tokens)
			}
			if len(cached.Tokens) != tc.o.MaxNew {
				t.Errorf("generated %d tokens, want %d", len(cached.Tokens), tc.o.MaxNew)
			}
			worst := 0.0
			for i := range cached.LogProbs {
				worst = max(worst, math.Abs(float64(cached.LogProbs[i]-plain.LogProbs[i])),
					math.Abs(float64(cached.SampleLogProbs[i]-plain.SampleLogProbs[i])))
			}
			t.Logf("max |log-prob difference| cache vs no cache: %.2g", worst)
			if worst > 1e-4 {
				t.Errorf("log-probs differ by %.2g", worst)
			}
		})
	}
}

// TestGenerationLogProbsMatchScoring checks that the log-probabilities reported while generating
// are the ones scoring the finished sequence gives: what an inference engine reports and what a
// trainer recomputes agree when both run the same float32 model at temperature 1.
func TestGenerationLogProbsMatchScoring(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 12, VocabSize: testVocab, Tied: true})
	prompt := []int{10, 20, 30}
	gen, err := m.Generate(prompt, GenerateOptions{MaxNew: 12, Temperature: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	seq := append(slices.Clone(prompt), gen.Tokens...)
	scored, err := m.LogProbs(seq[:len(seq)-1], seq[1:])
	if err != nil {
		t.Fatal(err)
	}
	for i, lp := range gen.LogProbs {
		if d := math.Abs(float64(lp - scored[len(prompt)-1+i])); d > 1e-4 {
			t.Errorf("token %d: generated with log-prob %g, scored %g", i, lp, scored[len(prompt)-1+i])
		}
		// At temperature 1 without truncation the sampling distribution is the model's.
		if d := math.Abs(float64(lp - gen.SampleLogProbs[i])); d > 1e-5 {
			t.Errorf("token %d: model log-prob %g, sampling log-prob %g", i, lp, gen.SampleLogProbs[i])
		}
	}
}

func TestGenerateGreedyAndSeeds(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 13, VocabSize: testVocab})
	prompt := []int{7, 8, 9, 10}
	greedy, err := m.Generate(prompt, GenerateOptions{MaxNew: 6})
	if err != nil {
		t.Fatal(err)
	}
	// Greedy picks the argmax of the logits after the prompt, with sampling log-prob 0.
	rows, err := m.Logits(prompt)
	if err != nil {
		t.Fatal(err)
	}
	last := rows[len(rows)-1]
	if argmax := slices.Index(last, slices.Max(last)); greedy.Tokens[0] != argmax {
		t.Errorf("first greedy token %d, argmax %d", greedy.Tokens[0], argmax)
	}
	for i, lp := range greedy.SampleLogProbs {
		if lp != 0 {
			t.Errorf("greedy token %d: sampling log-prob %g, want 0", i, lp)
		}
	}

	sample := func(seed uint64) []int {
		g, err := m.Generate(prompt, GenerateOptions{MaxNew: 16, Temperature: 1.5, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return g.Tokens
	}
	if a, b := sample(1), sample(1); !slices.Equal(a, b) {
		t.Errorf("seed 1 gave %v, then %v", a, b)
	}
	if a, b := sample(1), sample(2); slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 gave the same 16 tokens %v", a)
	}

	stop := greedy.Tokens[2]
	stopped, err := m.Generate(prompt, GenerateOptions{MaxNew: 6, StopIDs: []int{stop}})
	if err != nil {
		t.Fatal(err)
	}
	want := greedy.Tokens[:slices.Index(greedy.Tokens, stop)+1]
	if !stopped.Stopped || !slices.Equal(stopped.Tokens, want) {
		t.Errorf("with stop id %d: %v (stopped=%v), want %v", stop, stopped.Tokens, stopped.Stopped, want)
	}
}

// TestGenerateGroupRowsMatchGenerate checks batched decoding: row i of a group must be what
// Generate gives alone with seed Seed+i, also when some rows stop early and ride along.
func TestGenerateGroupRowsMatchGenerate(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 14, VocabSize: testVocab})
	prompt := []int{9, 99, 199, 299, 399}
	o := GenerateOptions{MaxNew: 12, Temperature: 1.2, TopK: 100, Seed: 20}
	// Stop on a token one of the rows emits midway, so rows finish at different steps.
	probe, err := m.Generate(prompt, GenerateOptions{MaxNew: 12, Temperature: 1.2, TopK: 100, Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	o.StopIDs = []int{probe.Tokens[5]}
	const n = 5
	group, err := m.GenerateGroup(prompt, n, o)
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for i, g := range group {
		alone := o
		alone.Seed = o.Seed + uint64(i)
		want, err := m.Generate(prompt, alone)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Tokens, want.Tokens) || g.Stopped != want.Stopped {
			t.Errorf("row %d: %v (stopped=%v), alone %v (stopped=%v)", i, g.Tokens, g.Stopped, want.Tokens, want.Stopped)
			continue
		}
		for j := range g.LogProbs {
			if d := math.Abs(float64(g.LogProbs[j] - want.LogProbs[j])); d > 1e-4 {
				t.Errorf("row %d token %d: log-prob %g in the group, %g alone", i, j, g.LogProbs[j], want.LogProbs[j])
			}
		}
		if g.Stopped {
			stopped++
		}
	}
	if stopped == 0 || stopped == n {
		t.Errorf("%d of %d rows stopped early: the test needs some of each", stopped, n)
	}
}
