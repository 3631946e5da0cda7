package qwenagent

import (
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/qwen3/model"
)

// autocastGroup is three episodes of one prompt with different agent tokens, not yet scored.
func autocastGroup() []agentrl.Trajectory {
	prompt := []int{151644, 872, 198, 3838, 374, 220, 17, 10, 17, 30, 151645, 198}
	var trs []agentrl.Trajectory
	for i, agent := range [][]int{{19, 151645}, {20, 13, 151645}, {21, 21, 21, 151645}} {
		trs = append(trs, agentrl.Trajectory{Reward: float64(i), Segments: []agentrl.Segment{
			{Role: agentrl.RolePrompt, IDs: prompt},
			{Role: agentrl.RoleAgent, IDs: agent, LogProbs: make([]float32, len(agent))},
		}})
	}
	return trs
}

// autocastMoves loads the tiny model with the given autocast, applies one update to the group
// and returns the trainer and how each episode's mean agent-token log-prob moved.
func autocastMoves(t *testing.T, dt dtypes.DType, trs []agentrl.Trajectory, adv []float64) (*Trainer, []float64) {
	t.Helper()
	dir := t.TempDir()
	if _, err := model.WriteTiny(dir, tinyOpts); err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetAutocast(dt); err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(m, TrainOptions{LR: 1e-2, Clip: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	step, err := tr.UpdateWith(trs, adv)
	if err != nil {
		t.Fatal(err)
	}
	after, err := tr.LogProbs(trs)
	if err != nil {
		t.Fatal(err)
	}
	moves := make([]float64, len(trs))
	for i := range trs {
		moves[i] = mean(after[i]) - mean(step.Before[i])
	}
	return tr, moves
}

// TestAutocastUpdate: an update with bf16 autocast runs end to end and moves every episode's
// agent-token log-probs the way its advantage and the float32 update do; the weights and Adam's
// moments stay float32; and a trainer refuses to run once the model's setting changed under it.
func TestAutocastUpdate(t *testing.T) {
	trs, adv := autocastGroup(), []float64{2.0 / 3, -1.0 / 3, -1.0 / 3}
	_, f32 := autocastMoves(t, dtypes.Float32, trs, adv)
	tr, bf16 := autocastMoves(t, dtypes.BFloat16, trs, adv)
	for i := range adv {
		t.Logf("episode %d: advantage %+.3f, mean log-prob moved %+.4f (float32), %+.4f (bf16 autocast)", i, adv[i], f32[i], bf16[i])
		if bf16[i]*adv[i] <= 0 || bf16[i]*f32[i] <= 0 {
			t.Errorf("episode %d: advantage %+.3f, moved %+.4f with bf16 autocast and %+.4f in float32", i, adv[i], bf16[i], f32[i])
		}
	}
	if slices.Equal(f32, bf16) {
		t.Error("the bf16 autocast update moved the log-probs exactly as the float32 one: autocast did not reach the trainer's graphs")
	}
	moments := 0
	for v := range tr.Model.Store.IterVariables() {
		if v.DType().IsFloat() && v.DType() != dtypes.Float32 {
			t.Errorf("variable %s is %s after a bf16 autocast update, want Float32", v.Path(), v.DType())
		}
		if !isWeight(v.Path()) && v.DType() == dtypes.Float32 {
			moments++
		}
	}
	if moments == 0 {
		t.Error("no float32 optimizer state after the update")
	}
	if err := tr.Model.SetAutocast(dtypes.Float32); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.UpdateWith(trs, adv); err == nil {
		t.Error("an update after the model's autocast changed: no error")
	}
}
