package agentrl

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/model"
)

// toyConfig is a Qwen3-shaped config small enough to count by hand: V = 10, d = 4, ff = 6, one
// layer, 2 query heads and 1 key/value head of dimension 2 (q = 4, kv = 2).
func toyConfig(tied bool) model.Config {
	return model.Config{VocabSize: 10, HiddenSize: 4, IntermediateSize: 6, NumHiddenLayers: 1,
		NumAttentionHeads: 2, NumKeyValueHeads: 1, HeadDim: 2, TieWordEmbeddings: tied}
}

func TestCountParamsByHand(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  model.Config
		want ParamCount
	}{
		// attention 2·4·4 + 2·4·2 = 48; MLP 3·4·6 = 72; norms 2·4 + 2·2 + 4 = 16; embedding 40.
		{"toy tied", toyConfig(true), ParamCount{Embedding: 40, Attention: 48, MLP: 72, Norms: 16}},
		{"toy untied", toyConfig(false), ParamCount{Embedding: 40, Attention: 48, MLP: 72, Norms: 16, Head: 40}},
		// Qwen3-0.6B: 151936·1024; 28·(2·1024·2048 + 2·1024·1024); 28·3·1024·3072; 28·(2·1024 + 2·128) + 1024.
		{"Qwen3-0.6B", Qwen3Models[0].Config, ParamCount{Embedding: 155582464, Attention: 176160768,
			MLP: 264241152, Norms: 65536}},
	} {
		got := CountParams(c.cfg)
		if got != c.want {
			t.Errorf("%s: CountParams = %+v, want %+v", c.name, got, c.want)
		}
		if got.Total() != c.cfg.NumParameters() {
			t.Errorf("%s: total %d, Config.NumParameters() %d", c.name, got.Total(), c.cfg.NumParameters())
		}
	}
}

