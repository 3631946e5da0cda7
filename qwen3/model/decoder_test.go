package model

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// decode runs one Generate call and fails the test on error.
func decode(t *testing.T, d *Decoder, feed [][]int, o GenerateOptions, seeds []uint64) []Generation {
	t.Helper()
	gens, err := d.Generate(feed, o, seeds)
	if err != nil {
		t.Fatal(err)
	}
	return gens
}

// TestDecoderLogProbsMatchScoring feeds three rows of different lengths in three calls (prompts,
// then "tool responses" to some rows while others stay idle) and checks every row against the
// stream it should hold and every sampled token's log-probability against scoring the finished
// stream with LogProbs: per-row positions, the cache writes of rows at different offsets and the
// pending sampled token must all be right for these to agree.
func TestDecoderLogProbsMatchScoring(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 21, VocabSize: testVocab})
	d, err := m.NewDecoder(3, 40)
	if err != nil {
		t.Fatal(err)
	}
	if d.Capacity() != 64 || d.Rows() != 3 {
		t.Errorf("capacity %d for 40 asked, %d rows", d.Capacity(), d.Rows())
	}
	o := GenerateOptions{MaxNew: 6, Temperature: 1}
	calls := [][][]int{
		{{5, 6, 7}, {11, 12, 13, 14, 15, 16, 17, 18, 19}, {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116}},
		{{40, 41}, nil, {50, 51, 52, 53, 54, 55, 56, 57, 58}},
		{nil, {60, 61, 62, 63}, {70}},
	}
	want := make([][]int, 3)    // each row's stream, built here independently
	sampled := make([][]int, 3) // the positions of its sampled tokens
	lps := make([][]float32, 3)
	for c, feed := range calls {
		gens := decode(t, d, feed, o, []uint64{uint64(10 * c), uint64(10*c + 1), uint64(10*c + 2)})
		for i, g := range gens {
			if len(feed[i]) == 0 {
				if len(g.Tokens) != 0 {
					t.Errorf("call %d: idle row %d generated %v", c, i, g.Tokens)
				}
				continue
			}
			want[i] = append(want[i], feed[i]...)
			for j, tok := range g.Tokens {
				sampled[i] = append(sampled[i], len(want[i]))
				want[i] = append(want[i], tok)
				if g.SampleLogProbs[j] != g.LogProbs[j] {
					t.Errorf("temperature 1: sampling log-prob %g, model log-prob %g", g.SampleLogProbs[j], g.LogProbs[j])
				}
			}
			lps[i] = append(lps[i], g.LogProbs...)
		}
	}
	worst := 0.0
	for i := range want {
		if got := d.Tokens(i); !slices.Equal(got, want[i]) {
			t.Fatalf("row %d holds %v, want %v", i, got, want[i])
		}
		scored, err := m.LogProbs(want[i][:len(want[i])-1], want[i][1:])
		if err != nil {
			t.Fatal(err)
		}
		for j, at := range sampled[i] {
			worst = max(worst, math.Abs(float64(lps[i][j]-scored[at-1])))
		}
	}
	t.Logf("max |decoder log-prob - LogProbs|: %.2g", worst)
	if worst > 1e-5 {
		t.Errorf("decoder log-probs differ from scoring by %.2g", worst)
	}
}

// TestDecoderGreedyMatchesGenerate decodes prompts of different lengths greedily in one batch:
// each row must be what Generate gives for its prompt alone.
func TestDecoderGreedyMatchesGenerate(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 22, VocabSize: testVocab})
	prompts := [][]int{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {300}, {42, 43, 44, 45}}
	d, err := m.NewDecoder(len(prompts), 32)
	if err != nil {
		t.Fatal(err)
	}
	o := GenerateOptions{MaxNew: 10}
	gens := decode(t, d, prompts, o, make([]uint64, len(prompts)))
	for i, p := range prompts {
		want, err := m.Generate(p, o)
		if err != nil {
			t.Fatal(err)
		}
		g := gens[i]
		if !slices.Equal(g.Tokens, want.Tokens) {
			t.Errorf("row %d: %v, Generate %v", i, g.Tokens, want.Tokens)
			continue
		}
		for j := range g.Tokens {
			if d := math.Abs(float64(g.LogProbs[j] - want.LogProbs[j])); d > 1e-5 || g.SampleLogProbs[j] != 0 {
				t.Errorf("row %d token %d: log-prob %g (Generate %g), sampling log-prob %g", i, j, g.LogProbs[j], want.LogProbs[j], g.SampleLogProbs[j])
			}
		}
	}
}

