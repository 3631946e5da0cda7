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

// attack is one piece of hostile module code and what containing it means. The tests call the
// module's functions; the judge never runs the test file.
type attack struct {
	name   string
	module string // the module m under test
	tests  string // the test file; default: test_1 asserts f(1) == 1
	// needsNamespaces marks attacks only ModeNamespaces contains (filesystem and network).
	needsNamespaces bool
	// needsOwnUID marks attacks that, without namespaces, only a dedicated uid contains.
	needsOwnUID bool
	timeout     time.Duration
	memory      int64 // RLIMIT_AS; small for the memory bomb, since faulting pages in is slow
	check       func(t *testing.T, r *Result)
}

const trivialModule = "def f(x):\n    return x\n"

// okTests is a test file a trivial module passes. Like every test file here it is also a Python
// test file (it imports what it calls, and defines check), so that the same attacks can be tried
// against a runner that executes tests beside the module.
const okTests = "from m import f\n\n\ndef check(call, got, want):\n    assert got == want\n\n\ndef test_1():\n    check(\"f(2)\", f(2), 2)\n"

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

// allFailed checks that the run completed and that every one of its n tests failed.
func allFailed(t *testing.T, r *Result, n int) {
	t.Helper()
	if r.Status != StatusOK || len(r.Tests) != n {
		t.Fatalf("got status %s (%s) with %d tests, want %d failing tests", r.Status, r.Error, len(r.Tests), n)
	}
	for _, tr := range r.Tests {
		if tr.Passed {
			t.Fatalf("%s passed: the attack earned something", tr.Name)
		}
	}
}

func attacks(t *testing.T) []attack {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("host secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	return []attack{
		{name: "infinite loop", timeout: 300 * time.Millisecond,
			module: "def f(x):\n    while True:\n        pass\n",
			check: func(t *testing.T, r *Result) {
				if r.Status != StatusTimeout {
					t.Fatalf("got status %s, want a timeout", r.Status)
				}
			}},
		{name: "memory bomb", memory: 160 << 20, timeout: 10 * time.Second,
			module: "def big():\n    return len(bytearray(4 * 1024 ** 3))\n\n" +
				"def grow():\n    l = []\n    while True:\n        l.append(bytearray(4 * 10 ** 6))\n",
			tests: "from m import *\n\ndef test_big():\n    assert big() == 0\n\ndef test_grow():\n    assert grow() == 0\n",
			check: func(t *testing.T, r *Result) {
				allFailed(t, r, 2)
				for _, tr := range r.Tests {
					if !strings.Contains(tr.Message, "MemoryError") {
						t.Fatalf("%s: %q, want MemoryError", tr.Name, tr.Message)
					}
				}
			}},
		{name: "fork bomb", needsOwnUID: true,
			module: "import os, time\n\ndef f(x):\n    n = 0\n    while n < 1000:\n        try:\n            pid = os.fork()\n" +
				"        except OSError:\n            break\n        if pid == 0:\n            os.setsid()\n            time.sleep(1000)\n        n += 1\n" +
				"    return n\n",
			tests: "from m import *\n\ndef test_1():\n    assert f(1) == -1\n",
			check: func(t *testing.T, r *Result) {
				failedWith(t, r, "returned")
				var n int
				fmt.Sscanf(r.Tests[0].Message, "AssertionError: f(1) returned %d", &n)
				if n >= 1000 || n == 0 {
					t.Fatalf("forked %d children (%q); the process limit should stop it early", n, r.Tests[0].Message)
				}
				t.Logf("fork bomb stopped after %d children", n)
			}},
		{name: "huge output",
			module: "import os, sys\n\ndef f(x):\n    for _ in range(10 ** 5):\n        print('x' * 1000)\n" +
				"    os.write(1, b'y' * (1 << 20))\n    sys.__stdout__.write('z' * (1 << 20))\n    return x\n",
			check: func(t *testing.T, r *Result) {
				if !r.OutputTruncated || len(r.Output) > 16384 {
					t.Fatalf("output of %d chars, truncated=%v: want at most 16384 and truncated", len(r.Output), r.OutputTruncated)
				}
			}},
		{name: "huge file",
			module: "def f(x):\n    with open('big', 'wb') as f:\n        for _ in range(100):\n            f.write(b'x' * (1 << 20))\n",
			check: func(t *testing.T, r *Result) {
				failedWith(t, r, "File too large")
			}},
		{name: "filling scratch", needsNamespaces: true,
			module: "def f(x):\n    for i in range(100):\n        with open('part%d' % i, 'wb') as f:\n            f.write(b'x' * (15 << 20))\n",
			check: func(t *testing.T, r *Result) {
				failedWith(t, r, "No space left")
			}},
		{name: "network access", needsNamespaces: true, check: nil}, // filled in by runAttack
		{name: "reading outside scratch", needsNamespaces: true,
			module: fmt.Sprintf("import os\n\ndef secret():\n    return open(%q).read()\n\n", secret) +
				"def passwd():\n    return open('/etc/passwd').read()\n\n" +
				"def root():\n    return sorted(os.listdir('/'))\n\n" +
				"def write_usr():\n    open('/usr/evil', 'w')\n",
			tests: "from m import *\n\ndef test_secret():\n    assert secret() == ''\n\ndef test_passwd():\n    assert passwd() == ''\n\n" +
				"def test_root():\n    assert root() == ['bin', 'dev', 'lib', 'lib64', 'tmp', 'usr']\n\n" +
				"def test_write_usr():\n    assert write_usr() == None\n",
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
			module: "import os\n\ndef f(x):\n    os._exit(7)\n",
			check: func(t *testing.T, r *Result) {
				if r.Status != StatusCrashed {
					t.Fatalf("got %s, want crashed", r.Status)
				}
			}},
		{name: "thread left running",
			module: "import threading, time\n\ndef f(x):\n    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n    return x\n",
			check: func(t *testing.T, r *Result) {
				if !r.AllPassed() {
					t.Fatalf("got %+v, want a passing test", r)
				}
			}},
	}
}

