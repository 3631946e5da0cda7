package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// ConfigFile is the name of the architecture description in a model directory.
const ConfigFile = "config.json"

// Config is the subset of a Qwen3 config.json that defines the computation, with the JSON keys
// Hugging Face uses.
type Config struct {
	Architectures         []string `json:"architectures"`
	ModelType             string   `json:"model_type"`
	VocabSize             int      `json:"vocab_size"`
	HiddenSize            int      `json:"hidden_size"`
	IntermediateSize      int      `json:"intermediate_size"`
	NumHiddenLayers       int      `json:"num_hidden_layers"`
	NumAttentionHeads     int      `json:"num_attention_heads"`
	NumKeyValueHeads      int      `json:"num_key_value_heads"`
	HeadDim               int      `json:"head_dim"`
	HiddenAct             string   `json:"hidden_act"`
	MaxPositionEmbeddings int      `json:"max_position_embeddings"`
	RMSNormEps            float64  `json:"rms_norm_eps"`
	RopeTheta             float64  `json:"rope_theta"`
	TieWordEmbeddings     bool     `json:"tie_word_embeddings"`
	AttentionBias         bool     `json:"attention_bias"`
	UseSlidingWindow      bool     `json:"use_sliding_window"`
	// RopeScaling must be null: Qwen3's long-context scaling (YaRN) is not implemented.
	RopeScaling json.RawMessage `json:"rope_scaling,omitempty"`
	// TorchDType is the precision the weights were stored in ("bfloat16", "float32"); newer
	// files name it DType. The computation here is float32 either way.
	TorchDType string `json:"torch_dtype,omitempty"`
	DType      string `json:"dtype,omitempty"`
	BOSTokenID int    `json:"bos_token_id"`
	EOSTokenID int    `json:"eos_token_id"`
}

// ReadConfig reads and validates dir/config.json. Missing keys take Hugging Face's Qwen3
// defaults where the architecture has one: head_dim = hidden_size / num_attention_heads,
// num_key_value_heads = num_attention_heads, hidden_act silu, rms_norm_eps 1e-6, rope_theta 10000.
func ReadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, ConfigFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	if c.HeadDim == 0 && c.NumAttentionHeads > 0 {
		c.HeadDim = c.HiddenSize / c.NumAttentionHeads
	}
	if c.NumKeyValueHeads == 0 {
		c.NumKeyValueHeads = c.NumAttentionHeads
	}
	if c.HiddenAct == "" {
		c.HiddenAct = "silu"
	}
	if c.RMSNormEps == 0 {
		c.RMSNormEps = 1e-6
	}
	if c.RopeTheta == 0 {
		c.RopeTheta = 10000
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Validate reports the first setting this implementation cannot run exactly.
func (c Config) Validate() error {
	switch {
	case c.ModelType != "" && c.ModelType != "qwen3":
		return fmt.Errorf("model_type %q is not qwen3", c.ModelType)
	case c.VocabSize <= 0 || c.HiddenSize <= 0 || c.IntermediateSize <= 0 || c.NumHiddenLayers <= 0:
		return fmt.Errorf("vocab_size, hidden_size, intermediate_size and num_hidden_layers must be positive")
	case c.NumAttentionHeads <= 0 || c.NumKeyValueHeads <= 0 || c.NumAttentionHeads%c.NumKeyValueHeads != 0:
		return fmt.Errorf("num_attention_heads (%d) must be a positive multiple of num_key_value_heads (%d)",
			c.NumAttentionHeads, c.NumKeyValueHeads)
	case c.HeadDim <= 0 || c.HeadDim%2 != 0:
		return fmt.Errorf("head_dim %d must be positive and even (rotary embeddings rotate pairs)", c.HeadDim)
	case c.HiddenAct != "silu":
		return fmt.Errorf("hidden_act %q is not supported (Qwen3 uses silu)", c.HiddenAct)
	case c.AttentionBias:
		return fmt.Errorf("attention_bias=true is not supported (Qwen3 has no attention biases)")
	case c.UseSlidingWindow:
		return fmt.Errorf("use_sliding_window=true is not supported")
	case len(c.RopeScaling) > 0 && string(c.RopeScaling) != "null":
		return fmt.Errorf("rope_scaling %s is not supported", c.RopeScaling)
	case c.RMSNormEps <= 0 || c.RopeTheta <= 0:
		return fmt.Errorf("rms_norm_eps and rope_theta must be positive")
	}
	return nil
}

// Write stores c as dir/config.json.
func (c Config) Write(dir string) error {
	raw, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ConfigFile), append(raw, '\n'), 0o644)
}

// NumParameters counts the weights the config implies (the output matrix once when tied).
func (c Config) NumParameters() int {
	d, kv := c.HiddenSize, c.NumKeyValueHeads*c.HeadDim
	q := c.NumAttentionHeads * c.HeadDim
	layer := 2*d + // input and post-attention norms
		d*q + 2*d*kv + q*d + // q, k, v, o projections
		2*c.HeadDim + // q and k norms
		3*d*c.IntermediateSize
	n := c.VocabSize*d + c.NumHiddenLayers*layer + d
	if !c.TieWordEmbeddings {
		n += c.VocabSize * d
	}
	return n
}

// tensorShapes lists every weight the architecture needs, by Hugging Face name, with its shape.
func (c Config) tensorShapes() map[string][]int {
	d, q, kv := c.HiddenSize, c.NumAttentionHeads*c.HeadDim, c.NumKeyValueHeads*c.HeadDim
	s := map[string][]int{
		embedName:     {c.VocabSize, d},
		finalNormName: {d},
	}
	if !c.TieWordEmbeddings {
		s[lmHeadName] = []int{c.VocabSize, d}
	}
	for l := range c.NumHiddenLayers {
		for name, shape := range map[string][]int{
			"input_layernorm.weight":          {d},
			"post_attention_layernorm.weight": {d},
			"self_attn.q_proj.weight":         {q, d},
			"self_attn.k_proj.weight":         {kv, d},
			"self_attn.v_proj.weight":         {kv, d},
			"self_attn.o_proj.weight":         {d, q},
			"self_attn.q_norm.weight":         {c.HeadDim},
			"self_attn.k_norm.weight":         {c.HeadDim},
			"mlp.gate_proj.weight":            {c.IntermediateSize, d},
			"mlp.up_proj.weight":              {c.IntermediateSize, d},
			"mlp.down_proj.weight":            {d, c.IntermediateSize},
		} {
			s[layerName(l, name)] = shape
		}
	}
	return s
}

// Hugging Face tensor names of Qwen3ForCausalLM.
const (
	embedName     = "model.embed_tokens.weight"
	finalNormName = "model.norm.weight"
	lmHeadName    = "lm_head.weight"
)

func layerName(layer int, name string) string {
	return fmt.Sprintf("model.layers.%d.%s", layer, name)
}
