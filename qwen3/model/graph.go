package model

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck // graph code reads better unqualified
)

// weight returns the graph value of the named Hugging Face tensor.
func (m *Model) weight(g *Graph, name string) *Node {
	v := m.Store.GetVariable(VariablePath(name))
	if v == nil {
		panic(fmt.Sprintf("qwen3 model: no variable for tensor %s", name))
	}
	return v.NodeValue(g)
}

// round gives x the precision of the model's compute dtype and returns it in float32: the value
// a reduced-precision engine would store, while every sum and product in between runs in float32,
// as tensor cores accumulate bf16 products in float32. The float32 path leaves x alone.
func (m *Model) round(x *Node) *Node {
	if m.dtype == dtypes.Float32 {
		return x
	}
	return ConvertDType(ConvertDType(x, m.dtype), dtypes.Float32)
}

// dot is DotGeneral under the model's autocast setting (see SetAutocast): DotGeneral itself when
// autocast is off, roundedDot on the pure-Go backend, castDot on any other (XLA's, on a GPU).
func (m *Model) dot(lhs *Node, lhsContracting, lhsBatch []int, rhs *Node, rhsContracting, rhsBatch []int) *Node {
	switch {
	case m.autocast == dtypes.Float32:
		return DotGeneral(lhs, lhsContracting, lhsBatch, rhs, rhsContracting, rhsBatch)
	case m.backend.String() == gobackend.BackendName:
		return roundedDot(m.autocast, lhs, lhsContracting, lhsBatch, rhs, rhsContracting, rhsBatch)
	}
	return castDot(m.autocast, lhs, lhsContracting, lhsBatch, rhs, rhsContracting, rhsBatch)
}

// castDot runs a product as torch.autocast does: both float32 operands cast to dt, multiplied
// there, the product converted back to float32. GoMLX's Dot gives half-precision operands a
// float32 accumulator, which its gradient reads as "compute the backward products in float32";
// clearing it keeps them in dt as well, as autocast's backward runs, while the forward product
// still sums in float32: XLA's GPU matrix kernels and the pure-Go backend's accumulate
// half-precision products in float32 and round only the result. The casts' gradients convert the operands'
// gradients back to float32, so float32 weights get float32 gradients.
func castDot(dt dtypes.DType, lhs *Node, lhsContracting, lhsBatch []int, rhs *Node, rhsContracting, rhsBatch []int) *Node {
	product := Dot(ConvertDType(lhs, dt), ConvertDType(rhs, dt)).
		WithAccumulatorDType(dtypes.InvalidDType).
		General(lhsContracting, lhsBatch, rhsContracting, rhsBatch)
	return ConvertDType(product, dtypes.Float32)
}

// roundedDot computes castDot's numbers with float32 arithmetic: the operands rounded to dt, a
// float32 product (exact products of dt values, float32 sums), the result rounded to dt; the
// roundings' gradients round the incoming and outgoing gradients to dt the same way. The
// pure-Go backend needs it: its AVX2 kernel for large half-precision products (compute v0.1.14)
// returns wrong sums, and on a CPU a half-precision product saves no time anyway.
func roundedDot(dt dtypes.DType, lhs *Node, lhsContracting, lhsBatch []int, rhs *Node, rhsContracting, rhsBatch []int) *Node {
	round := func(x *Node) *Node { return ConvertDType(ConvertDType(x, dt), dtypes.Float32) }
	return round(DotGeneral(round(lhs), lhsContracting, lhsBatch, round(rhs), rhsContracting, rhsBatch))
}

// linear applies a Hugging Face Linear weight [out, in] to the last axis of x, without
// materialising the transpose (lm_head of Qwen3-0.6B alone is 155M values); the product is
// stored in the compute dtype.
func (m *Model) linear(x, w *Node) *Node {
	return m.round(m.dot(x, []int{x.Rank() - 1}, nil, w, []int{1}, nil))
}

