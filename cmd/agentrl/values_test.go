package main

import (
	"path/filepath"
	"testing"
)

// NaN, zero and negative values are refused, by flag name, before anything runs.
func TestFlagValuesChecked(t *testing.T) {
	t.Setenv("AGENTRL_ROOT", "../..")
	dir := filepath.Join(t.TempDir(), "m")
	checkBadInputs(t, benchMain, []badInput{
		{"NaN target", []string{"tinyagent", "--target", "NaN"}, true, "--target NaN is out of range"},
		{"target above 1", []string{"tinyagent", "--target", "2"}, true, "--target 2 is out of range"},
		{"negative warm-up", []string{"tinyagent", "--warmup", "-1"}, true, "--warmup -1 is out of range"},
		{"no target steps", []string{"tinyagent", "--target-steps", "0"}, true, "--target-steps 0 is out of range"},
	})
	checkBadInputs(t, bookMain, []badInput{
		{"zero timeout", []string{"check", "--timeout", "0s", "ch00"}, true, "--timeout 0 is out of range"},
		{"negative timeout", []string{"check", "--timeout", "-1m", "ch00"}, true, "--timeout -60 is out of range"},
	})
	checkBadInputs(t, assignMain, []badInput{
		{"zero timeout", []string{"grade", "--timeout", "0s", "x.ipynb"}, true, "--timeout 0 is out of range"},
		{"negative timeout", []string{"grade", "--timeout", "-5s", "x.ipynb"}, true, "--timeout -5 is out of range"},
	})
	checkBadInputs(t, qwen3Main, []badInput{
		{"no rounds", []string{"bench-tokenize", "--rounds", "0"}, true, "--rounds 0 is out of range"},
		{"negative chunk", []string{"bench-tokenize", "--chunk", "-1"}, true, "--chunk -1 is out of range"},
		{"no vocabulary", []string{"init-tiny", "--vocab", "0", dir}, true, "--vocab 0 is out of range"},
		{"no layers", []string{"init-tiny", "--layers", "-2", dir}, true, "--layers -2 is out of range"},
		{"no shards", []string{"init-tiny", "--shards", "0", dir}, true, "--shards 0 is out of range"},
	})
}
