package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
)

// GenerateOptions controls Generate. The zero value (apart from MaxNew) decodes greedily.
type GenerateOptions struct {
	MaxNew      int     // number of tokens to generate at most (required, > 0)
	Temperature float64 // 0: greedy (argmax); > 0: sample from softmax(logits / Temperature)
	TopK        int     // > 0: sample only among the TopK highest logits
	TopP        float64 // in (0, 1): sample only from the smallest set of tokens whose probability reaches TopP
	Seed        uint64  // seeds the sampler: the same seed, prompt and options give the same tokens
	StopIDs     []int   // generation ends after emitting any of these (it is included in Tokens)
	// NoCache recomputes the whole sequence at every step instead of using the key/value cache:
	// much slower, and there to check the cache against.
	NoCache bool
}

// Generation is what Generate produced.
type Generation struct {
	Tokens []int // the new tokens, without the prompt
	// LogProbs[i] is log p(Tokens[i] | prompt, Tokens[:i]) under the model itself: the full
	// softmax of the raw logits, temperature 1, nothing truncated. This is the number a trainer
	// recomputes from the same weights.
	LogProbs []float32
	// SampleLogProbs[i] is the log-probability of Tokens[i] under the distribution it was actually
	// drawn from: after temperature, top-k and top-p. It equals LogProbs only at temperature 1
	// without truncation; greedy decoding gives 0 (the argmax had probability 1). Treating these
	// as the policy's log-probabilities is the sampler/trainer mismatch that off-policy
	// corrections exist for.
	SampleLogProbs []float32
	Stopped        bool // ended on one of StopIDs rather than at MaxNew
}

// Generate continues prompt by up to o.MaxNew tokens, one sequence at a time.
func (m *Model) Generate(prompt []int, o GenerateOptions) (Generation, error) {
	if len(prompt) == 0 {
		return Generation{}, fmt.Errorf("qwen3 generate: empty prompt")
	}
	if o.MaxNew <= 0 {
		return Generation{}, fmt.Errorf("qwen3 generate: MaxNew must be positive, got %d", o.MaxNew)
	}
	if o.Temperature < 0 || o.TopK < 0 || o.TopP < 0 || o.TopP > 1 {
		return Generation{}, fmt.Errorf("qwen3 generate: invalid sampling options (temperature %g, top-k %d, top-p %g)",
			o.Temperature, o.TopK, o.TopP)
	}
	if err := m.checkIDs("prompt", prompt); err != nil {
		return Generation{}, fmt.Errorf("qwen3 generate: %w", err)
	}
	if limit := m.Config.MaxPositionEmbeddings; limit > 0 && len(prompt)+o.MaxNew > limit {
		return Generation{}, fmt.Errorf("qwen3 generate: %d prompt + %d new tokens exceed max_position_embeddings %d",
			len(prompt), o.MaxNew, limit)
	}
	next := m.cachedStepper(len(prompt) + o.MaxNew)
	if o.NoCache {
		next = m.uncachedStepper()
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5851f42d4c957f2d))
	var gen Generation
	seq := slices.Clone(prompt)
	fresh := prompt // tokens the stepper has not seen yet
	for range o.MaxNew {
		logits, err := next(seq, fresh)
		if err != nil {
			return gen, fmt.Errorf("qwen3 generate: step %d: %w", len(gen.Tokens), err)
		}
		tok, modelLP, sampleLP := pick(logits, o, rng)
		gen.Tokens = append(gen.Tokens, tok)
		gen.LogProbs = append(gen.LogProbs, float32(modelLP))
		gen.SampleLogProbs = append(gen.SampleLogProbs, float32(sampleLP))
		if slices.Contains(o.StopIDs, tok) {
			gen.Stopped = true
			break
		}
		seq = append(seq, tok)
		fresh = seq[len(seq)-1:]
	}
	return gen, nil
}

// stepper returns the next-token logits after seq, given the suffix of seq it has not seen.
type stepper func(seq, fresh []int) ([]float32, error)