// rmsNorm normalises the last axis by its root mean square, then scales by w. It divides by the
// square root rather than multiplying by Rsqrt, which has no gradient in this GoMLX version. As
// Hugging Face's Qwen3RMSNorm does in bf16, the normalised value is stored in the compute dtype
// before the weight multiplies it.
func (m *Model) rmsNorm(x, w *Node, eps float64) *Node {
	ms := ReduceAndKeep(Square(x), ReduceMean, -1)
	return m.round(Mul(m.round(Div(x, Sqrt(AddScalar(ms, eps)))), ExpandLeftToRank(w, x.Rank())))
}

// rope applies rotary position embeddings in the rotate-half layout to x [B, T, heads, D]:
// dimension i is paired with i + D/2 and rotated by angle position * theta^(-2i/D).
// positions is float32, [T] when every row sits at the same positions, or [B, T] when each row
// has its own (the Decoder's rows of different lengths).
func (m *Model) rope(x, positions *Node, theta float64) *Node {
	d := x.Shape().Dimensions[3]
	invFreq := make([]float32, d/2)
	for i := range invFreq {
		invFreq[i] = float32(1 / math.Pow(theta, float64(2*i)/float64(d)))
	}
	freq := Const(x.Graph(), invFreq)
	for range positions.Rank() {
		freq = InsertAxes(freq, 0)
	}
	angles := Mul(InsertAxes(positions, -1), freq)    // [(B,) T, D/2]
	angles = Concatenate([]*Node{angles, angles}, -1) // [(B,) T, D]
	expand := []int{0, 1}                             // [T, D] -> [1, T, 1, D]
	if positions.Rank() == 2 {
		expand = []int{2} // [B, T, D] -> [B, T, 1, D]
	}
	cos := m.round(InsertAxes(Cos(angles), expand...))
	sin := m.round(InsertAxes(Sin(angles), expand...))
	x1 := SliceAxis(x, 3, AxisRange(0, d/2))
	x2 := SliceAxis(x, 3, AxisRange(d/2, d))
	rotated := Concatenate([]*Node{Neg(x2), x1}, 3)
	return m.round(Add(Mul(x, cos), Mul(rotated, sin)))
}

// attention computes grouped-query causal attention.
// q: [B, T, H, D] with query positions qPos (int32), [T] shared by the rows or [B, T] per row;
// k, v: [B, S, KV, D] whose key s sits at position s. Key s is visible to query t when
// s <= qPos[t]; when S is a cache longer than the sequence, slots beyond the current position
// are masked out the same way.
func (m *Model) attention(q, k, v, qPos *Node, kvHeads int) *Node {
	dims := q.Shape().Dimensions
	b, t, h, d := dims[0], dims[1], dims[2], dims[3]
	groups := h / kvHeads
	s := k.Shape().Dimensions[1]
	// Query head j reads key/value head j / groups, as Hugging Face's repeat_kv arranges them.
	q = Reshape(q, b, t, kvHeads, groups, d)
	scores := m.dot(q, []int{4}, []int{0, 2}, k, []int{3}, []int{0, 2}) // [B, KV, T, G, S]
	scores = m.round(MulScalar(m.round(scores), 1/math.Sqrt(float64(d))))
	g := q.Graph()
	keyPos := InsertAxes(Iota(g, shapeInt32(s), 0), 0)
	expand := []int{0, 0, 1} // [T, S] -> [1, 1, T, 1, S]
	if qPos.Rank() == 2 {
		keyPos = InsertAxes(keyPos, 0)
		expand = []int{1, 2} // [B, T, S] -> [B, 1, T, 1, S]
	}
	visible := LessOrEqual(keyPos, InsertAxes(qPos, -1)) // [(B,) T, S]
	visible = BroadcastToDims(InsertAxes(visible, expand...), b, kvHeads, t, groups, s)
	scores = Where(visible, scores, BroadcastToDims(Infinity(g, dtypes.Float32, -1), b, kvHeads, t, groups, s))
	probs := m.round(Softmax(scores, -1))                                         // the softmax itself runs in float32, as engines run it
	out := m.round(m.dot(probs, []int{4}, []int{0, 1}, v, []int{1}, []int{0, 2})) // [B, KV, T, G, D]
	out = TransposeAllAxes(out, 0, 2, 1, 3, 4)                                    // [B, T, KV, G, D]
	return Reshape(out, b, t, h*d)
}

