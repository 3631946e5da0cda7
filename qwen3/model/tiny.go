package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// TinyOptions describes a small random Qwen3-architecture checkpoint.
type TinyOptions struct {
	Seed      uint64
	VocabSize int    // 151936 (Qwen3's) unless set, so real tokenizer ids are valid
	DType     string // safetensors.F32 or safetensors.BF16
	Tied      bool   // tie_word_embeddings: no lm_head.weight
	Shards    int    // > 1 writes a sharded checkpoint with model.safetensors.index.json
	// Layer sizes; zero values give hidden 64, intermediate 128, 2 layers, 4 query heads, 2
	// key/value heads, head_dim 16.
	HiddenSize, IntermediateSize, NumHiddenLayers, NumAttentionHeads, NumKeyValueHeads, HeadDim int
	// InitStd, when positive, replaces the scales below by transformers' initialisation of
	// Qwen3ForCausalLM: every matrix ~ N(0, InitStd²) (its initializer_range is 0.02), norm
	// weights 1. A benchmark wants the real model's scale, where nothing overflows in low
	// precision, rather than peaked distributions.
	InitStd float64
}

// TinyConfig returns the config WriteTiny writes for o: Qwen3-0.6B's settings (rms_norm_eps,
// rope_theta, special token ids, ...) with small layers.
func TinyConfig(o TinyOptions) Config {
	or := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	dtype := "float32"
	if o.DType == safetensors.BF16 {
		dtype = "bfloat16"
	}
	return Config{
		Architectures:         []string{"Qwen3ForCausalLM"},
		ModelType:             "qwen3",
		VocabSize:             or(o.VocabSize, 151936),
		HiddenSize:            or(o.HiddenSize, 64),
		IntermediateSize:      or(o.IntermediateSize, 128),
		NumHiddenLayers:       or(o.NumHiddenLayers, 2),
		NumAttentionHeads:     or(o.NumAttentionHeads, 4),
		NumKeyValueHeads:      or(o.NumKeyValueHeads, 2),
		HeadDim:               or(o.HeadDim, 16),
		HiddenAct:             "silu",
		MaxPositionEmbeddings: 40960,
		RMSNormEps:            1e-6,
		RopeTheta:             1e6,
		TieWordEmbeddings:     o.Tied,
		RopeScaling:           []byte("null"),
		TorchDType:            dtype,
		BOSTokenID:            151643,
		EOSTokenID:            151645,
	}
}

// WriteTiny writes a random checkpoint described by o into dir (created if needed): config.json
// and safetensors weights named and shaped as Hugging Face's Qwen3ForCausalLM stores them.
//
// The scales are chosen so the untrained model still has peaked, position-dependent next-token
// distributions (a test comparing near-uniform logits would prove little): embeddings
// ~ N(0, 0.5²), so logits spread over several nats; projections ~ N(0, 1/fan_in); norm weights
// ~ 1 + N(0, 0.2²), so a missing weight multiply shows (unless o.InitStd says otherwise). The
// same options always give the same bytes.
func WriteTiny(dir string, o TinyOptions) (Config, error) {
	if o.DType == "" {
		o.DType = safetensors.F32
	}
	if o.DType != safetensors.F32 && o.DType != safetensors.BF16 {
		return Config{}, fmt.Errorf("tiny checkpoint dtype %q: want %s or %s", o.DType, safetensors.F32, safetensors.BF16)
	}
	cfg := TinyConfig(o)
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("tiny checkpoint: %w", err)
	}
	shapes := cfg.tensorShapes()
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names) // a fixed draw order makes the seed reproducible
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	var ts []safetensors.Tensor
	for _, name := range names {
		shape := shapes[name]
		n := 1
		for _, d := range shape {
			n *= d
		}
		data := make([]float32, n)
		mean, std := 0.0, 0.5 // embeddings (and the output matrix when untied)
		switch {
		case o.InitStd > 0 && len(shape) == 1:
			mean, std = 1, 0
		case o.InitStd > 0:
			mean, std = 0, o.InitStd
		case len(shape) == 1: // RMSNorm weights
			mean, std = 1, 0.2
		case name != embedName && name != lmHeadName: // Linear [out, in]
			std = 1 / math.Sqrt(float64(shape[1]))
		}
		for i := range data {
			data[i] = float32(mean + std*rng.NormFloat64())
		}
		ts = append(ts, safetensors.Tensor{Name: name, DType: o.DType, Shape: shape, Data: data})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Config{}, err
	}
	if err := safetensors.WriteDir(dir, ts, o.Shards, map[string]string{"format": "pt"}); err != nil {
		return Config{}, err
	}
	return cfg, cfg.Write(dir)
}
