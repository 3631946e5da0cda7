package study

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Comparison is an arm against its control on one metric, paired task by task within each seed:
// Diff is the mean over seeds and tasks of (arm − control), each cell a task's mean over its
// episodes; [Lo, Hi] is its 95% interval from a two-way bootstrap that resamples seeds and tasks.
type Comparison struct {
	Measure        Measure
	Arm, Control   string
	Seeds, Tasks   int     // Tasks is 0 for a comparison of training curves (paired by seed only)
	Control0, Arm0 float64 // the two means
	Diff, Lo, Hi   float64
}

// Detectable reports whether the interval excludes 0.
func (c Comparison) Detectable() bool { return c.Lo > 0 || c.Hi < 0 }

// String prints the comparison in one line, with the verdict the book's prose follows.
func (c Comparison) String() string {
	verdict := "not detectable at this scale"
	if c.Detectable() {
		verdict = "interval excludes 0"
	}
	pairs := fmt.Sprintf("%d seeds × %d tasks", c.Seeds, c.Tasks)
	if c.Tasks == 0 {
		pairs = fmt.Sprintf("%d seeds", c.Seeds)
	}
	return fmt.Sprintf("%s: %s %.3f vs %s %.3f, difference %+.3f [%+.3f, %+.3f] (%s): %s",
		c.Measure, c.Arm, c.Arm0, c.Control, c.Control0, c.Diff, c.Lo, c.Hi, pairs, verdict)
}

// Measure names what a comparison averages: an outcome metric, over the episodes whose Where
// metric equals Is when Where is set (the tokens of failed episodes: {"tokens", "solved", 0}).
type Measure struct {
	Metric, Where string
	Is            float64
}

// String names the measure: "tokens" or "tokens (solved = 0)".
func (m Measure) String() string {
	if m.Where == "" {
		return m.Metric
	}
	return fmt.Sprintf("%s (%s = %g)", m.Metric, m.Where, m.Is)
}

