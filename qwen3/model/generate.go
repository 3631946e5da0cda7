package model

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

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
	samplers := make([]*sampler, n)
	seqs := make([][]int, n)
	for i := range n {
		samplers[i] = newSampler(o, o.Seed+uint64(i))
		seqs[i] = slices.Clone(prompt)
	}
	type choice struct {
		tok               int
		modelLP, sampleLP float64
	}
	picked := make([]choice, n)
	unseen := len(prompt) // trailing tokens of every row the stepper has not processed yet
	for step := range o.MaxNew {
		logits, err := next(seqs, unseen)
		if err != nil {
			return nil, fmt.Errorf("qwen3 generate: step %d: %w", step, err)
		}
		// Rows sample in parallel: each owns its random stream, so the result stays deterministic.
		var wg sync.WaitGroup
		for i := range gens {
			if !gens[i].Stopped {
				wg.Go(func() {
					c := &picked[i]
					c.tok, c.modelLP, c.sampleLP = samplers[i].pick(logits[i])
				})
			}
		}
		wg.Wait()
		done := true
		for i := range gens {
			g := &gens[i]
			if g.Stopped {
				// A finished row keeps riding along in the batch; its outputs are ignored.
				seqs[i] = append(seqs[i], seqs[i][len(seqs[i])-1])
				continue
			}
			c := picked[i]
			g.Tokens = append(g.Tokens, c.tok)
			g.LogProbs = append(g.LogProbs, float32(c.modelLP))
			g.SampleLogProbs = append(g.SampleLogProbs, float32(c.sampleLP))
			g.Stopped = slices.Contains(o.StopIDs, c.tok)
			done = done && g.Stopped
			seqs[i] = append(seqs[i], c.tok)
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

// sampler draws one row's tokens; it keeps the row's random stream and scratch space.
type sampler struct {
	o    GenerateOptions
	rng  *rand.Rand
	cand []int
	w    []float64
}

func newSampler(o GenerateOptions, seed uint64) *sampler {
	return &sampler{o: o, rng: rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))}
}

// pick chooses the next token and returns it with its log-probability under the model
// (temperature 1, full vocabulary) and under the distribution it was drawn from.
func (s *sampler) pick(logits []float32) (tok int, modelLP, sampleLP float64) {
	o := s.o
	top := 0
	for i, z := range logits {
		if z > logits[top] {
			top = i
		}
	}
	lmax := float64(logits[top])
	if o.Temperature == 0 {
		return top, -logSumExp(logits, lmax), 0
	}
	topP := o.TopP > 0 && o.TopP < 1
	topK := o.TopK > 0 && o.TopK < len(logits)
	// Candidates in decreasing order of logit (ties by id) when truncating, else all ids.
	s.cand = s.cand[:0]
	switch {
	case topK:
		s.cand = largest(logits, o.TopK, s.cand)
	case topP:
		for i := range logits {
			s.cand = append(s.cand, i)
		}
		slices.SortStableFunc(s.cand, func(a, b int) int { return cmp.Compare(logits[b], logits[a]) })
	default:
		for i := range logits {
			s.cand = append(s.cand, i)
		}
	}
	// Weights relative to the best candidate, which is the overall maximum.
	s.w = s.w[:0]
	total := 0.0
	for _, i := range s.cand {
		w := math.Exp((float64(logits[i]) - lmax) / o.Temperature)
		s.w = append(s.w, w)
		total += w
	}
	cand, w := s.cand, s.w
	if topP {
		// Keep the shortest prefix (they are sorted) whose probability reaches TopP.
		cum, keep := 0.0, 0
		for keep < len(w) && cum < o.TopP*total {
			cum += w[keep]
			keep++
		}
		cand, w, total = cand[:keep], w[:keep], cum
	}
	u := s.rng.Float64() * total
	j := 0
	for ; j < len(w)-1; j++ {
		if u < w[j] {
			break
		}
		u -= w[j]
	}
	tok = cand[j]
	sampleLP = math.Log(w[j] / total)
	if o.Temperature == 1 && !topK && !topP {
		return tok, sampleLP, sampleLP // the sampler's distribution is the model's
	}
	return tok, float64(logits[tok]) - lmax - logSumExp(logits, lmax), sampleLP
}

// logSumExp is log sum_i exp(logits[i] - lmax), in float64.
func logSumExp(logits []float32, lmax float64) float64 {
	sum := 0.0
	for _, z := range logits {
		sum += math.Exp(float64(z) - lmax)
	}
	return math.Log(sum)
}

// largest appends to dst the ids of the k largest logits in decreasing order, ties by id. It
// keeps a sorted buffer of k, so a whole vocabulary costs one pass plus rare insertions.
func largest(logits []float32, k int, dst []int) []int {
	for i, z := range logits {
		n := len(dst)
		if n == k && z <= logits[dst[n-1]] {
			continue
		}
		// Insert after every id with a logit >= z: earlier ids win ties.
		at := sort.Search(n, func(j int) bool { return logits[dst[j]] < z })
		if n < k {
			dst = append(dst, 0)
		}
		copy(dst[at+1:], dst[at:len(dst)-1])
		dst[at] = i
	}
	return dst
}
