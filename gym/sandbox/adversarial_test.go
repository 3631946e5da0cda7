package sandbox

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// attack is one piece of hostile test code and what containing it means.
type attack struct {
	name  string
	tests string // a test file; the module under test is a trivial one
	// needsNamespaces marks attacks only ModeNamespaces contains (filesystem and network).
	needsNamespaces bool
	// needsOwnUID marks attacks that, without namespaces, only a dedicated uid contains.
	needsOwnUID bool
	timeout     time.Duration
	memory      int64 // RLIMIT_AS; small for the memory bomb, since faulting pages in is slow
	check       func(t *testing.T, r *Result)
}

const trivialModule = "def f(x):\n    return x\n"

func failedWith(t *testing.T, r *Result, want ...string) {
	t.Helper()
	if r.Status != StatusOK {
		t.Fatalf("status %s (%s), want ok with a failing test", r.Status, r.Error)
	}
	ft := r.FirstFailure()
	if ft == nil {
		t.Fatalf("the attack's test passed: %+v", r.Tests)
	}
	for _, w := range want {
		if strings.Contains(ft.Message, w) {
			return
		}
	}
	t.Fatalf("failure %q mentions none of %q", ft.Message, want)
}

func attacks(t *testing.T) []attack {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("host secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	return []attack{
		{name: "infinite loop", timeout: 300 * time.Millisecond,
			tests: "def test_loop():\n    while True:\n        pass\n",
			check: func(t *testing.T, r *Result) {
				if r.Status != StatusTimeout || r.Tainted == "" {
					t.Fatalf("got status %s tainted %q, want a timeout that taints the worker", r.Status, r.Tainted)
				}
			}},
		{name: "memory bomb", memory: 160 << 20, timeout: 10 * time.Second,
			tests: "def test_big():\n    x = bytearray(4 * 1024 ** 3)\n\n" +
				"def test_grow():\n    l = []\n    while True:\n        l.append(bytearray(4 * 10 ** 6))\n",
			check: func(t *testing.T, r *Result) {
				if r.Status != StatusOK || len(r.Tests) != 2 {
					t.Fatalf("got %s %+v", r.Status, r.Tests)
				}
				for _, tr := range r.Tests {
					if tr.Passed || !strings.Contains(tr.Message, "MemoryError") {
						t.Fatalf("%s: %q, want MemoryError", tr.Name, tr.Message)
					}
				}
			}},
		{name: "fork bomb", needsOwnUID: true,
			tests: "import os, time\n\ndef test_fork():\n    n = 0\n    while n < 1000:\n        try:\n            pid = os.fork()\n" +
				"        except OSError:\n            break\n        if pid == 0:\n            os.setsid()\n            time.sleep(1000)\n        n += 1\n" +
				"    assert False, 'forked %d' % n\n",
			check: func(t *testing.T, r *Result) {
				failedWith(t, r, "forked")
				var n int
				fmt.Sscanf(r.FirstFailure().Message[strings.Index(r.FirstFailure().Message, "forked"):], "forked %d", &n)
				if n >= 1000 || n == 0 {
					t.Fatalf("forked %d children; the process limit should stop it early", n)
				}
				if r.Tainted == "" {
					t.Fatal("children left running did not taint the worker")
				}
				t.Logf("fork bomb stopped after %d children; worker replaced (%s)", n, r.Tainted)
			}},
		{name: "huge output",
			tests: "import os, sys\n\ndef test_print():\n    for _ in range(10 ** 5):\n        print('x' * 1000)\n" +
				"    os.write(1, b'y' * (1 << 20))\n    sys.__stdout__.write('z' * (1 << 20))\n",
			check: func(t *testing.T, r *Result) {
				if !r.OutputTruncated || len(r.Output) > 16384 {
					t.Fatalf("output of %d chars, truncated=%v: want at most 16384 and truncated", len(r.Output), r.OutputTruncated)
				}
			}},
		{name: "huge file",
			tests: "def test_file():\n    with open('big', 'wb') as f:\n        for _ in range(100):\n            f.write(b'x' * (1 << 20))\n",
			check: func(t *testing.T, r *Result) {
				failedWith(t, r, "File too large")
			}},
		{name: "filling scratch", needsNamespaces: true,
			tests: "def test_fill_scratch():\n    for i in range(100):\n        with open('part%d' % i, 'wb') as f:\n            f.write(b'x' * (15 << 20))\n",
			check: func(t *testing.T, r *Result) {
				failedWith(t, r, "No space left")
			}},
		{name: "network access", needsNamespaces: true, tests: "", check: nil}, // filled in by TestAdversarial
		{name: "reading outside scratch", needsNamespaces: true,
			tests: fmt.Sprintf("import os\n\ndef test_secret():\n    assert open(%q).read() != 'host secret'\n\n", secret) +
				"def test_passwd():\n    open('/etc/passwd').read()\n\n" +
				"def test_root():\n    assert sorted(os.listdir('/')) == ['bin', 'dev', 'lib', 'lib64', 'tmp', 'usr'], os.listdir('/')\n\n" +
				"def test_write_usr():\n    open('/usr/evil', 'w')\n",
			check: func(t *testing.T, r *Result) {
				if r.Status != StatusOK || len(r.Tests) != 4 {
					t.Fatalf("got %s %+v", r.Status, r.Tests)
				}
				want := []string{"FileNotFoundError", "FileNotFoundError", "", "Read-only file system"}
				for i, tr := range r.Tests {
					if want[i] == "" {
						if !tr.Passed {
							t.Fatalf("%s: %s", tr.Name, tr.Message)
						}
						continue
					}
					if tr.Passed || !strings.Contains(tr.Message, want[i]) {
						t.Fatalf("%s: passed=%v %q, want %s", tr.Name, tr.Passed, tr.Message, want[i])
					}
				}
			}},
		{name: "interpreter crash",
			tests: "import os\n\ndef test_exit():\n    os._exit(7)\n",
			check: func(t *testing.T, r *Result) {
				if r.Status != StatusCrashed || r.Tainted == "" {
					t.Fatalf("got %s tainted %q, want crashed", r.Status, r.Tainted)
				}
			}},
		{name: "thread left running",
			tests: "import threading, time\n\ndef test_thread():\n    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n",
			check: func(t *testing.T, r *Result) {
				if !r.AllPassed() || r.Tainted == "" {
					t.Fatalf("got %+v, want a passing test and a tainted worker", r)
				}
			}},
	}
}

