package model

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// testVocab keeps the tests' logits small; WriteTiny's default is the real 151936.
const testVocab = 512

func loadTiny(t *testing.T, o TinyOptions) *Model {
	t.Helper()
	dir := t.TempDir()
	if _, err := WriteTiny(dir, o); err != nil {
		t.Fatal(err)
	}
	m, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSmoke(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 1, VocabSize: testVocab})
	rows, err := m.Logits([]int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rows[0][:5], rows[2][:5])
	_ = math.Inf
	_ = filepath.Join
	_ = reflect.DeepEqual
	_ = safetensors.F32
}
