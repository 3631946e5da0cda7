package agentrl

import (
	"math"
	"slices"
	"testing"
)

func TestPassAtKMatchesTheBinomialCoefficients(t *testing.T) {
	for _, c := range []struct {
		n, c, k int
		want    float64
	}{
		{5, 2, 2, 0.7},           // 1 − C(3,2)/C(5,2) = 1 − 3/10
		{10, 4, 3, 1 - 20/120.0}, // 1 − C(6,3)/C(10,3) = 1 − 20/120
		{5, 2, 1, 0.4},           // pass@1 is c/n
		{5, 0, 3, 0},             // no success, no pass
		{5, 3, 3, 1},             // n − c = 2 < k = 3: every 3-subset holds a success
		{4, 4, 4, 1},
	} {
		if got := PassAtK(c.n, c.c, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("PassAtK(%d,%d,%d) = %v, want %v", c.n, c.c, c.k, got, c.want)
		}
	}
}

func TestPassHatKMatchesTheBinomialCoefficients(t *testing.T) {
	for _, c := range []struct {
		n, c, k int
		want    float64
	}{
		{5, 2, 2, 0.1},       // C(2,2)/C(5,2) = 1/10
		{5, 3, 2, 0.3},       // C(3,2)/C(5,2) = 3/10
		{10, 4, 3, 4 / 120.}, // C(4,3)/C(10,3) = 4/120
		{5, 2, 1, 0.4},       // pass^1 is c/n
		{5, 2, 3, 0},         // fewer successes than attempts
		{4, 4, 4, 1},
	} {
		if got := PassHatK(c.n, c.c, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("PassHatK(%d,%d,%d) = %v, want %v", c.n, c.c, c.k, got, c.want)
		}
	}
}

func TestPassAtKPanicsOnBadCounts(t *testing.T) {
	for _, c := range [][3]int{{5, 2, 6}, {5, 2, 0}, {5, 6, 1}, {5, -1, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("PassAtK(%d,%d,%d) did not panic", c[0], c[1], c[2])
				}
			}()
			PassAtK(c[0], c[1], c[2])
		}()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("PassHatK(%d,%d,%d) did not panic", c[0], c[1], c[2])
				}
			}()
			PassHatK(c[0], c[1], c[2])
		}()
	}
}

func TestWilsonByHand(t *testing.T) {
	// 8 of 10, z = 1.96: p̂ = 0.8, z² = 3.8416, z²/n = 0.38416, denominator 1.38416.
	// center = (0.8 + 0.19208)/1.38416 = 0.716738; half = 1.96·√(0.016 + 0.009604)/1.38416
	// = 1.96·0.160012/1.38416 = 0.226581; interval [0.490157, 0.943319].
	lo, hi := Wilson(8, 10, 1.96)
	if math.Abs(lo-0.4902) > 5e-5 || math.Abs(hi-0.9433) > 5e-5 {
		t.Errorf("Wilson(8,10,1.96) = [%.4f, %.4f], want [0.4902, 0.9433]", lo, hi)
	}
	// 0 of 10: the interval is [0, (z²/n)/(1+z²/n)] = [0, 0.38416/1.38416] = [0, 0.277540].
	lo, hi = Wilson(0, 10, 1.96)
	if lo != 0 || math.Abs(hi-0.277540) > 1e-6 {
		t.Errorf("Wilson(0,10,1.96) = [%v, %v], want [0, 0.277540]", lo, hi)
	}
	// 10 of 10 mirrors it.
	lo, hi = Wilson(10, 10, 1.96)
	if hi != 1 || math.Abs(lo-(1-0.277540)) > 1e-6 {
		t.Errorf("Wilson(10,10,1.96) = [%v, %v], want [0.722460, 1]", lo, hi)
	}
	if lo, hi = Wilson(0, 0, 1.96); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0,0) = [%v, %v], want [0, 1]", lo, hi)
	}
}

