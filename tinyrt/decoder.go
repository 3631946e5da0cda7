package tinyrt

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Config sizes the model: the fields of agentrl.TinyAgentConfig that shape it, and the
// vocabulary size.
type Config struct {
	Dim, Layers, Heads, Context, Vocab int
}

// block is one transformer layer's weights, row-major as TinyAgent stores them: a matrix [in,out]
// holds the weights out of input i at [i·out : (i+1)·out].
type block struct {
	ln1G, ln1B, qkv, qkvB, out, outB, ln2G, ln2B, mlp1, mlp1B, mlp2, mlp2B []float32
}

// Decoder runs TinyAgent forward over its own copy of the weights. It is safe for concurrent use:
// rows carry all state.
type Decoder struct {
	cfg            Config
	tokEmb, posEmb []float32
	blocks         []block
	lnfG, lnfB     []float32
	head           []float32

	mu   sync.Mutex
	rows []*Row // every row handed out, for Free
}

// New copies the weights that weight returns by TinyAgent's names (tok_emb, pos_emb,
// layerL/qkv, …, lnf_g, lnf_b, head) and checks every size.
func New(cfg Config, weight func(name string) ([]float32, error)) (*Decoder, error) {
	if cfg.Dim <= 0 || cfg.Layers <= 0 || cfg.Heads <= 0 || cfg.Dim%cfg.Heads != 0 || cfg.Context <= 0 || cfg.Vocab <= 0 {
		return nil, fmt.Errorf("tinyrt: invalid config %+v", cfg)
	}
	d, v := cfg.Dim, cfg.Vocab
	get := func(name string, n int) ([]float32, error) {
		w, err := weight(name)
		if err != nil {
			return nil, fmt.Errorf("tinyrt: weight %s: %w", name, err)
		}
		if len(w) != n {
			return nil, fmt.Errorf("tinyrt: weight %s has %d values, want %d", name, len(w), n)
		}
		return slices.Clone(w), nil
	}
	m := &Decoder{cfg: cfg, blocks: make([]block, cfg.Layers)}
	var err error
	load := func(dst *[]float32, name string, n int) {
		if err == nil {
			*dst, err = get(name, n)
		}
	}
	load(&m.tokEmb, "tok_emb", v*d)
	load(&m.posEmb, "pos_emb", cfg.Context*d)
	for l := range m.blocks {
		b, p := &m.blocks[l], fmt.Sprintf("layer%d/", l)
		load(&b.ln1G, p+"ln1_g", d)
		load(&b.ln1B, p+"ln1_b", d)
		load(&b.qkv, p+"qkv", d*3*d)
		load(&b.qkvB, p+"qkv_b", 3*d)
		load(&b.out, p+"out", d*d)
		load(&b.outB, p+"out_b", d)
		load(&b.ln2G, p+"ln2_g", d)
		load(&b.ln2B, p+"ln2_b", d)
		load(&b.mlp1, p+"mlp1", d*4*d)
		load(&b.mlp1B, p+"mlp1_b", 4*d)
		load(&b.mlp2, p+"mlp2", 4*d*d)
		load(&b.mlp2B, p+"mlp2_b", d)
	}
	load(&m.lnfG, "lnf_g", d)
	load(&m.lnfB, "lnf_b", d)
	load(&m.head, "head", d*v)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Row is one sequence being decoded: its key/value cache and the logits after its last token.
type Row struct {
	n      int         // tokens fed so far; the next one goes to position n
	room   int         // positions the caches hold
	keys   [][]float32 // per layer, [Dim][room]: component c of the key at position p is at c·room+p
	values [][]float32 // per layer, [room][Dim]
	slab   []float32   // the memory that keys, values and Logits share; nil once freed
	// Logits are the next-token logits after the last token fed, one per vocabulary entry.
	Logits []float32
}

// Len is the number of tokens the row holds.
func (r *Row) Len() int { return r.n }

// slabClass is the granularity of row memory (floats): rows of nearby lengths share a pool.
const slabClass = 8192

// slabPools holds the memory of freed rows by size class. A sampling call's caches are tens of
// megabytes, and memory fresh from the system costs a page fault per 4 KiB on first touch: in a
// profile of the bench's sampling, writing new keys and values took an eighth of the decoder's
// time. So rows reuse the memory that earlier calls freed.
var slabPools sync.Map // size class (floats) → *sync.Pool of *[]float32

func getSlab(n int) []float32 {
	class := (n + slabClass - 1) / slabClass * slabClass
	p, _ := slabPools.LoadOrStore(class, &sync.Pool{New: func() any { s := make([]float32, class); return &s }})
	return (*p.(*sync.Pool).Get().(*[]float32))[:n]
}

// newRow takes one slab for the row's caches and logits. Every position is written before it is
// read (keys and values up to the row's length, the logits by each forward call that asks for
// them), so reused memory needs no clearing.
func (m *Decoder) newRow(room int) *Row {
	d, layers := m.cfg.Dim, m.cfg.Layers
	slab := getSlab(2*layers*d*room + m.cfg.Vocab)
	r := &Row{room: room, keys: make([][]float32, layers), values: make([][]float32, layers), slab: slab, Logits: slab[2*layers*d*room:]}
	for l := range layers {
		r.keys[l] = slab[2*l*d*room : (2*l+1)*d*room : (2*l+1)*d*room]
		r.values[l] = slab[(2*l+1)*d*room : (2*l+2)*d*room : (2*l+2)*d*room]
	}
	m.mu.Lock()
	m.rows = append(m.rows, r)
	m.mu.Unlock()
	return r
}

func (m *Decoder) clone(r *Row) *Row {
	c := m.newRow(r.room)
	c.n = r.n
	copy(c.Logits, r.Logits)
	for l := range r.keys {
		copy(c.keys[l], r.keys[l])
		copy(c.values[l], r.values[l])
	}
	return c
}

// Free returns the memory of every row the decoder has handed out to a pool that later rows (of
// any decoder) draw from, and empties the rows: feeding one afterwards is an error.
func (m *Decoder) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.rows {
		s := r.slab[:cap(r.slab)]
		p, _ := slabPools.Load(len(s))
		p.(*sync.Pool).Put(&s)
		*r = Row{n: r.n, room: r.room}
	}
	m.rows = nil
}