// TestAdversarial runs each attack in its own pool, checks it was contained with a clear
// result, that it left no process behind, that the pool still serves a normal run afterwards, and
// that no process of the pool is left once it is closed.
func TestAdversarial(t *testing.T) {
	for _, mode := range []Mode{ModeAuto, ModeRlimits} {
		for _, a := range attacks(t) {
			name := mode.String()[:strings.IndexAny(mode.String()+" ", " -")] + "/" + a.name
			t.Run(name, func(t *testing.T) { runAttack(t, a, mode) })
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

// onePool starts a pool of one worker, so that every run of a test goes to the same worker.
func onePool(t *testing.T) *Pool {
	t.Helper()
	p, err := New(Options{Workers: 1, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// skipWeak skips a test that only namespaces contain when the pool lacks them, unless
// namespaces are required: under ModeAuto a skip means the machine refused them, which CI must
// not take for a pass.
func skipWeak(t *testing.T, p *Pool, requested Mode, what string) {
	t.Helper()
	if p.Mode() == ModeNamespaces {
		return
	}
	if requested == ModeAuto && requireNamespaces {
		t.Fatalf("AGENTRL_REQUIRE_NAMESPACES=1 but the pool runs in mode %s: %q cannot be tested", p.Mode(), what)
	}
	t.Skipf("SANDBOX WEAK: %q is not contained in mode %s", what, p.Mode())
}

// settled waits until the pool runs want processes, and returns how many it runs.
func settled(t *testing.T, p *Pool, want int) int {
	t.Helper()
	n := -1
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var err error
		if n, err = p.LiveProcesses(); err != nil {
			t.Fatal(err)
		}
		if n == want {
			break
		}
	}
	return n
}

func runAttack(t *testing.T, a attack, mode Mode) {
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
	// ModeRlimits is documented as weaker: those attacks skip there.
	if a.needsNamespaces {
		skipWeak(t, p, mode, a.name)
	}
	if a.needsOwnUID && os.Geteuid() != 0 {
		skipWeak(t, p, mode, a.name+" (without a dedicated uid: not root)")
	}
	if a.name == "network access" {
		a.module, a.check = networkAttack(t)
	}
	if a.tests == "" {
		a.tests = "from m import f\n\n\ndef test_1():\n    assert f(1) == 1\n"
	}
	before, err := p.LiveProcesses()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Run(Request{Module: "m", Source: a.module, Tests: a.tests, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	a.check(t, r)
	if r.Tainted != "" {
		t.Errorf("the run tainted its worker (%s): a run's process is discarded, the worker should not be", r.Tainted)
	}
	if n := settled(t, p, before); n != before {
		t.Fatalf("%d processes of the pool after the run, %d before: the run left some behind", n, before)
	}
	after, err := p.Run(Request{Module: "m", Source: trivialModule, Tests: okTests, NoCache: true})
	if err != nil || !after.AllPassed() {
		t.Fatalf("the pool did not recover: %v %+v", err, after)
	}
	p.Close()
	closed = true
	if n := settled(t, p, 0); n != 0 {
		t.Fatalf("%d processes left after Close", n)
	}
}

// networkAttack listens on the host's loopback and has the module connect to it.
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
	module := fmt.Sprintf("import socket\n\ndef tcp():\n    socket.create_connection(('127.0.0.1', %d), timeout=1).close()\n\n", port) +
		"def udp():\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n    s.sendto(b'x', ('8.8.8.8', 53))\n"
	module += "\n\ndef f(x):\n    return [tcp(), udp()]\n"
	return module, func(t *testing.T, r *Result) {
		failedWith(t, r, "Network is unreachable")
		select {
		case <-accepted:
			t.Fatal("the host listener accepted a connection from the sandbox")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// checkHelper is the check function of the gym's test files, for the runners that execute them.
const checkHelper = "def check(call, got, want):\n    assert got == want, \"%s returned %r, expected %r\" % (call, got, want)\n\n\n"

// forger rewrites, in memory, every function a runner could use to report a result: the
// reporting function of the runner that ran tests beside the module (response_fields) and the
// encoder of this one (encode). It rebinds them for this run and replaces their code in place for
// the runs after it, then returns a wrong answer.
const forger = `import sys

_main = sys.modules['__main__']


def _passed(resp, taint):
    return ['ok', '', '', '0', '', 'test_1', '1', '', 'test_2', '1', '']


def _value(v):
    return ('value', 'True')


for _name, _fake in (('response_fields', _passed), ('encode', _value)):
    _old = getattr(_main, _name, None)
    if _old is not None:
        setattr(_main, _name, _fake)
        _old.__code__ = _fake.__code__


def f(x):
    return 0
`

// forgedTests expect values the module cannot know.
const forgedTests = `from m import f


def check(call, got, want):
    assert got == want, "%s returned %r, expected %r" % (call, got, want)


def test_1():
    assert f(1) == 7919


def test_2():
    check("f(2)", f(2), 104729)
`

// TestRunnerRewrites rewrites the runner's reporting functions and code objects in memory, and
// checks that the rewrite earns nothing, in the same run or in the runs after it on the same
// worker.
func TestRunnerRewrites(t *testing.T) {
	p := onePool(t)
	r, err := p.Run(Request{Module: "m", Source: forger, Tests: forgedTests, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	allFailed(t, r, 2)
	// A later clean run of a wrong module must fail with what it really returned, and a right
	// module must pass: the rewrite did not outlive its run.
	r, err = p.Run(Request{Module: "m", Source: "def f(x):\n    return 0\n", Tests: forgedTests, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	allFailed(t, r, 2)
	if m := r.Tests[0].Message; m != "AssertionError: f(1) returned 0, expected 7919" {
		t.Fatalf("the next run's report was rewritten: %q", m)
	}
	r, err = p.Run(Request{Module: "m", Source: "def f(x):\n    return {1: 7919, 2: 104729}[x]\n", Tests: forgedTests, NoCache: true})
	if err != nil || !r.AllPassed() {
		t.Fatalf("a right module after the rewrite: %v %+v", err, r)
	}
}

// TestNestedNamespaces enters a new user and UTS namespace, renames the host and changes uid,
// and checks that the next run still sees the worker's own uid and host name.
func TestNestedNamespaces(t *testing.T) {
	p := onePool(t)
	skipWeak(t, p, ModeAuto, "nested namespaces")
	probe := "import os, socket\n\ndef who():\n    return [os.getuid(), socket.gethostname()]\n"
	tests := "from m import *\n\n" + checkHelper + "def test_who():\n    check('who()', who(), [])\n"
	identity := func() string {
		r, err := p.Run(Request{Module: "m", Source: probe, Tests: tests, NoCache: true})
		if err != nil || r.Status != StatusOK || len(r.Tests) != 1 {
			t.Fatalf("probe: %v %+v", err, r)
		}
		return r.Tests[0].Message
	}
	before := identity()
	enter := `import ctypes, os, socket

_libc = ctypes.CDLL(None, use_errno=True)
if _libc.unshare(0x10000000 | 0x04000000) != 0:  # CLONE_NEWUSER | CLONE_NEWUTS
    raise OSError(ctypes.get_errno(), 'unshare')
try:
    with open('/proc/self/uid_map', 'w') as f:  # /proc is not mounted in the sandbox
        f.write('0 %d 1' % os.getuid())
except OSError:
    pass
_libc.sethostname(b'evil', 4)


def who():
    return [os.getuid(), socket.gethostname()]
`
	r, err := p.Run(Request{Module: "m", Source: enter, Tests: tests, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	// Each run has a user namespace of its own with no uid mapped in it, and the kernel refuses
	// a nested one to a process whose uid is unmapped: the attack fails at unshare. Were it let
	// through, it would change uid and host name; either way the next run must not see it.
	switch {
	case r.Status == StatusModuleError && strings.Contains(r.Error, "PermissionError"):
		t.Logf("refused: %s", r.Error)
	case r.Status == StatusOK && len(r.Tests) == 1 && r.Tests[0].Message != before:
		t.Logf("entered: %s", r.Tests[0].Message)
	default:
		t.Fatalf("the attack neither entered a namespace nor was refused: %+v", r)
	}
	if after := identity(); after != before {
		t.Fatalf("the namespace leaked into the next run: before %q, after %q", before, after)
	}
}

// TestOddObjects returns objects that compare equal to anything, hash strangely, raise from
// __repr__ or __eq__, subclass builtins, contain themselves or are too big: each must fail its
// test without the judge calling into it, and the next run must be clean.
func TestOddObjects(t *testing.T) {
	module := `class Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


class BadHash(Anything):
    def __hash__(self):
        import random
        return random.getrandbits(60)


class BadRepr(Anything):
    def __repr__(self):
        raise RuntimeError('repr')


class EqRaises:
    def __eq__(self, other):
        raise RuntimeError('eq')


class Str(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class Int(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class BadStr(Exception):
    def __str__(self):
        raise RuntimeError('str')


def anything():
    return Anything()


def bad_hash():
    return {BadHash(): 1, BadHash(): 1}


def bad_repr():
    return BadRepr()


def eq_raises():
    return EqRaises()


def str_sub():
    return Str('no')


def int_sub():
    return Int(0)


def inside_list():
    return [1, Anything(), 3]


def dict_key():
    return {Anything(): 2}


def cycle():
    x = [1]
    x.append(x)
    return x


def deep():
    x = []
    for _ in range(500):
        x = [x]
    return x


def huge():
    return list(range(10 ** 6))


def bad_str():
    raise BadStr()
`
	calls := []struct{ call, want string }{
		{"anything()", "3"}, {"bad_hash()", "{1: 1}"}, {"bad_repr()", "'x'"}, {"eq_raises()", "3"},
		{"str_sub()", "'yes'"}, {"int_sub()", "5"}, {"inside_list()", "[1, 2, 3]"}, {"dict_key()", "{1: 2}"},
		{"cycle()", "[1, [1]]"}, {"deep()", "[]"}, {"huge()", "[]"}, {"bad_str()", "None"},
	}
	var tests strings.Builder
	tests.WriteString("from m import *\n\n\n")
	for i, c := range calls {
		fmt.Fprintf(&tests, "def test_%d():\n    assert %s == %s\n\n\n", i+1, c.call, c.want)
	}
	p := onePool(t)
	r, err := p.Run(Request{Module: "m", Source: module, Tests: tests.String(), NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	allFailed(t, r, len(calls))
	for i, tr := range r.Tests {
		t.Logf("%s: %s", calls[i].call, tr.Message)
	}
	if r.Tainted != "" {
		t.Fatalf("odd objects tainted the worker: %s", r.Tainted)
	}
	after, err := p.Run(Request{Module: "m", Source: trivialModule, Tests: okTests, NoCache: true})
	if err != nil || !after.AllPassed() {
		t.Fatalf("the next run: %v %+v", err, after)
	}
}

// TestStateLeftForNextRun leaves a file in the scratch folder, a System V shared memory segment,
// a process running in a session of its own, an environment variable and a signal handler, and
// checks that the next run on the same worker finds none of them.
func TestStateLeftForNextRun(t *testing.T) {
	p := onePool(t)
	skipWeak(t, p, ModeAuto, "state left for the next run")
	before, err := p.LiveProcesses()
	if err != nil {
		t.Fatal(err)
	}
	leave := `import ctypes, os, signal, time

_libc = ctypes.CDLL(None, use_errno=True)


def leave():
    open('left-behind', 'w').write('x')
    os.mkdir('dir')
    open('dir/inner', 'w').write('x')
    os.chmod('dir', 0o500)
    shm = _libc.shmget(4242, 4096, 0o1000 | 0o600)  # IPC_CREAT
    os.environ['LEFT'] = '1'
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.fork() == 0:
        os.setsid()
        time.sleep(1000)
    return [sorted(os.listdir('.')), shm >= 0]
`
	probe := `import ctypes, os, signal

_libc = ctypes.CDLL(None, use_errno=True)


def found():
    return [sorted(os.listdir('.')), _libc.shmget(4242, 0, 0) >= 0, 'LEFT' in os.environ,
            signal.getsignal(signal.SIGTERM) == signal.SIG_IGN]
`
	r, err := p.Run(Request{Module: "m", Source: leave, Tests: "from m import *\n\n" + checkHelper + "def test_1():\n    check('leave()', leave(), [])\n", NoCache: true})
	if err != nil || r.Status != StatusOK || len(r.Tests) != 1 {
		t.Fatalf("leaving state: %v %+v", err, r)
	}
	if want := "returned [['dir', 'left-behind'], True]"; !strings.Contains(r.Tests[0].Message, want) {
		t.Fatalf("the attack did not leave its state (%q): the test would prove nothing", r.Tests[0].Message)
	}
	if n := settled(t, p, before); n != before {
		t.Fatalf("%d processes of the pool after the run, %d before", n, before)
	}
	r, err = p.Run(Request{Module: "m", Source: probe, Tests: "from m import *\n\ndef test_1():\n    assert found() == [[], False, False, False]\n", NoCache: true})
	if err != nil || !r.AllPassed() {
		t.Fatalf("the next run found state of the one before: %v %+v", err, r)
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
	loop := "import os, time\n\ndef f(x):\n    if os.fork() == 0:\n        time.sleep(1000)\n    while True:\n        pass\n"
	r, err := p.Run(Request{Module: "m", Source: loop, Tests: okTests})
	if err != nil || r.Status != StatusTimeout {
		t.Fatalf("got %v %+v, want a timeout", err, r)
	}
	r, err = p.Run(Request{Module: "m", Source: trivialModule, Tests: okTests})
	if err != nil || !r.AllPassed() {
		t.Fatalf("after timeout: %v %+v", err, r)
	}
	p.Close()
	if n := settled(t, p, 0); n != 0 {
		t.Fatalf("%d processes left", n)
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
	r, err := p.Run(Request{Module: "m", Source: trivialModule, Tests: okTests})
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
	loop := Request{Module: "m", Source: "def f(x):\n    while True:\n        pass\n", Tests: okTests}
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
		}
		if got, want := p.Stats().Timeouts, int64(2); memo && got != 1 || !memo && got != want {
			p.Close()
			t.Fatalf("RetryTimeouts %v: %d runs timed out", retry, got)
		}
		p.Close()
	}
}

// TestRunsSeeNoOtherRunsData runs tests whose arguments hold a secret, as hidden tests' do, then
// a module that searches every object of its process and the worker's request buffer for it: a
// later run must not learn what an earlier run was asked.
func TestRunsSeeNoOtherRunsData(t *testing.T) {
	p := onePool(t)
	// A long module makes this request longer than the next one, so that the secret would outlive
	// the next request in a buffer that is not wiped.
	long := trivialModule + "# " + strings.Repeat("x", 8000) + "\n"
	r, err := p.Run(Request{Module: "m", Source: long, Tests: "def test_1():\n    assert f('secret-7919') == 'secret-7919'\n", NoCache: true})
	if err != nil || !r.AllPassed() {
		t.Fatalf("the run with the secret: %v %+v", err, r)
	}
	search := `import gc, sys

_secret = 'secret-' + str(7919)


def _holds(x):
    t = type(x)
    if t is str:
        return _secret in x
    if t in (bytes, bytearray, memoryview):
        return _secret.encode() in bytes(x)
    return False


def found():
    hits = 0
    for o in gc.get_objects():
        items = o.values() if type(o) is dict else o if type(o) in (list, tuple, set) else ()
        hits += sum(1 for x in items if _holds(x) and x is not _secret)
    return [hits, _holds(getattr(sys.modules['__main__'], '_BUF', b''))]
`
	r, err = p.Run(Request{Module: "m", Source: search, Tests: "def test_1():\n    assert found() == [0, False]\n", NoCache: true})
	if err != nil || !r.AllPassed() {
		t.Fatalf("a later run found the earlier run's arguments: %v %+v", err, r)
	}
}
