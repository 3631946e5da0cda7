package model

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// testVocab keeps these tests' logits small; WriteTiny's default is Qwen3's 151936, which
// qwen3/modelref's comparison with PyTorch uses.
const testVocab = 512

func writeTiny(t *testing.T, o TinyOptions) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := WriteTiny(dir, o); err != nil {
		t.Fatal(err)
	}
	return dir
}

func loadTiny(t *testing.T, o TinyOptions) *Model {
	t.Helper()
	m, err := Load(writeTiny(t, o), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestQwen3_06BParameterCount(t *testing.T) {
	c := Config{VocabSize: 151936, HiddenSize: 1024, IntermediateSize: 3072, NumHiddenLayers: 28,
		NumAttentionHeads: 16, NumKeyValueHeads: 8, HeadDim: 128, TieWordEmbeddings: true}
	if got, want := c.NumParameters(), 596049920; got != want {
		t.Errorf("Qwen3-0.6B parameters: got %d, want %d", got, want)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Config)
		wantErr string
	}{
		{"tiny is valid", func(*Config) {}, ""},
		{"other model type", func(c *Config) { c.ModelType = "llama" }, "model_type"},
		{"heads not a multiple", func(c *Config) { c.NumKeyValueHeads = 3 }, "multiple"},
		{"odd head_dim", func(c *Config) { c.HeadDim = 15 }, "even"},
		{"gelu", func(c *Config) { c.HiddenAct = "gelu" }, "hidden_act"},
		{"attention bias", func(c *Config) { c.AttentionBias = true }, "attention_bias"},
		{"sliding window", func(c *Config) { c.UseSlidingWindow = true }, "sliding"},
		{"yarn", func(c *Config) { c.RopeScaling = json.RawMessage(`{"rope_type":"yarn","factor":4}`) }, "rope_scaling"},
		{"no eps", func(c *Config) { c.RMSNormEps = 0 }, "rms_norm_eps"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := TinyConfig(TinyOptions{})
			tc.edit(&c)
			err := c.Validate()
			if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("got %v, want error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestReadConfigDefaults(t *testing.T) {
	dir := t.TempDir()
	raw := `{"model_type": "qwen3", "vocab_size": 100, "hidden_size": 64, "intermediate_size": 96,
		"num_hidden_layers": 1, "num_attention_heads": 4}`
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.HeadDim != 16 || got.NumKeyValueHeads != 4 || got.HiddenAct != "silu" || got.RMSNormEps != 1e-6 ||
		got.RopeTheta != 10000 || got.TieWordEmbeddings {
		t.Errorf("defaults not applied: %+v", got)
	}
}

func TestWriteTinyIsDeterministic(t *testing.T) {
	read := func(seed uint64) []byte {
		b, err := os.ReadFile(filepath.Join(writeTiny(t, TinyOptions{Seed: seed, VocabSize: testVocab}), safetensors.SingleFile))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := read(3), read(3); !bytes.Equal(a, b) {
		t.Error("the same seed wrote different weights")
	}
	if a, b := read(3), read(4); bytes.Equal(a, b) {
		t.Error("different seeds wrote the same weights")
	}
}

// TestWriteTinyInitStd: with InitStd, norm weights are exactly 1 and every matrix has about
// that standard deviation, as transformers initialises Qwen3.
func TestWriteTinyInitStd(t *testing.T) {
	c, err := safetensors.OpenDir(writeTiny(t, TinyOptions{Seed: 2, VocabSize: testVocab, InitStd: 0.02}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, name := range []string{"model.norm.weight", embedName, layerName(1, "mlp.down_proj.weight")} {
		data, shape, err := c.Float32(name)
		if err != nil {
			t.Fatal(err)
		}
		sum, sq := 0.0, 0.0
		for _, x := range data {
			sum, sq = sum+float64(x), sq+float64(x)*float64(x)
		}
		mean := sum / float64(len(data))
		std := math.Sqrt(sq/float64(len(data)) - mean*mean)
		if len(shape) == 1 && (mean != 1 || std != 0) || len(shape) == 2 && math.Abs(std-0.02) > 0.002 {
			t.Errorf("%s %v: mean %.4f, std %.4f", name, shape, mean, std)
		}
	}
}

func TestWriteTinyLayout(t *testing.T) {
	for _, tied := range []bool{true, false} {
		dir := writeTiny(t, TinyOptions{VocabSize: testVocab, Tied: tied, DType: safetensors.BF16})
		c, err := safetensors.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		names := c.Names()
		c.Close()
		// 2 layers x 11 tensors + embeddings + final norm (+ lm_head when untied).
		want := 24
		if !tied {
			want++
		}
		if len(names) != want {
			t.Errorf("tied=%v: %d tensors, want %d: %v", tied, len(names), want, names)
		}
		cfg, err := ReadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.TieWordEmbeddings != tied || cfg.TorchDType != "bfloat16" || cfg.Architectures[0] != "Qwen3ForCausalLM" {
			t.Errorf("config %+v", cfg)
		}
	}
}

func TestLoadRejectsInconsistentCheckpoints(t *testing.T) {
	editConfig := func(edit func(*Config)) func(string) error {
		return func(dir string) error {
			c, err := ReadConfig(dir)
			if err != nil {
				return err
			}
			edit(&c)
			return c.Write(dir)
		}
	}
	tests := []struct {
		name    string
		tied    bool // how the checkpoint is written before edit
		edit    func(dir string) error
		wantErr string
	}{
		{"missing lm_head", true, editConfig(func(c *Config) { c.TieWordEmbeddings = false }), lmHeadName},
		{"wrong shape", true, editConfig(func(c *Config) { c.IntermediateSize = 96 }), "config implies"},
		{"no weights", true, func(dir string) error { return os.Remove(filepath.Join(dir, safetensors.SingleFile)) }, safetensors.SingleFile},
		{"bad config", true, func(dir string) error { return os.WriteFile(filepath.Join(dir, ConfigFile), []byte("{"), 0o644) }, ConfigFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTiny(t, TinyOptions{VocabSize: testVocab, Tied: tc.tied})
			if err := tc.edit(dir); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, nil)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got %v, want error containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestTiedIgnoresLMHead loads an untied checkpoint whose config is switched to tied: the output
// must come from the embeddings, as in Hugging Face, not from the stored lm_head.weight.
func TestTiedIgnoresLMHead(t *testing.T) {
	dir := writeTiny(t, TinyOptions{Seed: 9, VocabSize: testVocab})
	ids := []int{4, 5, 6}
	logits := func() [][]float32 {
		m, err := Load(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := m.Logits(ids)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	untied := logits()
	c, err := ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.TieWordEmbeddings = true
	if err := c.Write(dir); err != nil {
		t.Fatal(err)
	}
	tied := logits()
	if untied[2][0] == tied[2][0] {
		t.Error("logits did not change when the config switched to tied embeddings")
	}
}

// logSoftmaxAt is log softmax(logits)[i], computed independently of the sampler.
func logSoftmaxAt(logits []float32, i int) float64 {
	m := float64(slices.Max(logits))
	sum := 0.0
	for _, z := range logits {
		sum += math.Exp(float64(z) - m)
	}
	return float64(logits[i]) - m - math.Log(sum)
}

func TestLargest(t *testing.T) {
	logits := []float32{3, 1, 3, 5, -2, 5, 0, 3}
	tests := []struct {
		k    int
		want []int
	}{
		{1, []int{3}},
		{2, []int{3, 5}},
		{4, []int{3, 5, 0, 2}}, // ties go to the lower id
		{5, []int{3, 5, 0, 2, 7}},
		{8, []int{3, 5, 0, 2, 7, 1, 6, 4}},
	}
	for _, tc := range tests {
		if got := largest(logits, tc.k, nil); !slices.Equal(got, tc.want) {
			t.Errorf("k=%d: got %v, want %v", tc.k, got, tc.want)
		}
	}
}

func logSoftmax(row []float32) []float64 {
	out := make([]float64, len(row))
	for i := range row {
		out[i] = logSoftmaxAt(row, i)
	}
	return out
}

func TestLogProbsMatchLogits(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 2, VocabSize: testVocab})
	ids := []int{5, 17, 300, 2, 511, 0, 42, 42, 7, 100, 250}
	targets := append(append([]int{}, ids[1:]...), 9)
	rows, err := m.Logits(ids)
	if err != nil {
		t.Fatal(err)
	}
	lps, err := m.LogProbs(ids, targets)
	if err != nil {
		t.Fatal(err)
	}
	for i, lp := range lps {
		want := logSoftmax(rows[i])[targets[i]]
		if math.Abs(float64(lp)-want) > 1e-4 {
			t.Errorf("position %d: log-prob %g, logits give %g", i, lp, want)
		}
	}
	// Distributions must be far from uniform, or agreement above would prove little.
	if spread := logSoftmax(rows[3]); maxOf(spread)-minOf(spread) < 5 {
		t.Errorf("log-probs span only %.2f nats: the tiny model is too flat to test with", maxOf(spread)-minOf(spread))
	}
}

func TestBatchLogProbsIgnorePadding(t *testing.T) {
	m := loadTiny(t, TinyOptions{Seed: 2, VocabSize: testVocab})
	ids := [][]int{{1, 2, 3}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12}, {400}}
	targets := [][]int{{2, 3, 4}, {8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12, 13}, {401}}
	batch, err := m.BatchLogProbs(ids, targets)
	if err != nil {
		t.Fatal(err)
	}
	for b := range ids {
		alone, err := m.LogProbs(ids[b], targets[b])
		if err != nil {
			t.Fatal(err)
		}
		if len(alone) != len(batch[b]) {
			t.Fatalf("row %d: %d values in batch, %d alone", b, len(batch[b]), len(alone))
		}
		for i := range alone {
			if d := math.Abs(float64(alone[i] - batch[b][i])); d > 1e-5 {
				t.Errorf("row %d position %d: batch %g, alone %g", b, i, batch[b][i], alone[i])
			}
		}
	}
}

func TestRejectsBadInput(t *testing.T) {
	m := loadTiny(t, TinyOptions{VocabSize: testVocab})
	tests := []struct {
		name string
		err  error
	}{
		{"id beyond vocab", func() error { _, err := m.Logits([]int{1, testVocab}); return err }()},
		{"negative target", func() error { _, err := m.LogProbs([]int{1}, []int{-1}); return err }()},
		{"length mismatch", func() error { _, err := m.LogProbs([]int{1, 2}, []int{1}); return err }()},
		{"empty prompt", func() error { _, err := m.Generate(nil, GenerateOptions{MaxNew: 1}); return err }()},
		{"no MaxNew", func() error { _, err := m.Generate([]int{1}, GenerateOptions{}); return err }()},
		{"top-p above 1", func() error { _, err := m.Generate([]int{1}, GenerateOptions{MaxNew: 1, TopP: 2}); return err }()},
	}
	for _, tc := range tests {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func minOf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func TestPickDistribution(t *testing.T) {
	logits := []float32{2, 1, 0, -1, 0.5}
	tests := []struct {
		name string
		o    GenerateOptions
		want []float64 // probabilities of the sampling distribution
	}{
		{"temperature 1", GenerateOptions{Temperature: 1}, softmax(logits, 1, 5)},
		{"temperature 0.5", GenerateOptions{Temperature: 0.5}, softmax(logits, 0.5, 5)},
		{"top-k 2", GenerateOptions{Temperature: 1, TopK: 2}, softmax(logits, 1, 2)},
		// Sorted probabilities at T=1 are .563, .207, .126, ...: 0.6 needs the top two.
		{"top-p 0.6", GenerateOptions{Temperature: 1, TopP: 0.6}, softmax(logits, 1, 2)},
		{"top-p 0.5", GenerateOptions{Temperature: 1, TopP: 0.5}, softmax(logits, 1, 1)},
		{"top-k 3 then top-p 0.9", GenerateOptions{Temperature: 1, TopK: 3, TopP: 0.9}, softmax(logits, 1, 3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSampler(tc.o, 1)
			const n = 40000
			counts := make([]float64, len(logits))
			for range n {
				tok, modelLP, sampleLP := s.pick(logits)
				counts[tok]++
				if want := math.Log(tc.want[tok]); math.Abs(sampleLP-want) > 1e-9 {
					t.Fatalf("token %d: sample log-prob %g, want %g", tok, sampleLP, want)
				}
				if want := logSoftmaxAt(logits, tok); math.Abs(modelLP-want) > 1e-12 {
					t.Fatalf("token %d: model log-prob %g, want %g", tok, modelLP, want)
				}
			}
			for i, p := range tc.want {
				// Five standard errors of a binomial frequency.
				if tol := 5 * math.Sqrt(p*(1-p)/n); math.Abs(counts[i]/n-p) > tol+1e-12 {
					t.Errorf("token %d: frequency %.4f, want %.4f ± %.4f", i, counts[i]/n, p, tol)
				}
			}
		})
	}
}

// softmax of logits/temp restricted to the k largest logits (the test vector's order by value
// is 0, 1, 4, 2, 3), as probabilities indexed by token.
func softmax(logits []float32, temp float64, k int) []float64 {
	order := []int{0, 1, 4, 2, 3}[:k]
	p := make([]float64, len(logits))
	sum := 0.0
	for _, i := range order {
		p[i] = math.Exp(float64(logits[i]) / temp)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}
