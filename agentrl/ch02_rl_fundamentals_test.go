package agentrl

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Hand-computed returns: each case's G_t were worked out on paper from G_t = Σ_k γ^k r_{t+k}.
var returnCases = []struct {
	name    string
	rewards []float64
	gamma   float64
	want    []float64 // G_t for every t; want[0] is the episode's return
}{
	{"empty episode", nil, 0.9, []float64{}},
	{"one step", []float64{2.5}, 0.3, []float64{2.5}},
	{"undiscounted sum", []float64{1, 1, 1, 1}, 1, []float64{4, 3, 2, 1}},
	{"halving", []float64{1, 2, 3}, 0.5, []float64{2.75, 3.5, 3}},
	{"sparse terminal reward", []float64{0, 0, 1}, 0.9, []float64{0.81, 0.9, 1}},
	{"myopic", []float64{1, -1, 2}, 0, []float64{1, -1, 2}},
	{"step costs", []float64{-0.1, -0.1, -0.1, -0.1, 1}, 0.5, []float64{-0.125, -0.05, 0.1, 0.4, 1}},
}

func TestDiscountedReturn(t *testing.T) {
	for _, c := range returnCases {
		want := 0.0
		if len(c.want) > 0 {
			want = c.want[0]
		}
		if got := DiscountedReturn(c.rewards, c.gamma); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: DiscountedReturn(%v, %v) = %v, want %v", c.name, c.rewards, c.gamma, got, want)
		}
	}
}

func TestReturnsToGo(t *testing.T) {
	for _, c := range returnCases {
		in := slices.Clone(c.rewards)
		got := ReturnsToGo(c.rewards, c.gamma)
		if len(got) != len(c.want) {
			t.Errorf("%s: ReturnsToGo gave %d returns for %d rewards", c.name, len(got), len(c.rewards))
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s: ReturnsToGo(%v, %v) = %v, want %v", c.name, c.rewards, c.gamma, got, c.want)
				break
			}
		}
		if !slices.Equal(in, c.rewards) {
			t.Errorf("%s: ReturnsToGo changed its input to %v", c.name, c.rewards)
		}
	}
}

// On random episodes the backward pass must agree with the definition summed directly for every
// t, satisfy the recursion, and start with DiscountedReturn.
func TestReturnsToGoMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	for trial := range 50 {
		rewards := make([]float64, 1+rng.IntN(40))
		for i := range rewards {
			rewards[i] = rng.NormFloat64()
		}
		gamma := []float64{0, 0.5, 0.9, 0.99, 1}[trial%5]
		got := ReturnsToGo(rewards, gamma)
		for i := range rewards {
			direct := 0.0
			for k := i; k < len(rewards); k++ {
				direct += math.Pow(gamma, float64(k-i)) * rewards[k]
			}
			if math.Abs(got[i]-direct) > 1e-9 {
				t.Fatalf("trial %d, γ = %v: G_%d = %v, direct sum %v", trial, gamma, i, got[i], direct)
			}
			next := 0.0
			if i+1 < len(rewards) {
				next = got[i+1]
			}
			if math.Abs(got[i]-(rewards[i]+gamma*next)) > 1e-12 {
				t.Fatalf("trial %d: G_%d ≠ r_%d + γ G_%d", trial, i, i, i+1)
			}
		}
		if g0 := DiscountedReturn(rewards, gamma); g0 != got[0] {
			t.Fatalf("trial %d: DiscountedReturn = %v, ReturnsToGo[0] = %v", trial, g0, got[0])
		}
	}
}

func TestDiscountOutsideUnitIntervalPanics(t *testing.T) {
	for _, gamma := range []float64{-0.1, 1.0001, 2, math.NaN(), math.Inf(1)} {
		for name, call := range map[string]func(){
			"DiscountedReturn": func() { DiscountedReturn([]float64{1}, gamma) },
			"ReturnsToGo":      func() { ReturnsToGo([]float64{1}, gamma) },
		} {
			func() {
				defer func() {
					r := recover()
					msg, _ := r.(string)
					if !strings.Contains(msg, "outside [0, 1]") {
						t.Errorf("%s with γ = %v: recovered %v, want a panic naming the range", name, gamma, r)
					}
				}()
				call()
			}()
		}
	}
}