func TestBootstrapQuantiles(t *testing.T) {
	// Resamples of {0, 1} have mean 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4.
	// At level 0.9 the 5% and 95% quantiles are 0 and 1; at level 0.4 the 30% and 70%
	// quantiles both fall on 0.5.
	xs := []float64{0, 1}
	if lo, hi := Bootstrap(xs, Mean, 4000, 0.9, 1); lo != 0 || hi != 1 {
		t.Errorf("level 0.9: [%v, %v], want [0, 1]", lo, hi)
	}
	if lo, hi := Bootstrap(xs, Mean, 4000, 0.4, 1); lo != 0.5 || hi != 0.5 {
		t.Errorf("level 0.4: [%v, %v], want [0.5, 0.5]", lo, hi)
	}
	// The statistic is applied to each resample: the max of two draws from {0, 1} is 1 with
	// probability 3/4, so the 20% quantile is 0 and the 30% one is 1 (level 0.4 → 30%, 70%).
	if lo, hi := Bootstrap(xs, slices.Max[[]float64], 4000, 0.4, 1); lo != 1 || hi != 1 {
		t.Errorf("max at level 0.4: [%v, %v], want [1, 1]", lo, hi)
	}
	if lo, hi := Bootstrap([]float64{3, 3, 3}, Mean, 50, 0.95, 2); lo != 3 || hi != 3 {
		t.Errorf("constant values: [%v, %v], want [3, 3]", lo, hi)
	}
	// Same seed, same interval.
	a1, b1 := Bootstrap([]float64{0.1, 0.5, 0.9, 0.2}, Mean, 200, 0.95, 9)
	a2, b2 := Bootstrap([]float64{0.1, 0.5, 0.9, 0.2}, Mean, 200, 0.95, 9)
	if a1 != a2 || b1 != b2 {
		t.Errorf("not reproducible: [%v, %v] then [%v, %v]", a1, b1, a2, b2)
	}
}

func TestPairedTestExactPermutation(t *testing.T) {
	// Differences b − a = {0.5, −0.25, 1}, sum 1.25. The 8 sign patterns give sums
	// ±1.75, ±1.25, ±0.75, ±0.25; four of them have |sum| ≥ 1.25, so p = 4/8.
	p := PairedTest([]float64{0, 0.5, 0}, []float64{0.5, 0.25, 1}, 1000, 1)
	if p.N != 3 || math.Abs(p.Diff-1.25/3) > 1e-12 || p.P != 0.5 {
		t.Errorf("got %+v, want N 3, Diff 0.416667, P 0.5", p)
	}
	// Three tasks solved only by b and one tie: the tie has no sign to flip, and of the
	// 8 patterns of the three +1s only +++ and −−− reach |sum| 3, p = 2/8. Resampling the
	// differences {1, 1, 1, 0}: the mean is k/4 with k ~ Binomial(4, 3/4), P(k ≤ 0) = 1/256
	// and P(k ≤ 1) = 13/256 = 0.051, so the 2.5% quantile is 0.25 and the 97.5% one is 1.
	p = PairedTest([]float64{0, 0, 0, 1}, []float64{1, 1, 1, 1}, 20000, 3)
	if p.N != 4 || p.Diff != 0.75 || p.P != 0.25 || p.Lo != 0.25 || p.Hi != 1 {
		t.Errorf("got %+v, want N 4, Diff 0.75, P 0.25, [0.25, 1]", p)
	}
	// No difference at all: nothing is more extreme than nothing, p = 1.
	if p = PairedTest([]float64{1, 0}, []float64{1, 0}, 100, 1); p.P != 1 || p.Diff != 0 {
		t.Errorf("equal agents: %+v, want Diff 0, P 1", p)
	}
}

func TestPairedTestSampledPermutation(t *testing.T) {
	// 80 tasks, b better by 1 on the first 12 only: 2^12 > 1000 patterns, so P is sampled.
	// The exact p-value is P(|S| ≥ 12) for S a sum of 12 random signs = 2/4096 ≈ 0.0005,
	// and the sampled one is (1 + count)/(1 + reps), at least 1/1001.
	a, b := make([]float64, 80), make([]float64, 80)
	for i := range 12 {
		b[i] = 1
	}
	p := PairedTest(a, b, 1000, 5)
	if p.P < 1.0/1001 || p.P > 0.01 || p.Diff != 0.15 {
		t.Errorf("got %+v, want Diff 0.15 and P in [1/1001, 0.01]", p)
	}
	defer func() {
		if recover() == nil {
			t.Error("unequal lengths did not panic")
		}
	}()
	PairedTest(a, b[:3], 10, 1)
}

func TestMean(t *testing.T) {
	if got := Mean([]float64{1, 2, 6}); got != 3 {
		t.Errorf("Mean(1,2,6) = %v, want 3", got)
	}
	if got := Mean(nil); got != 0 {
		t.Errorf("Mean(nil) = %v, want 0", got)
	}
}