func (m *Model) uncachedStepper() stepper {
	return func(seq, _ []int) ([]float32, error) {
		rows, err := m.Logits(seq)
		if err != nil {
			return nil, err
		}
		return rows[len(rows)-1], nil
	}
}

// cachedStepper keeps one key/value cache of capacity bucket(total) per layer and feeds it only
// the new tokens: the prompt once (padded to a power of two), then one token per step.
func (m *Model) cachedStepper(total int) stepper {
	c := m.Config
	capacity := bucket(total)
	caches := make([]*tensors.Tensor, 2*c.NumHiddenLayers)
	for i := range caches {
		caches[i] = tensors.FromShape(shapes.Make(dtypes.Float32, 1, capacity, c.NumKeyValueHeads, c.HeadDim))
	}
	return func(seq, fresh []int) ([]float32, error) {
		start := len(seq) - len(fresh)
		// Pad to a power of two only where the padding still fits in the cache: the cache write
		// clamps its start so that the whole update fits, which would shift real tokens.
		width := bucket(len(fresh))
		if start+width > capacity {
			width = len(fresh)
		}
		args := []any{padRowsTo([][]int{fresh}, width), int32(start), int32(len(fresh) - 1)}
		for _, t := range caches {
			args = append(args, t)
		}
		m.mu.Lock()
		outs, err := m.step.Call(args...)
		m.mu.Unlock()
		if err != nil {
			return nil, err
		}
		for _, t := range caches {
			t.FinalizeAll()
		}
		copy(caches, outs[1:])
		logits := tensors.MustCopyFlatData[float32](outs[0])
		outs[0].FinalizeAll()
		return logits, nil
	}
}

// pick chooses the next token and returns it with its log-probability under the model
// (temperature 1, full vocabulary) and under the distribution it was drawn from.
func pick(logits []float32, o GenerateOptions, rng *rand.Rand) (tok int, modelLP, sampleLP float64) {
	if o.Temperature == 0 {
		tok = 0
		for i, z := range logits {
			if z > logits[tok] {
				tok = i
			}
		}
		return tok, logSoftmaxAt(logits, tok), 0
	}
	// Candidates in decreasing order of logit (ties by id), truncated by top-k.
	cand := make([]int, len(logits))
	for i := range cand {
		cand[i] = i
	}
	if o.TopK > 0 || (o.TopP > 0 && o.TopP < 1) {
		sort.SliceStable(cand, func(a, b int) bool { return logits[cand[a]] > logits[cand[b]] })
	}
	if o.TopK > 0 && o.TopK < len(cand) {
		cand = cand[:o.TopK]
	}
	zmax := math.Inf(-1)
	for _, i := range cand {
		zmax = max(zmax, float64(logits[i])/o.Temperature)
	}
	w := make([]float64, len(cand))
	total := 0.0
	for j, i := range cand {
		w[j] = math.Exp(float64(logits[i])/o.Temperature - zmax)
		total += w[j]
	}
	if o.TopP > 0 && o.TopP < 1 {
		// Keep the shortest prefix (they are sorted) whose probability reaches TopP.
		cum, keep := 0.0, 0
		for keep < len(w) && cum < o.TopP*total {
			cum += w[keep]
			keep++
		}
		cand, w, total = cand[:keep], w[:keep], cum
	}
	u := rng.Float64() * total
	j := 0
	for ; j < len(w)-1; j++ {
		if u < w[j] {
			break
		}
		u -= w[j]
	}
	tok = cand[j]
	return tok, logSoftmaxAt(logits, tok), math.Log(w[j] / total)
}

// logSoftmaxAt is log softmax(logits)[i], computed in float64.
func logSoftmaxAt(logits []float32, i int) float64 {
	zmax := math.Inf(-1)
	for _, z := range logits {
		zmax = max(zmax, float64(z))
	}
	sum := 0.0
	for _, z := range logits {
		sum += math.Exp(float64(z) - zmax)
	}
	return float64(logits[i]) - zmax - math.Log(sum)
}
