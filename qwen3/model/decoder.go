package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// Decoder decodes a batch of rows that each grow at their own pace: the rows of a group of
// multi-turn episodes, which take turns of different lengths and receive tool responses of
// different lengths between them. Its key/value cache stays on the backend from step to step
// (the step's outputs are its next inputs) and every row keeps its own length in it, so a new
// turn feeds only the row's new tokens, where Generate would re-feed the whole context. Sampling
// runs on the backend too: a step sends back three numbers per row, not the row's logits.
//
// A Decoder is not safe for concurrent use; after an error it must not be used again. Its steps
// take the Model's lock, like every other call.
type Decoder struct {
	m        *Model
	capacity int
	caches   []*tensors.Tensor // k0, v0, k1, v1, ...: [rows, capacity, KV, D] each, on the backend
	toks     [][]int           // each row's tokens so far
	// cached counts the tokens of each row the cache holds: all of toks but the last sampled
	// token, which the next feed of the row carries in first.
	cached []int
}

// NewDecoder makes a decoder of rows empty rows whose cache holds capacity tokens per row
// (rounded up to a power of two). A row that would outgrow it makes Generate rebuild the cache
// larger, which costs a prefill of every row: size it for the longest row expected.
func (m *Model) NewDecoder(rows, capacity int) (*Decoder, error) {
	if rows <= 0 || capacity <= 0 {
		return nil, fmt.Errorf("qwen3 decoder: rows (%d) and capacity (%d) must be positive", rows, capacity)
	}
	d := &Decoder{m: m, toks: make([][]int, rows), cached: make([]int, rows)}
	d.reset(bucket(capacity))
	return d, nil
}

// reset gives the decoder an empty cache of the given capacity.
func (d *Decoder) reset(capacity int) {
	c := d.m.Config
	for _, t := range d.caches {
		t.FinalizeAll()
	}
	d.capacity = capacity
	d.caches = make([]*tensors.Tensor, 2*c.NumHiddenLayers)
	for i := range d.caches {
		d.caches[i] = tensors.FromShape(shapes.Make(dtypes.Float32, len(d.toks), capacity, c.NumKeyValueHeads, c.HeadDim))
	}
	clear(d.cached)
}

// Rows is the number of rows.
func (d *Decoder) Rows() int { return len(d.toks) }

// Tokens returns row i's tokens so far: everything fed and sampled, in order.
func (d *Decoder) Tokens(i int) []int { return slices.Clone(d.toks[i]) }

// Capacity is the cache's length per row: what NewDecoder was given, rounded up, or more once
// a row outgrew it.
func (d *Decoder) Capacity() int { return d.capacity }

// DecodeCompilations is the number of distinct input shapes (rows, step width, cache capacity)
// the decoders of m have run their step with: each compiled a graph once. Widths and
// capacities are powers of two, so a run stays at a handful.
func (m *Model) DecodeCompilations() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.decodeShapes)
}

// Generate appends feed[i] to row i for every row with a non-empty feed, then samples a
// continuation for each of those rows, all together, until the row emits one of o.StopIDs or
// has o.MaxNew new tokens; rows with an empty feed stay as they are and get a zero Generation.
// The sampled tokens stay in their rows: the next feed of a row continues after them.
//
// Row i draws one uniform per token from its own random stream, seeded by seeds[i] alone, and
// the step computes each row from that row's tokens alone, so the other rows of the batch do
// not change its tokens; only the rounding can differ, where the backend picks its kernels by
// the batch's shape (about 1e-6 in a log-prob on the pure-Go backend, which can flip a draw
// that lands that close to a token boundary). Temperature 0 decodes greedily. TopK, TopP and
// NoCache are not supported (GenerateGroup samples with them).
func (d *Decoder) Generate(feed [][]int, o GenerateOptions, seeds []uint64) ([]Generation, error) {
	if err := d.check(feed, o, seeds); err != nil {
		return nil, fmt.Errorf("qwen3 decoder: %w", err)
	}
	rows := len(d.toks)
	gens := make([]Generation, rows)
	running := make([]bool, rows)
	rngs := make([]*rand.Rand, rows)
	longest := 0
	for i, f := range feed {
		if len(f) > 0 {
			running[i] = true
			rngs[i] = rand.New(rand.NewPCG(seeds[i], 0x5851f42d4c957f2d))
			d.toks[i] = append(d.toks[i], f...)
			longest = max(longest, len(d.toks[i]))
		}
	}
	if longest == 0 {
		return gens, nil
	}
	// Every token but the last sampled one is written to the cache.
	if need := longest + o.MaxNew - 1; need > d.capacity {
		if err := d.grow(bucket(need)); err != nil {
			return nil, fmt.Errorf("qwen3 decoder: growing the cache to %d: %w", bucket(need), err)
		}
	}
	u := make([]float32, rows)
	for step := 0; ; step++ {
		feeds := make([][]int, rows)
		for i, r := range running {
			if r {
				feeds[i] = d.toks[i][d.cached[i]:]
				u[i] = uniform(rngs[i])
			}
		}
		tok, lp, slp, err := d.step(feeds, u, o.Temperature)
		if err != nil {
			return nil, fmt.Errorf("qwen3 decoder: step %d: %w", step, err)
		}
		more := false
		for i, r := range running {
			if !r {
				continue
			}
			g := &gens[i]
			g.Tokens = append(g.Tokens, tok[i])
			g.LogProbs = append(g.LogProbs, lp[i])
			g.SampleLogProbs = append(g.SampleLogProbs, slp[i])
			g.Stopped = slices.Contains(o.StopIDs, tok[i])
			d.toks[i] = append(d.toks[i], tok[i])
			running[i] = !g.Stopped && len(g.Tokens) < o.MaxNew
			more = more || running[i]
		}
		if !more {
			return gens, nil
		}
	}
}