// kv is one layer's keys and values, [B, S, KV, D] each.
type kv struct{ k, v *Node }

// layers runs the decoder stack on embedded tokens x [B, T, hidden] at positions pos (int32,
// [T] or per row [B, T]). attend gives each layer the keys and values its queries attend over, from the
// layer's new keys and values: the same ones without a cache, the updated cache with one.
func (m *Model) layers(x, pos *Node, attend func(layer int, fresh kv) kv) *Node {
	c := m.Config
	g := x.Graph()
	dims := x.Shape().Dimensions
	b, t := dims[0], dims[1]
	posF := ConvertDType(pos, dtypes.Float32)
	for l := range c.NumHiddenLayers {
		w := func(name string) *Node { return m.weight(g, layerName(l, name)) }
		h := m.rmsNorm(x, w("input_layernorm.weight"), c.RMSNormEps)
		q := Reshape(m.linear(h, w("self_attn.q_proj.weight")), b, t, c.NumAttentionHeads, c.HeadDim)
		k := Reshape(m.linear(h, w("self_attn.k_proj.weight")), b, t, c.NumKeyValueHeads, c.HeadDim)
		v := Reshape(m.linear(h, w("self_attn.v_proj.weight")), b, t, c.NumKeyValueHeads, c.HeadDim)
		q = m.rope(m.rmsNorm(q, w("self_attn.q_norm.weight"), c.RMSNormEps), posF, c.RopeTheta)
		k = m.rope(m.rmsNorm(k, w("self_attn.k_norm.weight"), c.RMSNormEps), posF, c.RopeTheta)
		ctx := attend(l, kv{k, v})
		x = m.round(Add(x, m.linear(m.attention(q, ctx.k, ctx.v, pos, c.NumKeyValueHeads), w("self_attn.o_proj.weight"))))

		h = m.rmsNorm(x, w("post_attention_layernorm.weight"), c.RMSNormEps)
		gate := m.linear(h, w("mlp.gate_proj.weight"))
		up := m.linear(h, w("mlp.up_proj.weight"))
		x = m.round(Add(x, m.linear(m.round(Mul(m.round(Mul(gate, Sigmoid(gate))), up)), w("mlp.down_proj.weight"))))
	}
	return x
}

func (m *Model) embed(ids *Node) *Node {
	return Gather(m.weight(ids.Graph(), embedName), InsertAxes(ids, -1))
}

// head applies the final norm and the output projection to hidden states [..., hidden].
func (m *Model) head(x *Node) *Node {
	g := x.Graph()
	x = m.rmsNorm(x, m.weight(g, finalNormName), m.Config.RMSNormEps)
	out := embedName
	if !m.Config.TieWordEmbeddings {
		out = lmHeadName
	}
	return m.linear(x, m.weight(g, out))
}

// LogitsGraph builds the next-token logits [B, T, vocab] for token ids [B, T] (int32), token t at
// position t. Rows are independent and attention is causal, so right-padding a row does not
// change the logits of its real tokens. g must belong to an Exec over m.Store (the weights are
// its variables), which is what lets a trainer differentiate through it. On the pure-Go backend
// mark such graphs as training (Store.SetTraining), or the weights are compiled in as constants
// and later updates to Store do not reach them.
func (m *Model) LogitsGraph(ids *Node) *Node {
	t := ids.Shape().Dimensions[1]
	pos := Iota(ids.Graph(), shapeInt32(t), 0)
	x := m.layers(m.embed(ids), pos, func(_ int, fresh kv) kv { return fresh })
	return m.head(x)
}