func TestQwen3ModelsMatchPublishedCounts(t *testing.T) {
	// 596,049,920 is qwen3/model's own count for Qwen3-0.6B; Qwen3-8B's model card on Hugging Face
	// gives 8.2B weights, 6.95B of them outside the embedding and the head.
	if got := CountParams(Qwen3Models[0].Config).Total(); got != 596049920 {
		t.Errorf("Qwen3-0.6B: %d weights, want 596049920", got)
	}
	p := CountParams(Qwen3Models[3].Config)
	if Qwen3Models[3].Name != "Qwen3-8B" || math.Round(float64(p.Total())/1e8) != 82 ||
		math.Round(float64(p.Total()-p.Embedding-p.Head)/1e7) != 695 {
		t.Errorf("%s: %d weights, %d outside embedding and head; want 8.2B and 6.95B", Qwen3Models[3].Name,
			p.Total(), p.Total()-p.Embedding-p.Head)
	}
	for _, m := range Qwen3Models {
		if err := m.Config.Validate(); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
}

// storeCount loads a checkpoint written by model.WriteTiny and counts the weights of the loaded
// model's variables, by component, from their names.
func storeCount(t *testing.T, o model.TinyOptions) (ParamCount, model.Config) {
	t.Helper()
	dir := t.TempDir()
	cfg, err := model.WriteTiny(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var p ParamCount
	for v := range m.Store.IterVariables() {
		n, path := v.Shape().Size(), v.Path()
		switch {
		case strings.Contains(path, "embed_tokens"):
			p.Embedding += n
		case strings.Contains(path, "lm_head"):
			p.Head += n
		case strings.Contains(path, "norm"):
			p.Norms += n
		case strings.Contains(path, "self_attn"):
			p.Attention += n
		case strings.Contains(path, "mlp"):
			p.MLP += n
		default:
			t.Fatalf("variable %s belongs to no component", path)
		}
	}
	return p, cfg
}

func TestCountParamsMatchesALoadedCheckpoint(t *testing.T) {
	for _, o := range []model.TinyOptions{
		{Seed: 1, VocabSize: 300, Tied: true},
		{Seed: 2, VocabSize: 300, Tied: false},
		{Seed: 3, VocabSize: 257, Tied: false, HiddenSize: 48, IntermediateSize: 80, NumHiddenLayers: 3,
			NumAttentionHeads: 6, NumKeyValueHeads: 2, HeadDim: 12},
	} {
		loaded, cfg := storeCount(t, o)
		if got := CountParams(cfg); got != loaded {
			t.Errorf("tied=%v: CountParams = %+v, the loaded model's variables %+v", o.Tied, got, loaded)
		}
		if loaded.Total() != cfg.NumParameters() {
			t.Errorf("tied=%v: the loaded model has %d weights, NumParameters says %d", o.Tied, loaded.Total(), cfg.NumParameters())
		}
		if (loaded.Head == 0) != o.Tied {
			t.Errorf("tied=%v: the loaded model's head has %d weights", o.Tied, loaded.Head)
		}
	}
}

func TestForwardFLOPs(t *testing.T) {
	for _, c := range []struct {
		cfg  model.Config
		n    int
		want float64
	}{
		// MatmulParams = 48 + 72 + 40 = 160 (the head counts when tied); attention 2·1·4·3·4 = 96.
		{toyConfig(true), 3, 2*160*3 + 96},
		{toyConfig(false), 3, 2*160*3 + 96}, // untying adds weights, not FLOPs
		{toyConfig(true), 1, 2*160 + 2*1*4*1*2},
	} {
		if got := ForwardFLOPs(c.cfg, c.n); got != c.want {
			t.Errorf("ForwardFLOPs(tied=%v, %d) = %v, want %v", c.cfg.TieWordEmbeddings, c.n, got, c.want)
		}
		if got := TrainFLOPs(c.cfg, c.n, false); got != 3*c.want {
			t.Errorf("TrainFLOPs = %v, want %v", got, 3*c.want)
		}
		if got := TrainFLOPs(c.cfg, c.n, true); got != 4*c.want {
			t.Errorf("TrainFLOPs with recomputation = %v, want %v", got, 4*c.want)
		}
	}
	// The attention term is the sum over positions t of 4·q·t per layer.
	cfg := Qwen3Models[2].Config
	q := float64(cfg.NumAttentionHeads * cfg.HeadDim)
	sum := 0.0
	for pos := 1; pos <= 777; pos++ {
		sum += float64(cfg.NumHiddenLayers) * 4 * q * float64(pos)
	}
	if got := ForwardFLOPs(cfg, 777) - 2*float64(MatmulParams(cfg))*777; got != sum {
		t.Errorf("attention FLOPs %v, summed by position %v", got, sum)
	}
}

func TestMemoryArithmetic(t *testing.T) {
	small, large := Qwen3Models[0].Config, Qwen3Models[5].Config
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"KV per token, Qwen3-0.6B, bf16", KVBytesPerToken(small, 2), 2 * 28 * 8 * 128 * 2},
		{"KV per token, Qwen3-32B, fp8", KVBytesPerToken(large, 1), 2 * 64 * 8 * 128},
		{"Adam state, Qwen3-0.6B", TrainingState(small).Total(), 16 * 596049920},
		{"layer values, Qwen3-0.6B", LayerValues(small, 1000, false), 4*1024 + 3*2048 + 3*1024 + 3*3072},
		{"layer values with scores", LayerValues(small, 1000, true), 22528 + 16*1000},
		// toy: 4·4 + 3·4 + 3·2 + 3·6 = 52 values per layer; logits 4·10 bytes per token.
		{"toy activations", ActivationBytes(toyConfig(true), 5, 5, ActivationOptions{}), 5 * (2*52 + 40)},
		{"toy activations, scores", ActivationBytes(toyConfig(true), 5, 5, ActivationOptions{Scores: true}), 5 * (2*(52+2*5) + 40)},
		{"toy activations, recomputed", ActivationBytes(toyConfig(true), 5, 5, ActivationOptions{Recompute: true}), 5 * (2*(4+52) + 40)},
		{"BugFix tokens, 5 calls", BugFixTokens(5), 1059},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	s := TrainingState(small)
	if s.Weights != s.Grads || s.Master != 2*s.Weights || s.Moments != 4*s.Weights {
		t.Errorf("Adam state %+v: want bf16 weights and gradients, fp32 master weights and two fp32 moments", s)
	}
	// With many layers, recomputation keeps less than storing every layer.
	if ActivationBytes(small, 100, 100, ActivationOptions{Recompute: true}) >= ActivationBytes(small, 100, 100, ActivationOptions{}) {
		t.Error("recomputation does not save memory on Qwen3-0.6B")
	}
}

func TestRingAllReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ replicas, size int }{{1, 5}, {2, 6}, {3, 7}, {4, 12}, {5, 3}, {8, 64}} {
		vs := make([][]float32, c.replicas)
		want := make([]float64, c.size)
		for r := range vs {
			vs[r] = make([]float32, c.size)
			for i := range vs[r] {
				vs[r][i] = float32(rng.IntN(100) - 50) // integers: every summation order is exact
				want[i] += float64(vs[r][i])
			}
		}
		sent := RingAllReduce(vs)
		for r := range vs {
			for i, w := range want {
				if float64(vs[r][i]) != w {
					t.Fatalf("%d replicas: replica %d value %d = %v, want %v", c.replicas, r, i, vs[r][i], w)
				}
			}
		}
		wantSent := 0
		if c.replicas > 1 {
			// every replica sends 2(n−1) chunks, the largest of which has ⌈size/n⌉ values
			wantSent = 2 * (c.replicas - 1) * ((c.size + c.replicas - 1) / c.replicas)
		}
		if c.size%c.replicas == 0 && float64(sent) != RingAllReduceBytes(c.replicas, float64(c.size)) {
			t.Errorf("%d replicas of %d values: sent %d, RingAllReduceBytes %v", c.replicas, c.size, sent,
				RingAllReduceBytes(c.replicas, float64(c.size)))
		}
		if sent > wantSent {
			t.Errorf("%d replicas of %d values: a replica sent %d values, at most %d expected", c.replicas, c.size, sent, wantSent)
		}
	}
	if got := RingAllReduceBytes(4, 1000); got != 1500 {
		t.Errorf("RingAllReduceBytes(4, 1000) = %v, want 1500", got)
	}
	// Floats: every replica ends with the very same bits.
	vs := [][]float32{{0.1, 0.2, 0.3}, {1e-8, 3, -0.7}, {5, 1e7, 0.11}}
	RingAllReduce(vs)
	if !slices.Equal(vs[0], vs[1]) || !slices.Equal(vs[1], vs[2]) {
		t.Errorf("replicas differ after the all-reduce: %v", vs)
	}
}
