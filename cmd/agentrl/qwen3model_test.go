package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// runQwen3Sub calls a qwen3 subcommand the way the dispatcher does.
func runQwen3Sub(args ...string) error {
	c, ok := qwen3Commands[args[0]]
	if !ok {
		return fmt.Errorf("no qwen3 subcommand %q", args[0])
	}
	return c.run(args[1:])
}

func TestQwen3InitTinyAndLogProbs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := runQwen3Sub("init-tiny", "--vocab", "300", "--dtype", "f32", "--tied=false", dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"config.json", "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if err := runQwen3Sub("logprobs", "--model-dir", dir, "--ids", "1,2,3"); err != nil {
		t.Fatal(err)
	}
	bad := [][]string{
		{"init-tiny"},
		{"init-tiny", "--dtype", "f64", dir},
		{"logprobs", "--model-dir", dir, "--ids", "1"},
		{"logprobs", "--model-dir", dir, "--ids", "1,x"},
		{"logprobs", "--ids", "1,2"},
	}
	for _, args := range bad {
		if err := runQwen3Sub(args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
	if err := runQwen3Sub("logprobs", "--model-dir", dir, "--ids", "1,300"); err == nil || errors.Is(err, errUsage) {
		t.Errorf("id beyond the vocabulary: got %v, want a plain error", err)
	}
}