// TaskMeans returns, for arm, one row per seed of the study's seeds: each task's mean of the
// measure over its episodes (NaN where no episode of the task is selected).
func (d *Data) TaskMeans(arm string, m Measure) ([][]float64, error) {
	var out [][]float64
	for _, seed := range d.Study.Seeds {
		r := d.Job(arm, seed)
		if r == nil || r.Result == nil {
			return nil, fmt.Errorf("study %s: no job %s/seed%d", d.Study.ID(), arm, seed)
		}
		eps, ok := r.Result.Outcomes[m.Metric]
		where, okW := r.Result.Outcomes[m.Where]
		if !ok || (m.Where != "" && !okW) {
			return nil, fmt.Errorf("study %s: job %s/seed%d has no outcome %q", d.Study.ID(), arm, seed, m)
		}
		row := make([]float64, len(eps))
		for i, e := range eps {
			row[i] = math.NaN()
			s, n := 0.0, 0
			for k, x := range e {
				if m.Where == "" || where[i][k] == m.Is {
					s, n = s+x, n+1
				}
			}
			if n > 0 {
				row[i] = s / float64(n)
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// SeedMeans returns, for each of the study's seeds, arm's mean over the evaluation tasks of the
// measure's task means (TaskMeans), and its standard error over tasks: their standard deviation
// divided by √tasks. Tasks where no episode is selected (NaN) are left out of both.
func (d *Data) SeedMeans(arm string, m Measure) (means, errs []float64, err error) {
	rows, err := d.TaskMeans(arm, m)
	if err != nil {
		return nil, nil, err
	}
	for _, row := range rows {
		tasks := slices.DeleteFunc(slices.Clone(row), math.IsNaN)
		n := float64(len(tasks))
		mu, v := 0.0, 0.0
		for _, x := range tasks {
			mu += x / n
		}
		for _, x := range tasks {
			v += (x - mu) * (x - mu) / (n - 1)
		}
		means, errs = append(means, mu), append(errs, math.Sqrt(v/n))
	}
	return means, errs, nil
}

// Spread formats xs, one value per seed, as their mean ± their sample standard deviation, each
// with verb: Spread("%.3f", means) is "0.262 ± 0.016".
func Spread(verb string, xs []float64) string {
	m, v := mean(xs), 0.0
	for _, x := range xs {
		v += (x - m) * (x - m) / float64(len(xs)-1)
	}
	return fmt.Sprintf(verb+" ± "+verb, m, math.Sqrt(v))
}

// Compare compares arm with control on the measure (see Comparison), with reps bootstrap
// resamples from seed. A (seed, task) cell where either arm has no value (NaN) is left out.
func (d *Data) Compare(m Measure, control, arm string, reps int, seed uint64) (Comparison, error) {
	a, err := d.TaskMeans(control, m)
	if err != nil {
		return Comparison{}, err
	}
	b, err := d.TaskMeans(arm, m)
	if err != nil {
		return Comparison{}, err
	}
	c := Comparison{Measure: m, Arm: arm, Control: control, Seeds: len(a), Tasks: len(a[0])}
	for s := range a {
		if len(b[s]) != len(a[s]) {
			return Comparison{}, fmt.Errorf("study %s: %s and %s evaluated different task lists", d.Study.ID(), arm, control)
		}
	}
	c.Control0, c.Arm0, c.Diff = gridMean(a, b, nil, nil)
	rng := rand.New(rand.NewPCG(seed, 0x57d1))
	diffs := make([]float64, reps)
	ss, ts := make([]int, c.Seeds), make([]int, c.Tasks)
	for r := range reps {
		for i := range ss {
			ss[i] = rng.IntN(c.Seeds)
		}
		for i := range ts {
			ts[i] = rng.IntN(c.Tasks)
		}
		_, _, diffs[r] = gridMean(a, b, ss, ts)
	}
	if math.IsNaN(c.Diff) {
		return Comparison{}, fmt.Errorf("study %s: %s has no paired values for %s and %s", d.Study.ID(), m, arm, control)
	}
	c.Lo, c.Hi = percentiles(diffs)
	return c, nil
}

// percentiles returns the 2.5% and 97.5% percentiles of the resampled statistics that are not NaN
// (a resample can hold no paired cell).
func percentiles(diffs []float64) (lo, hi float64) {
	diffs = slices.DeleteFunc(diffs, math.IsNaN)
	slices.Sort(diffs)
	if len(diffs) == 0 {
		return math.NaN(), math.NaN()
	}
	at := func(q float64) float64 {
		return diffs[min(len(diffs)-1, max(0, int(math.Floor(q*float64(len(diffs))))))]
	}
	return at(0.025), at(0.975)
}

// gridMean averages a, b and b − a over the cells (seeds ss × tasks ts, every one when nil) where
// both have a value.
func gridMean(a, b [][]float64, ss, ts []int) (ma, mb, diff float64) {
	if ss == nil {
		ss = seq(len(a))
	}
	if ts == nil {
		ts = seq(len(a[0]))
	}
	n := 0
	for _, s := range ss {
		for _, t := range ts {
			x, y := a[s][t], b[s][t]
			if math.IsNaN(x) || math.IsNaN(y) {
				continue
			}
			ma, mb, n = ma+x, mb+y, n+1
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return ma / float64(n), mb / float64(n), (mb - ma) / float64(n)
}

// Curve returns arm's training series name, one row per seed.
func (d *Data) Curve(arm, name string) ([][]float64, error) {
	var out [][]float64
	for _, seed := range d.Study.Seeds {
		r := d.Job(arm, seed)
		if r == nil || r.Result == nil || r.Result.Curves[name] == nil {
			return nil, fmt.Errorf("study %s: job %s/seed%d has no curve %q", d.Study.ID(), arm, seed, name)
		}
		out = append(out, r.Result.Curves[name])
	}
	return out, nil
}

// CurveMeans returns each seed's mean of arm's training series name over updates [from, to), one
// single-value row per seed: the rows CompareCurve pairs, and what agentrl.MeanStd summarizes.
func (d *Data) CurveMeans(arm, name string, from, to int) ([][]float64, error) {
	curves, err := d.Curve(arm, name)
	if err != nil {
		return nil, err
	}
	var rows [][]float64
	for _, c := range curves {
		if from < 0 || to > len(c) || from >= to {
			return nil, fmt.Errorf("study %s: updates [%d, %d) outside the %d of curve %q", d.Study.ID(), from, to, len(c), name)
		}
		rows = append(rows, []float64{mean(c[from:to])})
	}
	return rows, nil
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// CompareCurve compares arm with control on a training series: each seed's mean over updates
// [from, to), paired by seed (the arms of a seed start from the same weights and draw from the
// same streams), with a 95% bootstrap interval over seeds from reps resamples. Tasks is 0.
func (d *Data) CompareCurve(name, control, arm string, from, to, reps int, seed uint64) (Comparison, error) {
	var rows [2][][]float64
	for k, a := range []string{control, arm} {
		r, err := d.CurveMeans(a, name, from, to)
		if err != nil {
			return Comparison{}, err
		}
		rows[k] = r
	}
	c := Comparison{Measure: Measure{Metric: fmt.Sprintf("%s, updates %d-%d", name, from, to-1)}, Arm: arm, Control: control, Seeds: len(rows[0])}
	c.Control0, c.Arm0, c.Diff = gridMean(rows[0], rows[1], nil, nil)
	rng := rand.New(rand.NewPCG(seed, 0x57d2))
	diffs := make([]float64, reps)
	ss := make([]int, c.Seeds)
	for r := range reps {
		for i := range ss {
			ss[i] = rng.IntN(c.Seeds)
		}
		_, _, diffs[r] = gridMean(rows[0], rows[1], ss, nil)
	}
	c.Lo, c.Hi = percentiles(diffs)
	return c, nil
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
