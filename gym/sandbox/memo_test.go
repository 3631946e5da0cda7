package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain keeps the developer's memo folder out of the tests: they check runs that execute.
func TestMain(m *testing.M) {
	os.Unsetenv(MemoDirEnv)
	os.Exit(m.Run())
}

// TestMemoOnDisk checks that a second pool with the same folder answers a run the first one made
// without executing it, with the same result; that timeouts are not kept; and that a pool with
// other limits does not share the folder's answers.
func TestMemoOnDisk(t *testing.T) {
	dir := t.TempDir()
	pass := Request{Module: "m", Source: "def f(x):\n    print('seen', x)\n    return x\n", Tests: okTests}
	fail := Request{Module: "m", Source: "def f(x):\n    return x + 1\n", Tests: okTests}
	loop := Request{Module: "m", Source: "def f(x):\n    while True:\n        pass\n", Tests: okTests}
	newPool := func(o Options) *Pool {
		t.Helper()
		o.Workers, o.Timeout, o.Log, o.MemoDir = 1, 200*time.Millisecond, io.Discard, dir
		p, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	run := func(p *Pool, req Request) *Result {
		t.Helper()
		r, err := p.Run(req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	first := newPool(Options{})
	want := []*Result{run(first, pass), run(first, fail), run(first, loop)}
	if !want[0].AllPassed() || want[1].AllPassed() || want[2].Status != StatusTimeout {
		t.Fatalf("first pool: %+v / %+v / %s", want[0], want[1], want[2].Status)
	}
	if s := first.Stats(); s.Runs != 3 || s.Cached != 0 {
		t.Fatalf("first pool: %+v", s)
	}

	second := newPool(Options{})
	for i, req := range []Request{pass, fail} {
		got := run(second, req)
		if !got.Cached || got.Status != want[i].Status || got.Output != want[i].Output ||
			got.Passed() != want[i].Passed() || len(got.Tests) != len(want[i].Tests) {
			t.Fatalf("second pool, run %d: got %+v, want %+v from disk", i, got, want[i])
		}
	}
	if got := run(second, loop); got.Cached || got.Status != StatusTimeout {
		t.Fatalf("a timeout came from disk: cached %v, status %s", got.Cached, got.Status)
	}
	if s := second.Stats(); s.Runs != 1 || s.Cached != 2 {
		t.Fatalf("second pool: %+v (want 1 run, 2 from disk)", s)
	}

	other := newPool(Options{OutputCap: 4})
	if got := run(other, pass); got.Cached {
		t.Fatalf("a pool with another output cap took the folder's answer (output %q)", got.Output)
	}
}

// TestMemoDirUnusable checks that a memo folder that cannot be made is named in New's error.
func TestMemoDirUnusable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{Workers: 1, Log: io.Discard, MemoDir: filepath.Join(file, "memo")})
	if err == nil || !strings.Contains(err.Error(), "memo folder") || !strings.Contains(err.Error(), file) {
		t.Fatalf("New with a memo folder under a file: %v", err)
	}
}
