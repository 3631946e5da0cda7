package tokenizer

// merge is the result of merging a pair of tokens: its rank in the merge list (lower merges first)
// and the id of the merged token.
type merge struct {
	rank int32
	id   int32
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// heapThreshold is the word length (in bytes) from which the heap-based merge is used. Below it a
// scan over a small array is faster; above it the scan's quadratic cost takes over (a 24 KB run
// of CJK text without spaces is one pre-token).
const heapThreshold = 48

// bpe merges the bytes of one pre-token into token ids, always applying the lowest-ranked
// applicable merge, leftmost first, exactly as Hugging Face's BPE model does.
func (t *Tokenizer) bpe(word string, dst []int32) []int32 {
	if len(word) == 1 {
		return append(dst, t.byteID[word[0]])
	}
	if len(word) >= heapThreshold {
		return t.bpeHeap(word, dst)
	}
	var idsBuf [heapThreshold]int32
	var ranksBuf [heapThreshold]merge
	n := len(word)
	ids, ranks := idsBuf[:n], ranksBuf[:n-1]
	for i := 0; i < n; i++ {
		ids[i] = t.byteID[word[i]]
	}
	none := merge{rank: -1}
	for i := 0; i < n-1; i++ {
		if m, ok := t.merges[pairKey(ids[i], ids[i+1])]; ok {
			ranks[i] = m
		} else {
			ranks[i] = none
		}
	}
	for {
		best := -1
		for i, m := range ranks {
			if m.rank >= 0 && (best < 0 || m.rank < ranks[best].rank) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		ids[best] = ranks[best].id
		copy(ids[best+1:], ids[best+2:])
		ids = ids[:len(ids)-1]
		copy(ranks[best:], ranks[best+1:])
		ranks = ranks[:len(ranks)-1]
		if best > 0 {
			if m, ok := t.merges[pairKey(ids[best-1], ids[best])]; ok {
				ranks[best-1] = m
			} else {
				ranks[best-1] = none
			}
		}
		if best < len(ranks) {
			if m, ok := t.merges[pairKey(ids[best], ids[best+1])]; ok {
				ranks[best] = m
			} else {
				ranks[best] = none
			}
		}
	}
	return append(dst, ids...)
}

// symbol is one token of a word being merged, linked to its neighbours; merged-away symbols get
// id -1.
type symbol struct {
	id         int32
	prev, next int32
}

// candidate is a possible merge of the symbol at pos with its right neighbour into id.
type candidate struct {
	rank, pos, id int32
}

func (a candidate) less(b candidate) bool {
	return a.rank < b.rank || a.rank == b.rank && a.pos < b.pos
}

// bpeHeap is the O(n log n) form of bpe: a min-heap of candidate merges ordered by (rank,
// position), with stale entries skipped when popped.
func (t *Tokenizer) bpeHeap(word string, dst []int32) []int32 {
	n := len(word)
	syms := make([]symbol, n)
	for i := 0; i < n; i++ {
		syms[i] = symbol{id: t.byteID[word[i]], prev: int32(i - 1), next: int32(i + 1)}
	}
	syms[n-1].next = -1
	h := make(candidateHeap, 0, n)
	for i := 0; i < n-1; i++ {
		if m, ok := t.merges[pairKey(syms[i].id, syms[i+1].id)]; ok {
			h = append(h, candidate{m.rank, int32(i), m.id})
		}
	}
	h.init()
	for len(h) > 0 {
		c := h.pop()
		s := &syms[c.pos]
		if s.id < 0 || s.next < 0 {
			continue
		}
		right := syms[s.next]
		if m, ok := t.merges[pairKey(s.id, right.id)]; !ok || m.id != c.id {
			continue // the pair changed since this candidate was pushed
		}
		s.id = c.id
		syms[s.next].id = -1
		s.next = right.next
		if right.next >= 0 {
			syms[right.next].prev = c.pos
		}
		if s.prev >= 0 {
			if m, ok := t.merges[pairKey(syms[s.prev].id, s.id)]; ok {
				h.push(candidate{m.rank, s.prev, m.id})
			}
		}
		if s.next >= 0 {
			if m, ok := t.merges[pairKey(s.id, syms[s.next].id)]; ok {
				h.push(candidate{m.rank, c.pos, m.id})
			}
		}
	}
	for i := int32(0); i >= 0; i = syms[i].next {
		dst = append(dst, syms[i].id)
	}
	return dst
}

// candidateHeap is a binary min-heap; written out rather than through container/heap to avoid
// boxing every element in an interface.
type candidateHeap []candidate

func (h candidateHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *candidateHeap) push(c candidate) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s[i].less(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *candidateHeap) pop() candidate {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h candidateHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
