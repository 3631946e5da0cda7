package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/model"
)

// TestQwen3Train runs `agentrl train qwen3` end to end on a small random checkpoint with Qwen3's
// vocabulary, on the CPU: two updates with the scripted solution in each group, a checkpoint
// that model.Load reads, a resumed third update, and the refusals.
func TestQwen3Train(t *testing.T) {
	modelDir := t.TempDir()
	if _, err := model.WriteTiny(modelDir, model.TinyOptions{Seed: 2, Tied: true, HiddenSize: 32, IntermediateSize: 64, HeadDim: 8}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	var progress bytes.Buffer
	old := stderr
	stderr = &progress
	defer func() { stderr = old }()
	tasks := smallTaskDir(t)
	run := func(extra ...string) (string, error) {
		var buf bytes.Buffer
		args := append([]string{"-model-dir", modelDir, "-group-size", "2", "-turns", "4", "-max-new", "8", "-teacher", "-lr", "1e-2",
			"-tasks", tasks, "-out", out}, extra...)
		err := trainQwen3Main(args, &buf)
		return buf.String(), err
	}
	text, err := run("-steps", "2")
	if err != nil {
		t.Fatal(err)
	}
	t.Log(text)
	if !strings.Contains(text, "2 updates of 2 episodes") || !strings.Contains(text, "backend Go") {
		t.Errorf("output:\n%s", text)
	}
	if !strings.Contains(progress.String(), "2/2") {
		t.Errorf("progress:\n%s", progress.String())
	}
	lines := func() int {
		raw, err := os.ReadFile(filepath.Join(out, "metrics.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(raw), "\n")
	}
	if n := lines(); n != 2 {
		t.Errorf("metrics.jsonl has %d lines, want 2", n)
	}
	m, err := model.Load(filepath.Join(out, "checkpoint"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.HiddenSize != 32 {
		t.Errorf("checkpoint hidden size %d", m.Config.HiddenSize)
	}
	if _, err := run("-steps", "2"); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Errorf("a second run into the same folder: %v", err)
	}
	if _, err := run("-steps", "3", "-resume", "-seed", "9"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-seed 1 (now 9)") {
		t.Errorf("resume under another seed: %v", err)
	}
	text, err = run("-steps", "3", "-resume")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "at update 2") || !strings.Contains(text, "1 updates of 2 episodes") || lines() != 3 {
		t.Errorf("resumed run (%d metric lines):\n%s", lines(), text)
	}
}

func TestQwen3TrainRefusals(t *testing.T) {
	old := stderr
	stderr = &bytes.Buffer{}
	defer func() { stderr = old }()
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-model-dir", t.TempDir()}, "init-tiny"},
		{[]string{"-out", filepath.Join(t.TempDir(), "r")}, "no Qwen3 weights found"},
		{[]string{"-group-size", "1"}, "-group-size"},
		{[]string{"-lr", "0"}, "-lr"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		err := trainQwen3Main(c.args, &bytes.Buffer{})
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error mentioning %q", c.args, err, c.want)
		}
	}
	if err := trainMain([]string{"nope"}); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "train qwen3") {
		t.Errorf("train nope: %v", err)
	}
}
