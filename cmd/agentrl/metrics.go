package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agenticrl/course/agentrl"
)

// metricLine is one line of a run folder's metrics.jsonl, the one schema of every trainer here
// (train tinyagent, train capstone, train qwen3): a JSON object with snake_case keys. An update's
// line holds "update", the trainer's log of it (agentrl.TinyStepLog, or qwenagent.Round); an
// evaluation's line holds "eval". A capstone run, several seeds and stages in one folder, adds
// "seed" to every line and "stage" to an update's (capstoneLine).
type metricLine[U any] struct {
	Update *U        `json:"update,omitempty"`
	Eval   *evalLine `json:"eval,omitempty"`
}

// evalLine is an evaluation of one agent on one split of the tasks.
type evalLine struct {
	Agent    string            `json:"agent"`
	Split    string            `json:"split"`
	Result   *agentrl.TinyEval `json:"result,omitempty"`   // the episodes' summary
	Outcomes []float64         `json:"outcomes,omitempty"` // each episode's outcome (1: solved), when kept
}

// tinyLine is a metrics line of a TinyAgent run.
type tinyLine = metricLine[agentrl.TinyStepLog]

// appendMetric appends line to the metrics file path.
func appendMetric(path string, line any) error {
	data, err := json.Marshal(line)
	if err != nil {
		return err
	}
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := fh.Write(append(data, '\n')); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// writeMetrics writes lines as the metrics file path, one JSON object per line.
func writeMetrics[T any](path string, lines []T) error {
	var b strings.Builder
	for _, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// startMetrics prepares the metrics file path for a run: empty for a new run; for a resumed one,
// the lines of the first n updates, the ones its checkpoint holds (later updates will be redone,
// and evaluations made after them are dropped).
func startMetrics(path string, resume bool, n int) error {
	if !resume {
		return os.WriteFile(path, nil, 0o644)
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var keep []json.RawMessage
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || len(keep) == n {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
		if _, ok := m["update"]; ok {
			keep = append(keep, json.RawMessage(line))
		}
	}
	return writeMetrics(path, keep)
}