// check validates Generate's arguments.
func (d *Decoder) check(feed [][]int, o GenerateOptions, seeds []uint64) error {
	switch {
	case len(feed) != len(d.toks) || len(seeds) != len(d.toks):
		return fmt.Errorf("%d rows, given %d feeds and %d seeds", len(d.toks), len(feed), len(seeds))
	case o.MaxNew <= 0:
		return fmt.Errorf("MaxNew must be positive, got %d", o.MaxNew)
	case o.Temperature < 0:
		return fmt.Errorf("negative temperature %g", o.Temperature)
	case o.TopK != 0 || o.TopP != 0 || o.NoCache:
		return errors.New("TopK, TopP and NoCache are not supported: GenerateGroup samples with them")
	}
	limit := d.m.Config.MaxPositionEmbeddings
	for i, f := range feed {
		if err := d.m.checkIDs(fmt.Sprintf("feed[%d]", i), f); err != nil {
			return err
		}
		if n := len(d.toks[i]) + len(f) + o.MaxNew; len(f) > 0 && limit > 0 && n > limit {
			return fmt.Errorf("row %d would reach %d tokens, beyond max_position_embeddings %d", i, n, limit)
		}
	}
	return nil
}

// uniform draws from (0, 1) a float32 that the step's float32 arithmetic holds exactly: k + 1/2
// over 2^23 for a random 23-bit k. Neither end is reachable, so the inverse CDF never lands on a
// token of probability 0.
func uniform(r *rand.Rand) float32 {
	return (float32(r.Uint32()>>9) + 0.5) / (1 << 23)
}

// grow rebuilds the cache with the given capacity by feeding every row its cached tokens again,
// in one step; the token that step samples is dropped.
func (d *Decoder) grow(capacity int) error {
	feeds := make([][]int, len(d.toks))
	for i, n := range d.cached {
		feeds[i] = d.toks[i][:n]
	}
	d.reset(capacity)
	if !slices.ContainsFunc(feeds, func(f []int) bool { return len(f) > 0 }) {
		return nil
	}
	_, _, _, err := d.step(feeds, make([]float32, len(d.toks)), 0)
	return err
}

// step runs decodeGraph once: feeds[i] are appended to row i's cache (none: the row is idle) and
// each fed row gets a token sampled with u[i] after its last fed id.
func (d *Decoder) step(feeds [][]int, u []float32, temperature float64) (tok []int, lp, slp []float32, err error) {
	rows := len(d.toks)
	starts, counts := make([]int32, rows), make([]int32, rows)
	longest := 0
	for i, f := range feeds {
		starts[i], counts[i] = int32(d.cached[i]), int32(len(f))
		longest = max(longest, len(f))
	}
	// One token per row is the steady state: no padding then. Longer feeds are padded to a
	// power of two so that a few compiled shapes serve them all.
	width := 1
	if longest > 1 {
		width = bucket(longest)
	}
	args := []any{padRowsTo(feeds, width), starts, counts, u, float32(temperature)}
	// The step returns the new caches: donating the old ones lets the backend write them in place
	// instead of holding two copies.
	for _, t := range d.caches {
		donated, err := graph.DonateTensorBuffer(t, d.m.backend, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		args = append(args, donated)
	}
	d.m.mu.Lock()
	d.m.decodeShapes[[3]int{rows, width, d.capacity}] = true
	outs, err := d.m.decode.Call(args...)
	d.m.mu.Unlock()
	if err != nil {
		return nil, nil, nil, err
	}
	for _, t := range d.caches {
		t.FinalizeAll()
	}
	copy(d.caches, outs[3:])
	for i, f := range feeds {
		d.cached[i] += len(f)
	}
	ids := tensors.MustCopyFlatData[int32](outs[0])
	lp = tensors.MustCopyFlatData[float32](outs[1])
	slp = tensors.MustCopyFlatData[float32](outs[2])
	tok = make([]int, rows)
	for i, id := range ids {
		tok[i] = int(id)
	}
	for _, t := range outs[:3] {
		t.FinalizeAll()
	}
	return tok, lp, slp, nil
}