// TestAdversarial runs each attack in its own pool, checks it was contained with a clear
// result, checks the pool still serves a normal run afterwards, and checks that no process of
// the pool is left once it is closed.
func TestAdversarial(t *testing.T) {
	for _, mode := range []Mode{ModeAuto, ModeRlimits} {
		for _, a := range attacks(t) {
			for _, fresh := range []bool{false, true} {
				name := mode.String()[:strings.IndexAny(mode.String()+" ", " -")] + "/" + a.name + "/warm"
				if fresh {
					name = strings.TrimSuffix(name, "warm") + "fresh"
				}
				t.Run(name, func(t *testing.T) { runAttack(t, a, mode, fresh) })
			}
		}
	}
}

// requireNamespaces (AGENTRL_REQUIRE_NAMESPACES=1, which .ci/run sets) turns the tests that
// would skip for lack of namespaces into failures, so that a green CI has tested containment.
var requireNamespaces = os.Getenv("AGENTRL_REQUIRE_NAMESPACES") == "1"

// TestNamespacesWhenRequired fails where namespaces are required and the pool cannot use them.
func TestNamespacesWhenRequired(t *testing.T) {
	if !requireNamespaces {
		t.Skip("AGENTRL_REQUIRE_NAMESPACES is not 1")
	}
	var log strings.Builder
	p, err := New(Options{Workers: 1, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Mode() != ModeNamespaces {
		t.Fatalf("AGENTRL_REQUIRE_NAMESPACES=1 but the pool fell back to mode %s:\n%s", p.Mode(), log.String())
	}
}

func runAttack(t *testing.T, a attack, mode Mode, fresh bool) {
	var log strings.Builder
	p, err := New(Options{Workers: 1, Mode: mode, Timeout: a.timeout, MemoryBytes: a.memory, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			p.Close()
		}
	}()
	if log.Len() > 0 {
		t.Logf("pool warned:\n%s", log.String())
	}
	// ModeRlimits is documented as weaker: those attacks skip there. Under ModeAuto a skip means
	// the machine refused namespaces, which CI must not take for a pass.
	missing := mode == ModeAuto && requireNamespaces
	if a.needsNamespaces && p.Mode() != ModeNamespaces {
		if missing {
			t.Fatalf("AGENTRL_REQUIRE_NAMESPACES=1 but the pool runs in mode %s: %q cannot be tested", p.Mode(), a.name)
		}
		t.Skipf("SANDBOX WEAK: %q is not contained in mode %s", a.name, p.Mode())
	}
	if a.needsOwnUID && p.Mode() != ModeNamespaces && os.Geteuid() != 0 {
		if missing {
			t.Fatalf("AGENTRL_REQUIRE_NAMESPACES=1 but the pool runs in mode %s as a non-root user: %q cannot be tested", p.Mode(), a.name)
		}
		t.Skipf("SANDBOX WEAK: %q is not contained in mode %s without a dedicated uid (not root)", a.name, p.Mode())
	}
	if a.name == "network access" {
		a.tests, a.check = networkAttack(t)
	}
	run := p.Run
	if fresh {
		run = p.RunFresh
	}
	r, err := run(Request{Module: "m", Source: trivialModule, Tests: a.tests, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if fresh {
		// A fresh process is discarded anyway: it never taints the pristine worker.
		if r.Tainted != "" {
			t.Fatalf("fresh run tainted its worker: %q", r.Tainted)
		}
		r.Tainted = "discarded"
	}
	a.check(t, r)
	for _, f := range []func(Request) (*Result, error){p.Run, p.RunFresh} {
		after, err := f(Request{Module: "m", Source: trivialModule, Tests: "from m import f\n\ndef test_ok():\n    assert f(2) == 2\n", NoCache: true})
		if err != nil || !after.AllPassed() {
			t.Fatalf("the pool did not recover: %v %+v", err, after)
		}
	}
	p.Close()
	closed = true
	if n, err := p.LiveProcesses(); err != nil || n != 0 {
		t.Fatalf("%d processes left after Close (%v)", n, err)
	}
}

// networkAttack listens on the host's loopback and asks the sandbox to connect to it.
func networkAttack(t *testing.T) (string, func(*testing.T, *Result)) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan bool, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
			accepted <- true
		}
	}()
	t.Cleanup(func() { ln.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	tests := fmt.Sprintf("import socket\n\ndef test_tcp():\n    socket.create_connection(('127.0.0.1', %d), timeout=1).close()\n\n", port) +
		"def test_udp():\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n    s.sendto(b'x', ('8.8.8.8', 53))\n"
	return tests, func(t *testing.T, r *Result) {
		if r.Status != StatusOK || len(r.Tests) != 2 {
			t.Fatalf("got %s %+v", r.Status, r.Tests)
		}
		for _, tr := range r.Tests {
			if tr.Passed || !strings.Contains(tr.Message, "Network is unreachable") {
				t.Fatalf("%s: passed=%v %q, want Network is unreachable", tr.Name, tr.Passed, tr.Message)
			}
		}
		select {
		case <-accepted:
			t.Fatal("the host listener accepted a connection from the sandbox")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestRestoresPatchedState patches builtins, stdlib functions, sys and the worker's own
// functions in one run and checks that the next run on the same worker sees none of it.
func TestRestoresPatchedState(t *testing.T) {
	p, err := New(Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	patch := `import builtins, math, os, sys, __main__
import json

def test_patch():
    builtins.len = lambda x: 42
    builtins.evil = True
    math.sqrt = lambda x: -1.0
    json.dumps = None
    sys.path.append('/evil')
    sys.setrecursionlimit(60)
    os.environ['EVIL'] = '1'
    __main__.describe = lambda e, f: 'forged'
    os.chdir('/')
    open('/tmp/left-behind', 'w').write('x')
`
	probe := `import builtins, math, os, sys

def test_len():
    assert len([1, 2]) == 2

def test_builtin_added():
    assert not hasattr(builtins, 'evil')

def test_math():
    assert math.sqrt(4) == 2.0

def test_json():
    import json
    assert json.dumps([1]) == '[1]'

def test_sys():
    assert '/evil' not in sys.path and sys.getrecursionlimit() == 1000

def test_env():
    assert 'EVIL' not in os.environ

def test_scratch():
    assert os.listdir('.') == []

def test_messages():
    assert False, 'real message'
`
	r, err := p.Run(Request{Module: "m", Source: trivialModule, Tests: patch})
	if err != nil || !r.AllPassed() {
		t.Fatalf("patch run: %v %+v", err, r)
	}
	r, err = p.Run(Request{Module: "m", Source: trivialModule, Tests: probe})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range r.Tests {
		if tr.Name == "test_messages" {
			if tr.Passed || !strings.Contains(tr.Message, "real message") {
				t.Errorf("worker's reporting was patched: %q", tr.Message)
			}
			continue
		}
		if !tr.Passed {
			t.Errorf("%s leaked from the previous run: %s", tr.Name, tr.Message)
		}
	}
	if p.Stats().Restarts != 0 {
		t.Errorf("restored state should not need a restart: %+v", p.Stats())
	}
}

// TestRlimitsModeContains checks the fallback mode still bounds time and processes.
func TestRlimitsModeContains(t *testing.T) {
	var log strings.Builder
	p, err := New(Options{Workers: 1, Mode: ModeRlimits, Timeout: 300 * time.Millisecond, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode() != ModeRlimits {
		t.Fatalf("mode %s", p.Mode())
	}
	r, err := p.Run(Request{Module: "m", Source: trivialModule, Tests: "import os, time\n\ndef test_fork():\n    if os.fork() == 0:\n        time.sleep(1000)\n    while True:\n        pass\n"})
	if err != nil || r.Status != StatusTimeout {
		t.Fatalf("got %v %+v, want a timeout", err, r)
	}
	r, err = p.Run(Request{Module: "m", Source: trivialModule, Tests: "from m import f\n\ndef test_ok():\n    assert f(1) == 1\n"})
	if err != nil || !r.AllPassed() {
		t.Fatalf("after timeout: %v %+v", err, r)
	}
	p.Close()
	if n, err := p.LiveProcesses(); err != nil || n != 0 {
		t.Fatalf("%d processes left (%v)", n, err)
	}
}

// TestFallbackIsLoud checks that where namespaces are refused, ModeAuto falls back to
// ModeRlimits and says so, and that ModeNamespaces then fails instead of running weaker.
func TestFallbackIsLoud(t *testing.T) {
	refuseNamespaces = true
	defer func() { refuseNamespaces = false }()
	var log strings.Builder
	p, err := New(Options{Workers: 1, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Mode() != ModeRlimits {
		t.Fatalf("mode %s, want the rlimits fallback", p.Mode())
	}
	if !strings.Contains(log.String(), "WARNING") || !strings.Contains(log.String(), "CAN read the filesystem") {
		t.Fatalf("the fallback was not announced: %q", log.String())
	}
	r, err := p.Run(Request{Module: "m", Source: trivialModule, Tests: "from m import f\n\ndef test_ok():\n    assert f(1) == 1\n"})
	if err != nil || !r.AllPassed() {
		t.Fatalf("fallback pool: %v %+v", err, r)
	}
	if _, err := New(Options{Workers: 1, Mode: ModeNamespaces, Log: &log}); err == nil {
		t.Fatal("ModeNamespaces started without namespaces")
	}
}

// TestMemoizedTimeouts checks that a run that timed out is memoized unless RetryTimeouts, and
// that the memoized answer is the same timeout, given without running.
func TestMemoizedTimeouts(t *testing.T) {
	loop := Request{Module: "m", Source: trivialModule, Tests: "def test_loop():\n    while True:\n        pass\n"}
	for _, retry := range []bool{true, false} {
		memo := !retry // the memo answers the second run
		p, err := New(Options{Workers: 1, Timeout: 200 * time.Millisecond, RetryTimeouts: retry, Log: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			r, err := p.Run(loop)
			if err != nil {
				p.Close()
				t.Fatal(err)
			}
			if r.Status != StatusTimeout || r.Cached != (memo && i == 1) {
				p.Close()
				t.Fatalf("RetryTimeouts %v, run %d: status %s, cached %v", retry, i, r.Status, r.Cached)
			}
			if r.Cached && r.Tainted != "" {
				p.Close()
				t.Fatalf("a memoized timeout is tainted: %q", r.Tainted)
			}
		}
		if got, want := p.Stats().Timeouts, int64(2); memo && got != 1 || !memo && got != want {
			p.Close()
			t.Fatalf("RetryTimeouts %v: %d runs timed out", retry, got)
		}
		p.Close()
	}
}