// LogProbsGraph builds log p(targets[b, t] | ids[b, :t+1]) as [B, T] float32 from ids and
// targets, both [B, T] int32.
func (m *Model) LogProbsGraph(ids, targets *Node) *Node {
	logp := LogSoftmax(m.LogitsGraph(ids), -1)
	// Gather logp[b, t, targets[b, t]] directly: a one-hot mask would add two more
	// [B, T, vocab] tensors, 2.5 GB each for 8 x 512 tokens of Qwen3's vocabulary.
	shape := targets.Shape()
	where := Stack([]*Node{Iota(ids.Graph(), shape, 0), Iota(ids.Graph(), shape, 1), targets}, -1)
	return Gather(logp, where)
}

// stepGraph runs ids [B, S] at positions start..start+S-1 against a key/value cache: inputs are
// ids, start (int32 scalar), last (int32 scalar: which of the S tokens to return logits for) and
// the caches k0, v0, k1, v1, ... each [B, C, KV, D]; outputs are the logits [B, vocab] after
// token `last` of every row and the updated caches. The new keys and values are written at start, and each query attends to
// cache slots up to its own position, so stale or garbage slots beyond it are never read.
func (m *Model) stepGraph(inputs []*Node) []*Node {
	ids, start, last, caches := inputs[0], inputs[1], inputs[2], inputs[3:]
	g := ids.Graph()
	s := ids.Shape().Dimensions[1]
	pos := Add(Iota(g, shapeInt32(s), 0), start)
	zero := ScalarZero(g, dtypes.Int32)
	updated := make([]*Node, len(caches))
	x := m.layers(m.embed(ids), pos, func(l int, fresh kv) kv {
		at := []*Node{zero, start, zero, zero}
		k := DynamicUpdateSlice(caches[2*l], fresh.k, at)
		v := DynamicUpdateSlice(caches[2*l+1], fresh.v, at)
		updated[2*l], updated[2*l+1] = k, v
		return kv{k, v}
	})
	// Select row `last` with a one-hot sum rather than a dynamic slice.
	pick := ConvertDType(Equal(Iota(g, shapeInt32(s), 0), last), dtypes.Float32) // [S]
	x = ReduceSum(Mul(x, InsertAxes(pick, 0, -1)), 1)                            // [B, hidden]
	return append([]*Node{m.head(x)}, updated...)
}

// decodeGraph is the Decoder's step: every row has its own length. Inputs are ids [B, W], starts
// [B] (each row's length so far: its first id sits there), counts [B] (the real ids of each row,
// the rest is padding; 0 leaves a row idle), u [B] float32 (one uniform per row, for sampling),
// temperature (float32 scalar) and the caches k0, v0, k1, v1, ... each [B, C, KV, D]. Outputs
// are per row the next token after its last real id, that token's log-probability under the
// model and under the distribution it was drawn from (see sampleGraph), then the caches.
func (m *Model) decodeGraph(inputs []*Node) []*Node {
	ids, starts, counts, u, temperature, caches := inputs[0], inputs[1], inputs[2], inputs[3], inputs[4], inputs[5:]
	g := ids.Graph()
	b, w := ids.Shape().Dimensions[0], ids.Shape().Dimensions[1]
	c := caches[0].Shape().Dimensions[1]
	pos := Add(Iota(g, shapes.Make(dtypes.Int32, b, w), 1), InsertAxes(starts, -1)) // [B, W]
	// Slot s of row b takes fresh id w = s - starts[b] when 0 <= w < counts[b]: gathered and
	// selected, so the values are copied exactly (a one-hot product would round them on
	// engines that multiply in reduced precision). Padding is never written.
	slot := Sub(Iota(g, shapes.Make(dtypes.Int32, b, c), 1), InsertAxes(starts, -1)) // [B, C]
	write := LogicalAnd(GreaterOrEqual(slot, ScalarZero(g, dtypes.Int32)), LessThan(slot, InsertAxes(counts, -1)))
	from := Stack([]*Node{Iota(g, shapes.Make(dtypes.Int32, b, c), 0), Clamp(Const(g, int32(0)), slot, Const(g, int32(w-1)))}, -1)
	updated := make([]*Node, len(caches))
	x := m.layers(m.embed(ids), pos, func(l int, fresh kv) kv {
		k := Where(write, Gather(fresh.k, from), caches[2*l])
		v := Where(write, Gather(fresh.v, from), caches[2*l+1])
		updated[2*l], updated[2*l+1] = k, v
		return kv{k, v}
	})
	// An idle row reads its padding: its token is ignored.
	last := MaxScalar(SubScalar(counts, 1), 0)
	x = Gather(x, Stack([]*Node{Iota(g, shapeInt32(b), 0), last}, -1)) // [B, hidden]
	tok, modelLP, sampleLP := sampleGraph(m.head(x), u, temperature)
	return append([]*Node{tok, modelLP, sampleLP}, updated...)
}