// Start runs the prompt pass of every prompt and returns one row each, with room for extra more
// tokens. Identical prompts are run once and their rows copied; rows run in parallel.
func (m *Decoder) Start(prompts [][]int, extra int) ([]*Row, error) {
	first := map[string]int{} // prompt → index of its first occurrence
	var unique []int
	keys := make([]string, len(prompts))
	for i, p := range prompts {
		if len(p) == 0 {
			return nil, fmt.Errorf("tinyrt: prompt %d is empty", i)
		}
		if len(p)+extra > m.cfg.Context {
			return nil, fmt.Errorf("tinyrt: prompt %d has %d tokens; with %d more it exceeds the context of %d", i, len(p), extra, m.cfg.Context)
		}
		for _, t := range p {
			if t < 0 || t >= m.cfg.Vocab {
				return nil, fmt.Errorf("tinyrt: prompt %d holds token %d, outside the vocabulary of %d", i, t, m.cfg.Vocab)
			}
		}
		keys[i] = fmt.Sprint(p)
		if _, ok := first[keys[i]]; !ok {
			first[keys[i]] = i
			unique = append(unique, i)
		}
	}
	rows := make([]*Row, len(prompts))
	parallel(len(unique), func(k int, s *scratch) {
		i := unique[k]
		r := m.newRow(len(prompts[i]) + extra)
		for j, t := range prompts[i] {
			m.forward(r, t, s, j == len(prompts[i])-1)
		}
		rows[i] = r
	}, m)
	for i := range prompts {
		if j := first[keys[i]]; j != i {
			rows[i] = m.clone(rows[j])
		}
	}
	return rows, nil
}

// Feed appends toks[i] to rows[i] and updates its logits, for every row that is not nil, in
// parallel.
func (m *Decoder) Feed(rows []*Row, toks []int) error {
	if len(rows) != len(toks) {
		return fmt.Errorf("tinyrt: %d rows and %d tokens", len(rows), len(toks))
	}
	for i, r := range rows {
		if r == nil {
			continue
		}
		if r.slab == nil {
			return fmt.Errorf("tinyrt: row %d was freed", i)
		}
		if r.n >= r.room {
			return fmt.Errorf("tinyrt: row %d is full (%d tokens)", i, r.n)
		}
		if toks[i] < 0 || toks[i] >= m.cfg.Vocab {
			return fmt.Errorf("tinyrt: row %d: token %d outside the vocabulary of %d", i, toks[i], m.cfg.Vocab)
		}
	}
	parallel(len(rows), func(i int, s *scratch) {
		if rows[i] != nil {
			m.forward(rows[i], toks[i], s, true)
		}
	}, m)
	return nil
}

