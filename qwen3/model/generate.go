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

// GenerateOptions controls Generate and GenerateGroup. The zero value (apart from MaxNew) decodes
// greedily; TopK and TopP apply only when sampling.
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

// Generation is one generated continuation.
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

// Generate continues prompt by up to o.MaxNew tokens.
func (m *Model) Generate(prompt []int, o GenerateOptions) (Generation, error) {
	gens, err := m.GenerateGroup(prompt, 1, o)
	if err != nil {
		return Generation{}, err
	}
	return gens[0], nil
}

// GenerateGroup draws n continuations of the same prompt, decoding them together: the prompt is
// processed once and every step runs the n rows as one batch, which costs far less than n
// separate calls (a group of samples per prompt is what GRPO-style training needs). Row i is
// exactly what Generate returns with o.Seed+i.
func (m *Model) GenerateGroup(prompt []int, n int, o GenerateOptions) ([]Generation, error) {
	switch {
	case len(prompt) == 0:
		return nil, fmt.Errorf("qwen3 generate: empty prompt")
	case n <= 0:
		return nil, fmt.Errorf("qwen3 generate: group size must be positive, got %d", n)
	case o.MaxNew <= 0:
		return nil, fmt.Errorf("qwen3 generate: MaxNew must be positive, got %d", o.MaxNew)
	case o.Temperature < 0 || o.TopK < 0 || o.TopP < 0 || o.TopP > 1:
		return nil, fmt.Errorf("qwen3 generate: invalid sampling options (temperature %g, top-k %d, top-p %g)",
			o.Temperature, o.TopK, o.TopP)
	}
	if err := m.checkIDs("prompt", prompt); err != nil {
		return nil, fmt.Errorf("qwen3 generate: %w", err)
	}
	if limit := m.Config.MaxPositionEmbeddings; limit > 0 && len(prompt)+o.MaxNew > limit {
		return nil, fmt.Errorf("qwen3 generate: %d prompt + %d new tokens exceed max_position_embeddings %d",
			len(prompt), o.MaxNew, limit)
	}
	next := m.cachedStepper(n, len(prompt)+o.MaxNew)
	if o.NoCache {
		next = m.uncachedStepper()
	}
	gens := make([]Generation, n)
	rngs := make([]*rand.Rand, n)
	seqs := make([][]int, n)
	for i := range n {
		rngs[i] = rand.New(rand.NewPCG(o.Seed+uint64(i), 0x5851f42d4c957f2d))
		seqs[i] = slices.Clone(prompt)
	}
	unseen := len(prompt) // trailing tokens of every row the stepper has not processed yet
	for step := range o.MaxNew {
		logits, err := next(seqs, unseen)
		if err != nil {
			return nil, fmt.Errorf("qwen3 generate: step %d: %w", step, err)
		}
		done := true
		for i := range gens {
			g := &gens[i]
			if g.Stopped {
				// A finished row keeps riding along in the batch; its outputs are ignored.
				seqs[i] = append(seqs[i], seqs[i][len(seqs[i])-1])
				continue
			}
			tok, modelLP, sampleLP := pick(logits[i], o, rngs[i])
			g.Tokens = append(g.Tokens, tok)
			g.LogProbs = append(g.LogProbs, float32(modelLP))
			g.SampleLogProbs = append(g.SampleLogProbs, float32(sampleLP))
			g.Stopped = slices.Contains(o.StopIDs, tok)
			done = done && g.Stopped
			seqs[i] = append(seqs[i], tok)
		}
		if done {
			break
		}
		unseen = 1
	}
	return gens, nil
}

// stepper returns the next-token logits after each row of seqs (rows of equal length), given
// how many trailing tokens of every row it has not processed yet.
type stepper func(seqs [][]int, unseen int) ([][]float32, error)

func (m *Model) uncachedStepper() stepper {
	return func(seqs [][]int, _ int) ([][]float32, error) {
		out := make([][]float32, len(seqs))
		for i, seq := range seqs {
			rows, err := m.Logits(seq)
			if err != nil {
				return nil, err
			}
			out[i] = rows[len(rows)-1]
		}
		return out, nil
	}
}

// cachedStepper keeps, per layer, a key/value cache of `rows` rows of capacity bucket(total) and
// feeds it only the unseen tokens: the prompt once (padded to a power of two), then one token
// per row and step.
func (m *Model) cachedStepper(rows, total int) stepper {
	c := m.Config
	capacity := bucket(total)
	caches := make([]*tensors.Tensor, 2*c.NumHiddenLayers)
	for i := range caches {
		caches[i] = tensors.FromShape(shapes.Make(dtypes.Float32, rows, capacity, c.NumKeyValueHeads, c.HeadDim))
	}
	return func(seqs [][]int, unseen int) ([][]float32, error) {
		start := len(seqs[0]) - unseen
		fresh := make([][]int, len(seqs))
		for i, s := range seqs {
			fresh[i] = s[start:]
		}
		// Pad to a power of two only where the padding still fits in the cache: the cache write
		// clamps its start so that the whole update fits, which would shift real tokens.
		width := bucket(unseen)
		if start+width > capacity {
			width = unseen
		}
		args := []any{padRowsTo(fresh, width), int32(start), int32(unseen - 1)}
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
		flat := tensors.MustCopyFlatData[float32](outs[0])
		outs[0].FinalizeAll()
		v := c.VocabSize
		logits := make([][]float32, len(seqs))
		for i := range logits {
			logits[i] = flat[i*v : (i+1)*v : (i+1)*v]
		}
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