// TestDecoderSamplesTheTemperedDistribution draws the first token after one prompt in 2048 rows
// with different seeds and compares each token's frequency with softmax(logits / T) computed
// here from Logits, within 4.5 binomial standard deviations; each token's sampling log-prob must
// be the log of that probability and its model log-prob the temperature-1 one, up to float32
// rounding. A vocabulary of 1300 takes cumSum's two levels, a last block padded.
func TestDecoderSamplesTheTemperedDistribution(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 23, VocabSize: 1300})
	prompt := []int{9, 8, 7, 6, 5}
	const temp, n = 0.6, 2048
	rows, err := m.Logits(prompt)
	if err != nil {
		t.Fatal(err)
	}
	logits := rows[len(rows)-1]
	logProbs := func(temp float64) []float64 {
		lmax := float64(slices.Max(logits))
		lse := 0.0
		for _, z := range logits {
			lse += math.Exp((float64(z) - lmax) / temp)
		}
		out := make([]float64, len(logits))
		for i, z := range logits {
			out[i] = (float64(z)-lmax)/temp - math.Log(lse)
		}
		return out
	}
	tempered, model := logProbs(temp), logProbs(1)
	d, err := m.NewDecoder(n, 8)
	if err != nil {
		t.Fatal(err)
	}
	feed, seeds := make([][]int, n), make([]uint64, n)
	for i := range feed {
		feed[i], seeds[i] = prompt, uint64(1000+i)
	}
	counts := make([]int, len(logits))
	for _, g := range decode(t, d, feed, GenerateOptions{MaxNew: 1, Temperature: temp}, seeds) {
		tok := g.Tokens[0]
		counts[tok]++
		// float32 arithmetic on the backend, float64 here: a relative error of a few ulps.
		near := func(got float32, want float64) bool { return math.Abs(float64(got)-want) <= 1e-5+4e-6*math.Abs(want) }
		if !near(g.SampleLogProbs[0], tempered[tok]) || !near(g.LogProbs[0], model[tok]) {
			t.Fatalf("token %d: sampling log-prob %g, want %g; model log-prob %g, want %g",
				tok, g.SampleLogProbs[0], tempered[tok], g.LogProbs[0], model[tok])
		}
	}
	// How far the frequencies stand from a distribution, in binomial standard deviations.
	worst := func(lp []float64) float64 {
		w := 0.0
		for tok, c := range counts {
			p := math.Exp(lp[tok])
			w = max(w, math.Abs(float64(c)/n-p)/math.Sqrt(max(p*(1-p), 1.0/n)/n))
		}
		return w
	}
	t.Logf("largest deviation: %.2f sd from softmax(logits/%g), %.2f sd from softmax(logits)", worst(tempered), temp, worst(model))
	if w := worst(tempered); w > 4.5 {
		t.Errorf("a token's frequency is %.2f standard deviations from its probability", w)
	}
	if worst(model) <= 4.5 {
		t.Error("the sample does not tell temperature 0.6 from 1: the test has no power")
	}
}

// TestDecoderGrowth starts a decoder whose cache is too small for its second call, which must
// rebuild it (capacity 8 -> 32) and give the tokens a large enough cache gives. It also counts
// the step shapes compiled, by hand: [rows, width, capacity] = [2,8,8] and [2,1,8] for the first
// call; [2,8,32] for the rebuild and the second feed, [2,1,32] after; [2,8,64] and [2,1,64] for
// the large decoder.
func TestDecoderGrowth(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 24, VocabSize: testVocab})
	o := GenerateOptions{MaxNew: 4, Temperature: 1.3}
	run := func(capacity int) (*Decoder, [][]Generation) {
		d, err := m.NewDecoder(2, capacity)
		if err != nil {
			t.Fatal(err)
		}
		first := decode(t, d, [][]int{{1, 2, 3, 4}, {5, 6, 7}}, o, []uint64{1, 2})
		o := o
		o.MaxNew = 6
		second := decode(t, d, [][]int{{8, 9, 10, 11, 12}, {13, 14}}, o, []uint64{3, 4})
		return d, [][]Generation{first, second}
	}
	small, got := run(8)
	large, want := run(64)
	if small.Capacity() != 32 || large.Capacity() != 64 {
		t.Errorf("capacities %d and %d, want 32 and 64", small.Capacity(), large.Capacity())
	}
	for c := range want {
		for i := range want[c] {
			g, w := got[c][i], want[c][i]
			if !slices.Equal(g.Tokens, w.Tokens) {
				t.Fatalf("call %d row %d: %v after growing, %v without", c, i, g.Tokens, w.Tokens)
			}
			for j := range g.LogProbs {
				if d := math.Abs(float64(g.LogProbs[j] - w.LogProbs[j])); d > 1e-5 {
					t.Errorf("call %d row %d token %d: log-prob %g after growing, %g without", c, i, j, g.LogProbs[j], w.LogProbs[j])
				}
			}
		}
	}
	if n := m.DecodeCompilations(); n != 6 {
		t.Errorf("%d step shapes compiled, want 6", n)
	}
}

// TestDecoderRefusals checks the errors of bad arguments.
func TestDecoderRefusals(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 25, VocabSize: testVocab})
	d, err := m.NewDecoder(2, 16)
	if err != nil {
		t.Fatal(err)
	}
	feed, seeds := [][]int{{1, 2}, nil}, []uint64{1, 2}
	tests := []struct {
		name, wantErr string
		feed          [][]int
		o             GenerateOptions
		seeds         []uint64
	}{
		{"top-k", "GenerateGroup", feed, GenerateOptions{MaxNew: 2, Temperature: 1, TopK: 5}, seeds},
		{"top-p", "GenerateGroup", feed, GenerateOptions{MaxNew: 2, Temperature: 1, TopP: 0.9}, seeds},
		{"id outside the vocabulary", "feed[1][0] = 512 is outside the vocabulary", [][]int{{1}, {testVocab}}, GenerateOptions{MaxNew: 2}, seeds},
		{"one seed for two rows", "2 rows", feed, GenerateOptions{MaxNew: 2}, seeds[:1]},
		{"no MaxNew", "MaxNew", feed, GenerateOptions{}, seeds},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := d.Generate(tc.feed, tc.o, tc.seeds)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
	if _, err := m.NewDecoder(0, 8); err == nil {
		t.Error("a decoder of 0 rows: no error")
	}
}