// scratch holds one worker's activations.
type scratch struct {
	x, h, qkv, att, mlp, e, scores []float32
}

// parallel runs f(0..n-1) on up to GOMAXPROCS workers, each with its own scratch.
func parallel(n int, f func(i int, s *scratch), m *Decoder) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := m.cfg.Dim
			s := &scratch{x: make([]float32, d), h: make([]float32, d), qkv: make([]float32, 3*d), att: make([]float32, d),
				mlp: make([]float32, 4*d), e: make([]float32, 4*d), scores: make([]float32, m.cfg.Context)}
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i, s)
			}
		}()
	}
	wg.Wait()
}

// forward feeds token t to row r at position r.n, writing its keys and values into the caches,
// and with logits set, the next-token logits into r.Logits.
func (m *Decoder) forward(r *Row, t int, s *scratch, logits bool) {
	c := m.cfg
	d, dh, p := c.Dim, c.Dim/c.Heads, r.n
	x := s.x
	copy(x, m.tokEmb[t*d:(t+1)*d])
	for i, e := range m.posEmb[p*d : (p+1)*d] {
		x[i] += e
	}
	scale := float32(1 / math.Sqrt(float64(dh)))
	for l := range m.blocks {
		b := &m.blocks[l]
		layerNorm(s.h, x, b.ln1G, b.ln1B)
		dense(s.qkv, s.h, b.qkv, b.qkvB)
		keys, values := r.keys[l], r.values[l]
		for i := range d {
			keys[i*r.room+p] = s.qkv[d+i]
		}
		copy(values[p*d:(p+1)*d], s.qkv[2*d:3*d])
		for hd := range c.Heads {
			scores := s.scores[:p+1]
			clear(scores)
			mulAcc(scores, s.qkv[hd*dh:(hd+1)*dh], keys[hd*dh*r.room:], r.room)
			softmax(scores, scale)
			out := s.att[hd*dh : (hd+1)*dh]
			clear(out)
			mulAcc(out, scores, values[hd*dh:], d)
		}
		dense(s.h, s.att, b.out, b.outB)
		for i := range x {
			x[i] += s.h[i]
		}
		layerNorm(s.h, x, b.ln2G, b.ln2B)
		dense(s.mlp, s.h, b.mlp1, b.mlp1B)
		for i, v := range s.mlp { // SiLU: v·σ(v) = v / (1 + e^−v)
			s.e[i] = -v
		}
		exp32(s.e)
		for i, v := range s.mlp {
			s.mlp[i] = v / (1 + s.e[i])
		}
		dense(s.h, s.mlp, b.mlp2, b.mlp2B)
		for i := range x {
			x[i] += s.h[i]
		}
	}
	r.n++
	if logits {
		layerNorm(s.h, x, m.lnfG, m.lnfB)
		dense(r.Logits, s.h, m.head, nil)
	}
}

// dense sets y = x·w + b for w [len(x), len(y)] (b nil: no bias).
func dense(y, x, w, b []float32) {
	if b == nil {
		clear(y)
	} else {
		copy(y, b)
	}
	mulAcc(y, x, w, len(y))
}

// layerNorm sets y to x normalized to mean 0 and variance 1 (ε 1e-5), times gain plus bias.
func layerNorm(y, x, gain, bias []float32) {
	var mean float32
	for _, v := range x {
		mean += v
	}
	mean /= float32(len(x))
	var variance float32
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	variance /= float32(len(x))
	inv := float32(1 / math.Sqrt(float64(variance+1e-5)))
	for i, v := range x {
		y[i] = (v-mean)*inv*gain[i] + bias[i]
	}
}

// softmax replaces scores by softmax(scale·scores).
func softmax(scores []float32, scale float32) {
	top := float32(math.Inf(-1))
	for i := range scores {
		scores[i] *= scale
		top = max(top, scores[i])
	}
	for i := range scores {
		scores[i] -= top
	}
	exp32(scores)
	var sum float32
	for _, e := range scores {
		sum += e
	}
	for i := range scores {
		scores[i] /= sum
	}
}
