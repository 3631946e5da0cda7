package model_test

import (
	"fmt"
	"os"

	"github.com/agenticrl/course/qwen3/model"
)

// Write a tiny random checkpoint, load it, score a sequence and continue it. A real model
// directory (config.json plus safetensors) loads the same way.
func Example() {
	dir, err := os.MkdirTemp("", "qwen3-tiny")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if _, err := model.WriteTiny(dir, model.TinyOptions{Seed: 1, VocabSize: 1000}); err != nil {
		panic(err)
	}
	m, err := model.Load(dir, nil)
	if err != nil {
		panic(err)
	}
	ids := []int{1, 2, 3, 4}
	lps, err := m.LogProbs(ids[:3], ids[1:])
	if err != nil {
		panic(err)
	}
	fmt.Printf("log p(2|1), log p(3|1 2), log p(4|1 2 3): %.2f\n", lps)

	gen, err := m.Generate(ids, model.GenerateOptions{MaxNew: 5, Temperature: 0.8, Seed: 42})
	if err != nil {
		panic(err)
	}
	fmt.Println("tokens:", gen.Tokens)
	fmt.Printf("model log-probs:    %.2f\n", gen.LogProbs)
	fmt.Printf("sampling log-probs: %.2f\n", gen.SampleLogProbs)
	// At temperature 0.8 the sampler is sharper than the model, so each drawn token is likelier
	// under the sampling distribution than under the model a trainer evaluates.

	// Output:
	// log p(2|1), log p(3|1 2), log p(4|1 2 3): [-12.45 -10.54 -11.26]
	// tokens: [847 75 584 246 1]
	// model log-probs:    [-0.23 -0.09 -0.65 -1.75 -0.61]
	// sampling log-probs: [-0.10 -0.02 -0.46 -1.46 -0.36]
}
