// Package exercises holds the graded exercises' cases: the inputs a submission is called on (Run,
// which the probe executes in the jail, where package agentrl is the student's) and what its
// answers must satisfy (Check, which the grader executes, where agentrl is the reference). The
// same source serves both sides, so the inputs agree by construction; they are drawn from the
// grader's seed, and Check never runs student code.
package exercises

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Case is one graded call of a submission.
type Case struct {
	Name  string
	Run   func() any                      // in the jail: calls the submission, returns plain data
	Check func(out json.RawMessage) error // in the grader: nil when the answer is right
}

// Line is one case's answer as the probe prints it: what Run returned, or the panic it raised,
// signed with a key only the probe and the grader know.
type Line struct {
	Case  int             `json:"case"`
	Out   json.RawMessage `json:"out,omitempty"`
	Panic string          `json:"panic,omitempty"`
	MAC   string          `json:"mac"`
}

// Sign is the HMAC-SHA256 of a line's content under key.
func Sign(key []byte, l Line) string {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "%d\x00%s\x00%s", l.Case, l.Out, l.Panic)
	return hex.EncodeToString(m.Sum(nil))
}

// Exercise is the cases of one marked exercise.
type Exercise struct {
	Name  string
	Cases func(seed uint64) []Case
}

var all = map[string]Exercise{}

func register(e Exercise) { all[e.Name] = e }

// Find returns the exercise of that name.
func Find(name string) (Exercise, bool) {
	e, ok := all[name]
	return e, ok
}

// Names lists the exercises, sorted.
func Names() []string {
	var n []string
	for k := range all {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// rng is the case inputs' source for a seed and a stream.
func rng(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

func vec(r *rand.Rand, n int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Round((r.Float64()*2-1)*scale*1000) / 1000
	}
	return v
}

// refusal is what a case that expects a refusal returns: whether the function panicked on the bad
// input and on a good one. Only a function that refuses the first and accepts the second passes,
// so a stub that panics on everything earns nothing here.
type refusal struct {
	Bad  bool `json:"panicked_on_bad"`
	Good bool `json:"panicked_on_good"`
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return
}

func wantRefusal(out json.RawMessage) error {
	var r refusal
	if err := json.Unmarshal(out, &r); err != nil {
		return fmt.Errorf("returned %s", short(out))
	}
	if r.Good {
		return fmt.Errorf("panicked on a valid input")
	}
	if !r.Bad {
		return fmt.Errorf("should panic on this input, and returned")
	}
	return nil
}

func short(out json.RawMessage) string {
	if len(out) > 120 {
		return string(out[:120]) + "…"
	}
	return string(out)
}

// Floats carries []float64 through JSON: NaN and infinities, which JSON lacks, as strings, so a
// submission that returns them is read as such rather than failing to print.
type Floats []float64

// MarshalJSON writes NaN and ±Inf as strings.
func (f Floats) MarshalJSON() ([]byte, error) {
	out := make([]any, len(f))
	for i, x := range f {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			out[i] = fmt.Sprint(x)
		} else {
			out[i] = x
		}
	}
	return json.Marshal(out)
}

func decode(out json.RawMessage) ([]float64, error) {
	var raw []any
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("returned %s, not a list of numbers", short(out))
	}
	v := make([]float64, len(raw))
	for i, x := range raw {
		f, ok := x.(float64)
		if !ok {
			return nil, fmt.Errorf("element %d is %v, not a finite number", i, x)
		}
		v[i] = f
	}
	return v, nil
}

// same checks a returned vector against the expected one, elementwise within tol (relative to
// the larger magnitude, absolute near zero).
func same(out json.RawMessage, want []float64, tol float64) error {
	got, err := decode(out)
	if err != nil {
		return err
	}
	if len(got) != len(want) {
		return fmt.Errorf("returned %d values, want %d: %v", len(got), len(want), want)
	}
	for i := range want {
		if !near(got[i], want[i], tol) {
			return fmt.Errorf("element %d is %.6g, want %.6g (all: got %v, want %v)", i, got[i], want[i], round(got), round(want))
		}
	}
	return nil
}

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func round(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(x*1e6) / 1e6
	}
	return out
}

// vector is a case that returns one vector and must match want.
func vector(name string, run func() []float64, want func() []float64, tol float64) Case {
	return Case{Name: name, Run: func() any { return Floats(run()) }, Check: func(out json.RawMessage) error { return same(out, want(), tol) }}
}

// expectPanic is a case whose bad input the function must refuse (panic), while it accepts good.
func expectPanic(name string, bad, good func()) Case {
	return Case{Name: name, Run: func() any { return refusal{Bad: panics(bad), Good: panics(good)} }, Check: wantRefusal}
}
