package model

import (
	"math"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// TestSaveRoundTrip changes a weight, saves, loads the folder back and gets the changed model's
// log-probs bit for bit in f32 (and within bf16 rounding in bf16).
func TestSaveRoundTrip(t *testing.T) {
	for _, tied := range []bool{true, false} {
		m := loadTiny(t, TinyOptions{Seed: 7, VocabSize: testVocab, Tied: tied})
		setWeight(t, m, finalNormName, 3, 2.5) // the saved model must be the updated one
		ids, targets := []int{5, 9, 2, 7}, []int{9, 2, 7, 1}
		want, err := m.LogProbs(ids, targets)
		if err != nil {
			t.Fatal(err)
		}
		for _, dt := range []string{safetensors.F32, safetensors.BF16} {
			dir := t.TempDir()
			if err := m.Save(dir, dt); err != nil {
				t.Fatal(err)
			}
			back, err := Load(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if back.Config.TieWordEmbeddings != tied {
				t.Errorf("tied %v saved as tied %v", tied, back.Config.TieWordEmbeddings)
			}
			got, err := back.LogProbs(ids, targets)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				d := math.Abs(float64(got[i] - want[i]))
				if (dt == safetensors.F32 && d != 0) || d > 0.1 {
					t.Errorf("tied %v %s: log-prob %d is %g after the round trip, %g before", tied, dt, i, got[i], want[i])
				}
			}
		}
	}
	m := loadTiny(t, TinyOptions{Seed: 7, VocabSize: testVocab})
	if err := m.Save(t.TempDir(), "F64"); err == nil || !strings.Contains(err.Error(), "F64") {
		t.Errorf("Save with dtype F64: %v", err)
	}
}

// TestLogProbsAtGraph checks the chosen positions against LogProbs of the whole sequence.
func TestLogProbsAtGraph(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 8, VocabSize: testVocab})
	ids, targets := []int{3, 1, 4, 1, 5, 9}, []int{1, 4, 1, 5, 9, 2}
	all, err := m.LogProbs(ids, targets)
	if err != nil {
		t.Fatal(err)
	}
	exec, err := model.NewExec(m.Backend(), m.Store, func(_ *model.Scope, idsN, atN, targetsN *Node) *Node {
		return m.LogProbsAtGraph(idsN, atN, targetsN)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Two rows: the same sequence, asking for positions 5, 0 and 2 in the first, 1, 1, 3 in the second.
	at := [][]int32{{5, 0, 2}, {1, 1, 3}}
	idsT := tensors.FromFlatDataAndDimensions(append(toInt32(ids), toInt32(ids)...), 2, len(ids))
	atT := tensors.FromFlatDataAndDimensions(append(append([]int32{}, at[0]...), at[1]...), 2, 3)
	var tg []int32
	for _, row := range at {
		for _, p := range row {
			tg = append(tg, int32(targets[p]))
		}
	}
	out, err := exec.Call1(idsT, atT, tensors.FromFlatDataAndDimensions(tg, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	got := tensors.MustCopyFlatData[float32](out)
	for r, row := range at {
		for k, p := range row {
			if d := math.Abs(float64(got[r*3+k] - all[p])); d > 1e-5 {
				t.Errorf("row %d position %d: %g, LogProbs says %g", r, p, got[r*3+k], all[p])
			}
		}
	}
}

func toInt32(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}
