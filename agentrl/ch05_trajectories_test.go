package agentrl

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// handTrajectory: prompt [10 11 12], agent [20 21], env [30], agent [40].
func handTrajectory() Trajectory {
	return Trajectory{Reward: 1, Segments: []Segment{
		{Role: RolePrompt, IDs: []int{10, 11, 12}},
		{Role: RoleAgent, IDs: []int{20, 21}, LogProbs: []float32{-0.5, -1}},
		{Role: RoleEnv, IDs: []int{30}},
		{Role: RoleAgent, IDs: []int{40}, LogProbs: []float32{-2}},
	}}
}

func TestRoleString(t *testing.T) {
	for r, want := range map[Role]string{RolePrompt: "prompt", RoleEnv: "env", RoleAgent: "agent", Role(9): "Role(9)"} {
		if got := r.String(); got != want {
			t.Errorf("Role(%d).String() = %q, want %q", uint8(r), got, want)
		}
	}
}

func TestFlatten(t *testing.T) {
	tr := handTrajectory()
	if tr.Len() != 7 {
		t.Fatalf("Len = %d, want 7", tr.Len())
	}
	f, err := Flatten(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := Flat{
		IDs:              []int32{10, 11, 12, 20, 21, 30, 40},
		Mask:             []float32{0, 0, 0, 1, 1, 0, 1},
		SamplingLogProbs: []float32{0, 0, 0, -0.5, -1, 0, -2},
		TurnIDs:          []int32{-1, -1, -1, 0, 0, -1, 1},
		Positions:        []int32{0, 1, 2, 3, 4, 5, 6},
	}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("Flatten =\n%+v\nwant\n%+v", f, want)
	}
}

func TestFlattenRejectsMisalignedLogProbs(t *testing.T) {
	cases := []struct {
		name string
		seg  Segment
		want string
	}{
		{"agent without log-probs", Segment{Role: RoleAgent, IDs: []int{1, 2}}, "2 ids but 0 log-probs"},
		{"agent with one too many", Segment{Role: RoleAgent, IDs: []int{1}, LogProbs: []float32{-1, -2}}, "1 ids but 2 log-probs"},
		{"env with log-probs", Segment{Role: RoleEnv, IDs: []int{1}, LogProbs: []float32{-1}}, "did not sample"},
	}
	for _, c := range cases {
		_, err := Flatten(Trajectory{Segments: []Segment{{Role: RolePrompt, IDs: []int{5}}, c.seg}})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "segment 1") {
			t.Errorf("%s: err = %v, want one naming segment 1 and %q", c.name, err, c.want)
		}
	}
}