// sampleGraph draws one token per row from logits [B, V] by inverse CDF: with probs =
// softmax(logits / temperature), the token is the first whose cumulative probability reaches
// u[b] times the total, i.e. the number of entries below it (clamped to V-1 against rounding).
// Temperature 0 takes the argmax instead, with sampling log-prob 0. It returns the tokens
// (int32), their log-probabilities under the model (temperature 1, the full vocabulary) and
// under the distribution they were drawn from, all [B]: only these come back to the host.
func sampleGraph(logits, u, temperature *Node) (tok, modelLP, sampleLP *Node) {
	g := logits.Graph()
	b, v := logits.Shape().Dimensions[0], logits.Shape().Dimensions[1]
	greedy := Equal(temperature, ScalarZero(g, dtypes.Float32))
	scaled := Div(logits, Where(greedy, ScalarOne(g, dtypes.Float32), temperature))
	cum := cumSum(Softmax(scaled, -1))                                                // [B, V]
	total := SliceAxis(cum, 1, AxisElem(v-1))                                         // [B, 1]
	below := ConvertDType(LessThan(cum, Mul(InsertAxes(u, -1), total)), dtypes.Int32) // [B, V]
	drawn := MinScalar(ReduceSum(below, -1), v-1)
	tok = Where(greedy, ArgMax(logits, -1, dtypes.Int32), drawn)
	at := Stack([]*Node{Iota(g, shapeInt32(b), 0), tok}, -1) // [B, 2]
	modelLP = Gather(LogSoftmax(logits, -1), at)
	sampleLP = Where(greedy, ZerosLike(modelLP), Gather(LogSoftmax(scaled, -1), at))
	return tok, modelLP, sampleLP
}

// cumBlock is the block length of cumSum's first level: about the square root of Qwen3's
// vocabulary, which minimises the two levels' windowed sums together.
const cumBlock = 512

// cumSum is CumSum over the last axis of x [B, V] in two levels: within blocks of cumBlock
// entries, then over the blocks' totals, added to every entry of the blocks after them. Sums
// only, no products, like CumSum itself; but a backend without a scan of its own (GoMLX then
// builds CumSum from a windowed sum, whose cost grows with the square of the axis' length)
// sums 512 + 297 entries per output instead of up to 151,936.
func cumSum(x *Node) *Node {
	b, v := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	if v <= cumBlock {
		return CumSum(x, -1)
	}
	blocks := (v + cumBlock - 1) / cumBlock
	padded := Concatenate([]*Node{x, Zeros(x.Graph(), shapes.Make(x.DType(), b, blocks*cumBlock-v))}, 1)
	within := CumSum(Reshape(padded, b, blocks, cumBlock), -1)                                       // [B, blocks, cumBlock]
	before := CumSum(SliceAxis(within, 2, AxisElem(cumBlock-1)), 1, &CumSumOptions{Exclusive: true}) // [B, blocks, 1]
	return SliceAxis(Reshape(Add(within, before), b, blocks*cumBlock), 1, AxisRange(0, v))
}
