package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	// A directory that is not empty is replaced only when asked, and only its checkpoint files;
	// nothing is left beside it.
	config := filepath.Join(dir, "config.json")
	before, _ := os.ReadFile(config)
	note := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(note, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runQwen3Sub("init-tiny", "--vocab", "400", "--dtype", "f32", dir); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--overwrite") {
		t.Errorf("init-tiny into a full directory: %v", err)
	}
	if after, _ := os.ReadFile(config); string(after) != string(before) {
		t.Error("a refused init-tiny changed the checkpoint")
	}
	if err := runQwen3Sub("init-tiny", "--vocab", "400", "--dtype", "f32", "--overwrite", dir); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(config); !strings.Contains(string(after), "400") {
		t.Errorf("--overwrite left config.json as it was:\n%s", after)
	}
	if b, err := os.ReadFile(note); err != nil || string(b) != "mine" {
		t.Error("--overwrite touched a file init-tiny does not write")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".*")); len(left) != 0 {
		t.Errorf("init-tiny left %v beside the directory", left)
	}
}
