package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestBenchUsage(t *testing.T) {
	stderr = io.Discard
	tests := []struct {
		name string
		args []string
	}{
		{"no benchmark", nil},
		{"unknown benchmark", []string{"qwen3"}},
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
