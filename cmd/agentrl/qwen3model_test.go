package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestQwen3InitTinyAndLogProbs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := qwen3Main([]string{"init-tiny", "--vocab", "300", "--dtype", "f32", "--tied=false", dir}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"config.json", "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if err := qwen3Main([]string{"logprobs", "--model-dir", dir, "--ids", "1,2,3"}); err != nil {
		t.Fatal(err)
	}
	usage := [][]string{
		{"init-tiny"},
		{"init-tiny", "--dtype", "f64", dir},
		{"logprobs", "--model-dir", dir, "--ids", "1"},
		{"logprobs", "--model-dir", dir, "--ids", "1,x"},
		{"logprobs", "--ids", "1,2"},
		{"no-such-subcommand"},
	}
	for _, args := range usage {
		if err := qwen3Main(args); !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
	if err := qwen3Main([]string{"logprobs", "--model-dir", dir, "--ids", "1,300"}); err == nil || errors.Is(err, errUsage) {
		t.Errorf("id beyond the vocabulary: got %v, want a plain error", err)
	}
}
