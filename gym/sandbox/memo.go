package sandbox

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// memo is a bounded least-recently-used map from a content hash to a run's result.
type memo struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recent; values are *memoEntry
	byKey map[string]*list.Element
}

type memoEntry struct {
	key string
	res Result
}

func newMemo(max int) *memo {
	return &memo{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// hashKey hashes parts unambiguously (each is length-prefixed).
func hashKey(parts ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		l := len(p)
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// get returns a copy of the memoized result so callers may not alter the memo.
func (m *memo) get(key string) (*Result, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.byKey[key]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(e)
	r := e.Value.(*memoEntry).res
	r.Tests = append([]TestResult(nil), r.Tests...)
	return &r, true
}

func (m *memo) put(key string, r *Result) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.byKey[key]; ok {
		m.order.MoveToFront(e)
		return
	}
	c := *r
	c.Tests = append([]TestResult(nil), r.Tests...)
	c.Tainted = "" // the worker that ran it was replaced; an answer from the memo taints nothing
	m.byKey[key] = m.order.PushFront(&memoEntry{key: key, res: c})
	for m.order.Len() > m.max {
		last := m.order.Back()
		m.order.Remove(last)
		delete(m.byKey, last.Value.(*memoEntry).key)
	}
}
