package model

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
)

// TestSummarise checks the statistics on differences worked out by hand.
func TestSummarise(t *testing.T) {
	got := summarise([]float64{0.3, 0.05, 0, 0.2})
	want := MismatchStats{Tokens: 4, Mean: 0.1375, P50: 0.05, P99: 0.3, Max: 0.3, Above01: 0.5, OutsideBand: 0.25}
	if got.Tokens != want.Tokens || math.Abs(got.Mean-want.Mean) > 1e-12 || got.P50 != want.P50 ||
		got.P99 != want.P99 || got.Max != want.Max || got.Above01 != want.Above01 || got.OutsideBand != want.OutsideBand {
		t.Errorf("summarise: %+v, want %+v", got, want)
	}
}

// TestMismatch measures a bf16 engine copy (autocast on) against the float32 model over more
// streams than one call scores: every token after each stream's first is counted, the
// statistics are ordered and nonzero, a model against itself shows none, and a stream without
// a token to predict is refused.
func TestMismatch(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 5, VocabSize: testVocab})
	engine, err := m.WithDType(dtypes.BFloat16)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.SetAutocast(dtypes.BFloat16); err != nil {
		t.Fatal(err)
	}
	streams := append(testStreams(), testStreams()...)
	streams = append(streams, []int{3, 9}) // 11 streams: two calls
	s, err := Mismatch(m, engine, streams)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", s)
	tokens := 0
	for _, st := range streams {
		tokens += len(st) - 1
	}
	if s.Tokens != tokens || !(0 < s.P50 && s.P50 <= s.P99 && s.P99 <= s.Max) || !(0 < s.Mean && s.Mean <= s.Max) ||
		s.Above01 < 0 || s.Above01 > 1 {
		t.Errorf("mismatch over %d tokens: %+v", tokens, s)
	}
	self, err := Mismatch(m, m, streams)
	if err != nil {
		t.Fatal(err)
	}
	if self.Max != 0 || self.Tokens != tokens {
		t.Errorf("a model against itself: %+v", self)
	}
	if _, err := Mismatch(m, engine, [][]int{{1, 2}, {7}}); err == nil {
		t.Error("a one-token stream was accepted")
	}
}
