package agentrl

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/gym"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// tinyWeights copies every weight of the agent, in a fixed order.
func tinyWeights(t *testing.T, a *TinyAgent) [][]float32 {
	t.Helper()
	names, _ := a.Config.tinyShapes()
	var out [][]float32
	for _, n := range names {
		v, err := a.Store.GetVariable("/tiny/" + n).Value()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tensors.MustCopyFlatData[float32](v))
	}
	return out
}

func TestTinyTrainerResumesExactly(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	cfg := TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:6], Env: gym.Config{MaxTurns: 3, WarmHidden: true},
		Groups: 2, GroupSize: 4, LR: 1e-2, Advantage: GroupBaseline(true), Loss: PGLoss(0.01), Seed: 3}
	newTrainer := func() *TinyTrainer {
		agent, err := NewTinyAgent(DefaultTinyAgentConfig())
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	run := func(tr *TinyTrainer, n int) {
		for range n {
			if _, err := tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	straight := newTrainer()
	run(straight, 3)

	first := newTrainer()
	run(first, 1)
	path := filepath.Join(t.TempDir(), "ck.gob")
	if err := first.Save(path); err != nil {
		t.Fatal(err)
	}
	resumed := newTrainer()
	if err := resumed.Load(path); err != nil {
		t.Fatal(err)
	}
	if resumed.Steps() != 1 {
		t.Fatalf("resumed at step %d, want 1", resumed.Steps())
	}
	run(resumed, 2)
	a, b := tinyWeights(t, straight.Agent), tinyWeights(t, resumed.Agent)
	changed := false
	init := tinyWeights(t, newTrainer().Agent)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("weight %d differs after resuming", i)
		}
		changed = changed || !slices.Equal(a[i], init[i])
	}
	if !changed {
		t.Fatal("three updates left every weight as it was: the test would pass without training")
	}
}

func TestTinyTrainerStopsAtNaN(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	agent, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	nan := func(in TinyLossInputs) (*graph.Node, []TinyMetric) {
		loss, _ := PGLoss(0)(in)
		return graph.Add(loss, graph.Log(graph.Neg(graph.OnesLike(loss)))), nil // log(−1)
	}
	tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:2],
		Env: gym.Config{MaxTurns: 2, WarmHidden: true}, Groups: 1, GroupSize: 2, LR: 1e-3,
		Advantage: GroupBaseline(false), Loss: nan, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Step()
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("got %v, want an error naming the NaN loss", err)
	}
}
