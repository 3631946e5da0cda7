package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/bench/qwenbench"
)

func TestBenchUsage(t *testing.T) {
	stderr = io.Discard
	tests := []struct {
		name string
		args []string
	}{
		{"no benchmark", nil},
		{"unknown benchmark", []string{"qwen2"}},
		{"bad rows", []string{"tinyagent", "--rows", "32,x"}},
		{"zero rows", []string{"tinyagent", "--rows", "0"}},
		{"no timed runs", []string{"tinyagent", "--iters", "0"}},
		{"unknown flag", []string{"tinyagent", "--fast"}},
		{"stray argument", []string{"tinyagent", "now"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := benchMain(tc.args); !errors.Is(err, errUsage) {
				t.Errorf("agentrl bench %q: want a usage error, got %v", tc.args, err)
			}
		})
	}
}

// TestBenchTinyAgent runs the whole comparison on a small batch: both sides load, agree and
// print a table. The times themselves are not checked.
func TestBenchTinyAgent(t *testing.T) {
	var out bytes.Buffer
	err := benchTinyAgent(&out, []string{"--rows", "8", "--iters", "2", "--warmup", "1", "--tasks", gymTasks, "--target", "0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"Go/PyTorch", "sampler (plain Go) against trainer (GoMLX)", "\ntrain      8 ", "\nsample     8 ", "BLAS: ", "parity"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestBenchQwen3Flags: options the benchmark cannot run with are usage errors, found before any
// checkpoint is written or model loaded.
func TestBenchQwen3Flags(t *testing.T) {
	stderr = io.Discard
	for name, args := range map[string][]string{
		"unknown precision":     {"--precision", "fp8"},
		"agent tokens past seq": {"--tiny", "--agent", "64"},
		"no timed runs":         {"--tiny", "--iters", "0"},
		"prompt past seq":       {"--seq", "16", "--agent", "4", "--prompt", "32"},
		"keep with a model":     {"--model-dir", "x", "--keep-model", "y"},
		"unknown flag":          {"--fast"},
		"stray argument":        {"--tiny", "now"},
	} {
		if err := benchMain(append([]string{"qwen3"}, args...)); !errors.Is(err, errUsage) {
			t.Errorf("%s: agentrl bench qwen3 %q: want a usage error, got %v", name, args, err)
		}
	}
}

// TestBenchQwen3Tiny runs the Go side of the Qwen3 benchmark end to end on a tiny random
// checkpoint on the pure-Go backend: every part measured, the table printed, the JSON written
// with the settings and positive figures.
func TestBenchQwen3Tiny(t *testing.T) {
	t.Setenv("GOMLX_BACKEND", "go:num_executors=2")
	stderr = io.Discard
	path := filepath.Join(t.TempDir(), "bench.json")
	var out bytes.Buffer
	if err := benchQwen3(&out, []string{"--tiny", "--no-torch", "--json", path}); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"\nforward ", "\nupdate ", "\ngenerate ", "2 layers, hidden 64, vocab 512", "not run (--no-torch)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep qwenbench.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Settings.Rows != 2 || rep.Settings.Seq != 64 || rep.Precision != "f32" || rep.Date == "" || rep.Parity != nil {
		t.Errorf("JSON settings: %+v, precision %q, date %q, parity %v", rep.Settings, rep.Precision, rep.Date, rep.Parity)
	}
	for name, p := range map[string]qwenbench.Part{"forward": rep.Forward, "update": rep.Update, "generate": rep.Generate} {
		if g := p.Go; g == nil || g.MedianMS <= 0 || g.TokensPerS <= 0 || g.FirstS <= 0 || len(g.RunsMS) != 2 {
			t.Errorf("%s: Go figures %+v", name, g)
		}
	}
}