func TestCommonPrefix(t *testing.T) {
	cases := []struct {
		a, b []int
		want int
	}{
		{nil, nil, 0},
		{[]int{1, 2, 3}, []int{1, 2, 3}, 3},
		{[]int{1, 2}, []int{1, 2, 3, 4}, 2},
		{[]int{1, 2, 3, 4}, []int{1, 2}, 2},
		{[]int{1, 9, 3}, []int{1, 2, 3}, 1},
		{[]int{7}, []int{8}, 0},
	}
	for _, c := range cases {
		if got := CommonPrefix(c.a, c.b); got != c.want {
			t.Errorf("CommonPrefix(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestPadBatch(t *testing.T) {
	short := Trajectory{Segments: []Segment{{Role: RolePrompt, IDs: []int{1, 2}}, {Role: RoleAgent, IDs: []int{3}, LogProbs: []float32{-0.25}}}}
	b, err := PadBatch([]Trajectory{handTrajectory(), short}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if b.Rows != 2 || b.Len != 8 {
		t.Fatalf("shape %dx%d, want 2x8", b.Rows, b.Len)
	}
	want := Batch{Rows: 2, Len: 8,
		Inputs:           []int32{10, 11, 12, 20, 21, 30, 0, 0 /**/, 1, 2, 0, 0, 0, 0, 0, 0},
		Targets:          []int32{11, 12, 20, 21, 30, 40, 0, 0 /**/, 2, 3, 0, 0, 0, 0, 0, 0},
		Mask:             []float32{0, 0, 1, 1, 0, 1, 0, 0 /**/, 0, 1, 0, 0, 0, 0, 0, 0},
		SamplingLogProbs: []float32{0, 0, -0.5, -1, 0, -2, 0, 0 /**/, 0, -0.25, 0, 0, 0, 0, 0, 0},
		TurnIDs:          []int32{-1, -1, 0, 0, -1, 1, -1, -1 /**/, -1, 0, -1, -1, -1, -1, -1, -1},
		Positions:        []int32{0, 1, 2, 3, 4, 5, 0, 0 /**/, 0, 1, 0, 0, 0, 0, 0, 0},
		SegmentIDs:       []int32{1, 1, 1, 1, 1, 1, 0, 0 /**/, 1, 1, 0, 0, 0, 0, 0, 0},
		Docs:             []int32{0, 0, 0, 0, 0, 0, -1, -1 /**/, 1, 1, -1, -1, -1, -1, -1, -1},
	}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("PadBatch =\n%+v\nwant\n%+v", b, want)
	}
	if got := b.Padding(); got != 8.0/16 {
		t.Errorf("Padding = %v, want 0.5", got)
	}
}

// seqTrajectory has n tokens: a prompt of ids base, base+1 and an agent segment with the rest.
func seqTrajectory(base, n int) Trajectory {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = base + i
	}
	lps := make([]float32, n-2)
	for i := range lps {
		lps[i] = -float32(base+i+2) / 100
	}
	return Trajectory{Segments: []Segment{{Role: RolePrompt, IDs: ids[:2]}, {Role: RoleAgent, IDs: ids[2:], LogProbs: lps}}}
}

func TestPackBatchLayout(t *testing.T) {
	// 5, 3 and 4 tokens need 4, 2 and 3 slots. First-fit decreasing into rows of 6:
	// doc 0 -> row 0 [0,4); doc 2 does not fit beside it -> row 1 [0,3); doc 1 -> row 0 [4,6).
	trs := []Trajectory{seqTrajectory(100, 5), seqTrajectory(200, 3), seqTrajectory(300, 4)}
	b, err := PackBatch(trs, 6)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"shape", [2]int{b.Rows, b.Len}, [2]int{2, 6}},
		{"Docs", b.Docs, []int32{0, 0, 0, 0, 1, 1, 2, 2, 2, -1, -1, -1}},
		{"SegmentIDs", b.SegmentIDs, []int32{1, 1, 1, 1, 2, 2, 1, 1, 1, 0, 0, 0}},
		{"Positions", b.Positions, []int32{0, 1, 2, 3, 0, 1, 0, 1, 2, 0, 0, 0}},
		{"Inputs", b.Inputs, []int32{100, 101, 102, 103, 200, 201, 300, 301, 302, 0, 0, 0}},
		{"Targets", b.Targets, []int32{101, 102, 103, 104, 201, 202, 301, 302, 303, 0, 0, 0}},
		{"Mask", b.Mask, []float32{0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0}},
		{"SamplingLogProbs", b.SamplingLogProbs, []float32{0, -1.02, -1.03, -1.04, 0, -2.02, 0, -3.02, -3.03, 0, 0, 0}},
		{"TurnIDs", b.TurnIDs, []int32{-1, 0, 0, 0, -1, 0, -1, 0, 0, -1, -1, -1}},
		{"Padding", b.Padding(), 3.0 / 12},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestBatchRejects(t *testing.T) {
	one := Trajectory{Segments: []Segment{{Role: RolePrompt, IDs: []int{1}}}}
	bad := Trajectory{Segments: []Segment{{Role: RoleAgent, IDs: []int{1, 2}}}}
	cases := []struct {
		name   string
		trs    []Trajectory
		maxLen int
		want   string
	}{
		{"too long", []Trajectory{seqTrajectory(0, 10)}, 8, "10 tokens need 9 slots"},
		{"single token", []Trajectory{one}, 8, "1 tokens need 0 slots"},
		{"misaligned", []Trajectory{seqTrajectory(0, 4), bad}, 8, "trajectory 1: segment 0"},
		{"no room", []Trajectory{seqTrajectory(0, 4)}, 0, "maxLen 0"},
	}
	for _, c := range cases {
		for name, build := range map[string]func([]Trajectory, int) (Batch, error){"pad": PadBatch, "pack": PackBatch} {
			if _, err := build(c.trs, c.maxLen); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, %s: err = %v, want %q", name, c.name, err, c.want)
			}
		}
	}
}

// randomTrajectories draws n trajectories of 2..maxTok tokens with alternating segments.
func randomTrajectories(rng *rand.Rand, n, maxTok, vocab int) []Trajectory {
	trs := make([]Trajectory, n)
	for i := range trs {
		left := 2 + rng.IntN(maxTok-1)
		role := RolePrompt
		for left > 0 {
			k := min(left, 1+rng.IntN(5))
			s := Segment{Role: role, IDs: make([]int, k)}
			for j := range s.IDs {
				s.IDs[j] = rng.IntN(vocab)
			}
			if role == RoleAgent {
				s.LogProbs = make([]float32, k)
				for j := range s.LogProbs {
					s.LogProbs[j] = -rng.Float32() * 5
				}
				role = RoleEnv
			} else {
				role = RoleAgent
			}
			trs[i].Segments = append(trs[i].Segments, s)
			left -= k
		}
	}
	return trs
}

func TestPackedAttentionNeverCrossesDocuments(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	trs := randomTrajectories(rng, 40, 30, 50)
	b, err := PackBatch(trs, 64)
	if err != nil {
		t.Fatal(err)
	}
	if b.Rows >= len(trs) {
		t.Fatalf("packing used %d rows for %d trajectories: nothing was packed", b.Rows, len(trs))
	}
	shared := 0
	for r := range b.Rows {
		m := b.AttentionMask(r)
		for q := range b.Len {
			for k := range b.Len {
				dq, dk := b.Docs[r*b.Len+q], b.Docs[r*b.Len+k]
				want := dq >= 0 && dq == dk && k <= q
				if m[q*b.Len+k] != want {
					t.Fatalf("row %d: mask[%d][%d] = %v, want %v (docs %d, %d)", r, q, k, m[q*b.Len+k], want, dq, dk)
				}
				if dq >= 0 && dk >= 0 && dq != dk {
					shared++
				}
			}
		}
	}
	if shared == 0 {
		t.Fatal("no row holds two documents: the test proves nothing")
	}
}

func TestByDocRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trs := randomTrajectories(rng, 25, 20, 1000)
	for name, build := range map[string]func([]Trajectory, int) (Batch, error){"pad": PadBatch, "pack": PackBatch} {
		b, err := build(trs, 24)
		if err != nil {
			t.Fatal(err)
		}
		in, tg, mk := make([]float32, len(b.Inputs)), make([]float32, len(b.Inputs)), make([]float32, len(b.Inputs))
		for i := range b.Inputs {
			in[i], tg[i], mk[i] = float32(b.Inputs[i]), float32(b.Targets[i]), b.Mask[i]
		}
		ins, tgs, mks := b.ByDoc(in, len(trs)), b.ByDoc(tg, len(trs)), b.ByDoc(mk, len(trs))
		for d, tr := range trs {
			f, _ := Flatten(tr)
			for p := range len(f.IDs) - 1 {
				if ins[d][p] != float32(f.IDs[p]) || tgs[d][p] != float32(f.IDs[p+1]) || mks[d][p] != f.Mask[p+1] {
					t.Fatalf("%s: trajectory %d slot %d: input %v target %v mask %v, want %d %d %v",
						name, d, p, ins[d][p], tgs[d][p], mks[d][p], f.IDs[p], f.IDs[p+1], f.Mask[p+1])
				}
			}
			if len(ins[d]) != len(f.IDs)-1 {
				t.Fatalf("%s: trajectory %d has %d slots, want %d", name, d, len(ins[d]), len(f.IDs)-1)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("ByDoc with the wrong number of values did not panic")
		}
	}()
	b, _ := PadBatch(trs[:1], 24)
	b.ByDoc(make([]float32, 3), 1)
}

// toyLosses scores every slot of b with a one-layer attention model over a small vocabulary:
// masked per-token losses -Mask·log p(target). attends and position say which keys a query
// may see and which position embedding a slot gets.
func toyLosses(b Batch, attends func(row, q, k int) bool, position func(i int) int) []float32 {
	const vocab, dim, maxPos = 50, 6, 128
	rng := rand.New(rand.NewPCG(3, 4))
	table := func(n int) [][]float64 {
		t := make([][]float64, n)
		for i := range t {
			t[i] = make([]float64, dim)
			for j := range t[i] {
				t[i][j] = rng.NormFloat64()
			}
		}
		return t
	}
	emb, pos, out := table(vocab), table(maxPos), table(vocab)
	losses := make([]float32, b.Rows*b.Len)
	for r := range b.Rows {
		h := make([][]float64, b.Len)
		for s := range b.Len {
			i := r*b.Len + s
			h[s] = make([]float64, dim)
			for j := range dim {
				h[s][j] = emb[b.Inputs[i]][j] + pos[position(i)][j]
			}
		}
		for q := range b.Len {
			i := r*b.Len + q
			if b.SegmentIDs[i] == 0 {
				continue
			}
			var keys []int
			var scores []float64
			top := math.Inf(-1)
			for k := range q + 1 {
				if attends(r, q, k) {
					s := 0.0
					for j := range dim {
						s += h[q][j] * h[k][j]
					}
					keys, scores = append(keys, k), append(scores, s/2)
					top = max(top, s/2)
				}
			}
			o := make([]float64, dim)
			z := 0.0
			for n, k := range keys {
				w := math.Exp(scores[n] - top)
				z += w
				for j := range dim {
					o[j] += w * h[k][j]
				}
			}
			logits := make([]float64, vocab)
			lmax := math.Inf(-1)
			for v := range vocab {
				for j := range dim {
					logits[v] += o[j] / z * out[v][j]
				}
				lmax = max(lmax, logits[v])
			}
			lse := 0.0
			for v := range vocab {
				lse += math.Exp(logits[v] - lmax)
			}
			logp := logits[b.Targets[i]] - lmax - math.Log(lse)
			losses[i] = float32(-float64(b.Mask[i]) * logp)
		}
	}
	return losses
}

func TestPaddingAndPackingGiveSameLosses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	trs := randomTrajectories(rng, 30, 40, 50)
	pad, err := PadBatch(trs, 48)
	if err != nil {
		t.Fatal(err)
	}
	pack, err := PackBatch(trs, 96)
	if err != nil {
		t.Fatal(err)
	}
	ownPos := func(b Batch) func(int) int { return func(i int) int { return int(b.Positions[i]) } }
	ref := pad.ByDoc(toyLosses(pad, pad.Attends, ownPos(pad)), len(trs))
	maxDiff := func(got [][]float32) float64 {
		d := 0.0
		for i := range ref {
			for p := range ref[i] {
				d = max(d, math.Abs(float64(got[i][p]-ref[i][p])))
			}
		}
		return d
	}
	if d := maxDiff(pack.ByDoc(toyLosses(pack, pack.Attends, ownPos(pack)), len(trs))); d > 1e-6 {
		t.Errorf("packed losses differ from padded ones by %g", d)
	}
	// The same comparison must fail when packing is done wrong, or it proves nothing.
	causalOnly := func(r, q, k int) bool { return pack.SegmentIDs[r*pack.Len+k] != 0 && k <= q }
	if d := maxDiff(pack.ByDoc(toyLosses(pack, causalOnly, ownPos(pack)), len(trs))); d < 1e-3 {
		t.Errorf("plain causal attention over packed documents changed the losses by only %g", d)
	}
	slotPos := func(i int) int { return i % pack.Len }
	if d := maxDiff(pack.ByDoc(toyLosses(pack, pack.Attends, slotPos), len(trs))); d < 1e-3 {
		t.Errorf("positions that do not restart per document changed the losses by only %g", d)
	}
}
