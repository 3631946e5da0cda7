package sandbox

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// memo is a bounded least-recently-used map from a content hash to a run's result, optionally
// backed by a folder on disk (see Options.MemoDir).
type memo struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recent; values are *memoEntry
	byKey map[string]*list.Element
	disk  *diskMemo // nil: memory only
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

// get returns a copy of the memoized result so callers may not alter the memo. A result found
// only on disk is taken into memory.
func (m *memo) get(key string) (*Result, bool) {
	m.mu.Lock()
	e, ok := m.byKey[key]
	if ok {
		m.order.MoveToFront(e)
		r := e.Value.(*memoEntry).res
		m.mu.Unlock()
		r.Tests = append([]TestResult(nil), r.Tests...)
		return &r, true
	}
	m.mu.Unlock()
	if m.disk == nil {
		return nil, false
	}
	r, ok := m.disk.get(key)
	if !ok {
		return nil, false
	}
	m.remember(key, r)
	return r, true
}

// put memoizes r; a result that would come out the same in any later process (not a timeout) is
// also written to disk.
func (m *memo) put(key string, r *Result) {
	if m.remember(key, r) && m.disk != nil && r.Status != StatusTimeout && r.Status != StatusCrashed {
		m.disk.put(key, r)
	}
}

// remember keeps a copy of r in memory; false if key was there already.
func (m *memo) remember(key string, r *Result) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.byKey[key]; ok {
		m.order.MoveToFront(e)
		return false
	}
	c := *r
	c.Tests = append([]TestResult(nil), r.Tests...)
	c.Tainted = "" // the worker that ran it was replaced; an answer from the memo taints nothing
	c.Cached = false
	m.byKey[key] = m.order.PushFront(&memoEntry{key: key, res: c})
	for m.order.Len() > m.max {
		last := m.order.Back()
		m.order.Remove(last)
		delete(m.byKey, last.Value.(*memoEntry).key)
	}
	return true
}

// memoVersion names the format and meaning of results on disk: change it when the judge, the
// worker or Result changes what a run answers, so that no folder serves an old answer.
const memoVersion = "sandbox-memo-1"

// diskMemo keeps results as files, one per run, under dir. A file's name hashes the run's key
// with salt, which holds everything besides the request that decides the answer (the memo's
// version, the confinement, the interpreter and the limits), so pools configured differently
// never share an answer.
type diskMemo struct {
	dir, salt string
	log       io.Writer
	warned    sync.Once
}

func newDiskMemo(o *Options, mode Mode) (*diskMemo, error) {
	if err := os.MkdirAll(o.MemoDir, 0o755); err != nil {
		return nil, fmt.Errorf("sandbox: memo folder (Options.MemoDir or AGENTRL_SANDBOX_MEMO): %w", err)
	}
	py, err := os.Stat(o.Python)
	if err != nil {
		return nil, err
	}
	salt := hashKey(memoVersion, mode.String(), o.Python, py.ModTime().String(), fmt.Sprint(py.Size()),
		fmt.Sprint(o.MemoryBytes, o.FileBytes, o.ScratchMB, o.Procs, o.OutputCap))
	return &diskMemo{dir: o.MemoDir, salt: salt, log: o.Log}, nil
}

func (d *diskMemo) path(key string) string {
	h := hashKey(d.salt, key)
	return filepath.Join(d.dir, h[:2], h[2:]+".json")
}

// get reads key's result; a missing or unreadable file is a miss (the run then executes).
func (d *diskMemo) get(key string) (*Result, bool) {
	data, err := os.ReadFile(d.path(key))
	if err != nil {
		return nil, false
	}
	var r Result
	if json.Unmarshal(data, &r) != nil {
		return nil, false
	}
	return &r, true
}

// put writes r whole (a temporary file renamed into place), so a reader never sees half a
// result. A failure to write costs only a later rerun: it is reported once and the run goes on.
func (d *diskMemo) put(key string, r *Result) {
	c := *r
	c.Cached, c.Tainted = false, ""
	err := func() error {
		data, err := json.Marshal(&c)
		if err != nil {
			return err
		}
		path := d.path(key)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
		return err
	}()
	if err != nil {
		d.warned.Do(func() {
			fmt.Fprintf(d.log, "agentrl sandbox: WARNING: cannot keep results in %s (%v); runs go on, memoized in memory only\n", d.dir, err)
		})
	}
}
