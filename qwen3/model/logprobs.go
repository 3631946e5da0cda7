package model

import (
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
)

// minBucket is the shortest padded sequence length: lengths are rounded up to a power of two so
// that a handful of compiled graphs serve every length.
const minBucket = 8

func bucket(n int) int {
	b := minBucket
	for b < n {
		b *= 2
	}
	return b
}

// checkIDs reports the first token id outside the vocabulary: the embedding lookup would
// otherwise clamp it silently.
func (m *Model) checkIDs(what string, ids []int) error {
	for i, id := range ids {
		if id < 0 || id >= m.Config.VocabSize {
			return fmt.Errorf("%s[%d] = %d is outside the vocabulary [0, %d)", what, i, id, m.Config.VocabSize)
		}
	}
	return nil
}

// padRows packs rows of different lengths into an int32 [len(rows), bucket(longest)] tensor,
// right-padded with token 0 (causal attention keeps padding from affecting real positions).
func padRows(rows [][]int) *tensors.Tensor {
	longest := 0
	for _, r := range rows {
		longest = max(longest, len(r))
	}
	return padRowsTo(rows, bucket(longest))
}

func padRowsTo(rows [][]int, t int) *tensors.Tensor {
	flat := make([]int32, len(rows)*t)
	for b, r := range rows {
		for i, id := range r {
			flat[b*t+i] = int32(id)
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, len(rows), t)
}

// Logits returns the next-token logits after each prefix of ids: row t scores the token that
// follows ids[:t+1].
func (m *Model) Logits(ids []int) ([][]float32, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("qwen3 logits: no tokens")
	}
	if err := m.checkIDs("ids", ids); err != nil {
		return nil, fmt.Errorf("qwen3 logits: %w", err)
	}
	m.mu.Lock()
	out, err := m.logits.Call1(padRows([][]int{ids}))
	m.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("qwen3 logits: %w", err)
	}
	flat := tensors.MustCopyFlatData[float32](out)
	out.FinalizeAll()
	v := m.Config.VocabSize
	rows := make([][]float32, len(ids))
	for t := range rows {
		rows[t] = flat[t*v : (t+1)*v : (t+1)*v]
	}
	return rows, nil
}

// LogProbs returns log p(targets[t] | ids[:t+1]) under the model for every t, in float32 from
// the full softmax over the vocabulary (temperature 1, nothing truncated). For the usual
// "log-probability of a completion" pass ids = tokens[:n-1] and targets = tokens[1:].
func (m *Model) LogProbs(ids, targets []int) ([]float32, error) {
	rows, err := m.BatchLogProbs([][]int{ids}, [][]int{targets})
	if err != nil {
		return nil, err
	}
	return rows[0], nil
}

// BatchLogProbs is LogProbs over several sequences of any lengths in one computation.
func (m *Model) BatchLogProbs(ids, targets [][]int) ([][]float32, error) {
	if len(ids) == 0 || len(ids) != len(targets) {
		return nil, fmt.Errorf("qwen3 log-probs: %d id rows and %d target rows", len(ids), len(targets))
	}
	for b := range ids {
		if len(ids[b]) == 0 || len(ids[b]) != len(targets[b]) {
			return nil, fmt.Errorf("qwen3 log-probs: row %d has %d ids and %d targets", b, len(ids[b]), len(targets[b]))
		}
		if err := m.checkIDs(fmt.Sprintf("ids[%d]", b), ids[b]); err != nil {
			return nil, fmt.Errorf("qwen3 log-probs: %w", err)
		}
		if err := m.checkIDs(fmt.Sprintf("targets[%d]", b), targets[b]); err != nil {
			return nil, fmt.Errorf("qwen3 log-probs: %w", err)
		}
	}
	m.mu.Lock()
	out, err := m.logProbs.Call1(padRows(ids), padRows(targets))
	m.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("qwen3 log-probs: %w", err)
	}
	flat := tensors.MustCopyFlatData[float32](out)
	out.FinalizeAll()
	width := len(flat) / len(ids)
	rows := make([][]float32, len(ids))
	for b := range rows {
		rows[b] = flat[b*width : b*width+len(ids[b]) : b*width+len(ids[b])]
	}
	return rows, nil
}
