package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/agentrl"
)

func TestCapstoneBadInput(t *testing.T) {
	checkBadInputs(t, trainMain, []badInput{
		{"no seeds", []string{"capstone", "-seeds", "0"}, true, "-seeds 0"},
		{"beta NaN", []string{"capstone", "-beta", "NaN"}, true, "-beta"},
		{"pairs of one", []string{"capstone", "-pair-size", "1"}, true, "-pair-size 1"},
		{"bad learning rate", []string{"capstone", "-pref-lr", "2"}, true, "-pref-lr 2"},
		{"extra argument", []string{"capstone", "now"}, true, `unexpected argument "now"`},
		{"unknown flag", []string{"capstone", "-epochs", "3"}, true, "-epochs"},
		{"unknown model", []string{"capstones"}, true, "capstone"},
	})
}

// TestTrainCapstone runs the capstone command with one seed and small stages, and checks its
// table, its alarms section, and its run folder: the settings, a metrics line per gradient step
// and per evaluated agent, and the final agent, which loads.
func TestTrainCapstone(t *testing.T) {
	if testing.Short() {
		t.Skip("trains TinyAgent")
	}
	dir := filepath.Join(t.TempDir(), "run")
	f, err := parseCapstoneFlags([]string{"-seeds", "1", "-first-seed", "1", "-sft-epochs", "2", "-pair-tasks", "8",
		"-pref-steps", "2", "-out", dir, "-tasks", gymTasks})
	if err != nil {
		t.Fatal(err)
	}
	var out, progress bytes.Buffer
	f.progress = &progress
	if err := trainCapstone(f, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"untrained", "SFT, then DPO", "Wilson 95%", "vs untrained", "alarms", dir} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(progress.String(), "seed 1:"); n != 3 {
		t.Errorf("%d progress lines for seed 1, want one per stage (3):\n%s", n, progress.String())
	}
	var cfg agentrl.CapstoneConfig
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil || cfg.Seeds != 1 || cfg.PairTasks != 8 || cfg.PrefSteps != 2 {
		t.Errorf("run.json: %+v, %v", cfg, err)
	}
	fh, err := os.Open(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	stages, agents := map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l capstoneLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("metrics line %q: %v", sc.Text(), err)
		}
		if l.Update != nil {
			stages[l.Stage]++
		}
		if e := l.Eval; e != nil {
			agents[e.Agent]++
			if want := 41 * cfg.EvalReps; len(e.Outcomes) != want || e.Split != "test" {
				t.Errorf("%s: %d outcomes on %q, want %d (41 held-out tasks × %d, test)", e.Agent, len(e.Outcomes), e.Split, want, cfg.EvalReps)
			}
		}
	}
	if stages["sft"] != 2 || stages["preference"] != 2 || agents["untrained"] != 1 || agents["sft"] != 1 || agents["final"] != 1 {
		t.Errorf("metrics.jsonl: steps per stage %v, agents %v", stages, agents)
	}
	if _, err := agentrl.LoadTinyAgent(filepath.Join(dir, "final-seed1")); err != nil {
		t.Errorf("final agent: %v", err)
	}
	// A second run into the same folder is refused: it would mix two runs' metrics.
	f.progress = io.Discard
	if err := trainCapstone(f, io.Discard); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("second run into %s: %v, want a refusal", dir, err)
	}
}
