package sandbox

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

//go:embed worker.py
var workerSource string

//go:embed launcher.py
var launcherSource string

// Mode is how strongly workers are confined.
type Mode int

const (
	// ModeAuto uses namespaces when the kernel allows them and falls back to ModeRlimits, loudly,
	// when it does not.
	ModeAuto Mode = iota
	// ModeNamespaces confines each worker in fresh user, mount, PID, network, IPC and UTS
	// namespaces with a tmpfs root, read-only system folders, rlimits and an unprivileged uid.
	ModeNamespaces
	// ModeRlimits is the documented weaker fallback: rlimits, a private scratch directory and a
	// process group, but no filesystem or network isolation.
	ModeRlimits
)

func (m Mode) String() string {
	switch m {
	case ModeNamespaces:
		return "namespaces"
	case ModeRlimits:
		return "rlimits-only (no filesystem or network isolation)"
	}
	return "auto"
}

// Options configures a Pool. The zero value is usable: every field has a default.
type Options struct {
	Workers      int           // warm workers, and as many pristine ones for RunFresh; default runtime.GOMAXPROCS(0), at most 60
	Python       string        // interpreter; default /usr/bin/python3
	Mode         Mode          // default ModeAuto
	Timeout      time.Duration // wall-clock limit of one run; default 2s
	MemoryBytes  int64         // RLIMIT_AS of a worker; default 512 MiB
	FileBytes    int64         // RLIMIT_FSIZE; default 16 MiB
	ScratchMB    int           // size of the scratch tmpfs; default 32
	Procs        int           // RLIMIT_NPROC for the worker's dedicated uid; default 32
	CPUSeconds   int           // RLIMIT_CPU over a worker's life; default 600
	OutputCap    int           // characters of captured stdout/stderr kept per run; default 16384
	CacheEntries int           // memoized results kept; default 16384, negative disables the cache
	// RetryTimeouts runs a request that timed out again when it comes back, instead of answering
	// from the memo. By default a timeout is memoized like any other result, so the same run
	// times out again at once instead of costing the time limit and a worker restart: right for a
	// loop that never ends (an edited loop bound makes one), and within one training the same edit
	// always gets the same answer, even when its first run was only slowed by a busy machine. Set
	// it where a timeout caused by load must not stick.
	RetryTimeouts bool
	Log           io.Writer // where the fallback warning goes; default os.Stderr
}

func (o *Options) fill() {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	// Each pool owns 256 host uids: two per slot, 2*Workers+4 slots.
	o.Workers = min(o.Workers, 60)
	if o.Python == "" {
		o.Python = "/usr/bin/python3"
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.MemoryBytes <= 0 {
		o.MemoryBytes = 512 << 20
	}
	if o.FileBytes <= 0 {
		o.FileBytes = 16 << 20
	}
	if o.ScratchMB <= 0 {
		o.ScratchMB = 32
	}
	if o.Procs <= 0 {
		o.Procs = 32
	}
	if o.CPUSeconds <= 0 {
		o.CPUSeconds = 600
	}
	if o.OutputCap <= 0 {
		o.OutputCap = 16384
	}
	if o.CacheEntries == 0 {
		o.CacheEntries = 16384
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
}

// Request is one test run: a module and the tests that import it.
type Request struct {
	Module    string // module name the tests import, e.g. "clamp"
	Source    string // the module's source
	Tests     string // the test file's source; its test* functions are run in order
	TestsFile string // file name shown in messages; default "test.py"
	NoCache   bool   // always execute, even when an identical run is memoized
}

// Status says how a run ended as a whole.
type Status string

const (
	StatusOK          Status = "ok"           // module and tests loaded; see Tests
	StatusModuleError Status = "module_error" // the module raised while loading (syntax error included)
	StatusTestsError  Status = "tests_error"  // the test file raised while loading
	StatusTimeout     Status = "timeout"      // the run exceeded Options.Timeout
	StatusCrashed     Status = "crashed"      // the interpreter died (os._exit, segfault, kill)
)

// TestResult is the outcome of one test function.
type TestResult struct {
	Name    string
	Passed  bool
	Message string // exception type and message, with the module line it came from
}

// Result is the outcome of one run.
type Result struct {
	Status          Status
	Error           string // why the run did not complete, for every status but StatusOK
	Tests           []TestResult
	Output          string // captured stdout and stderr, at most Options.OutputCap characters
	OutputTruncated bool
	Cached          bool   // served from the memo without running
	Tainted         string // non-empty when the worker was replaced after this run, and why
}

// Passed counts passing tests.
func (r *Result) Passed() int {
	n := 0
	for _, t := range r.Tests {
		if t.Passed {
			n++
		}
	}
	return n
}

// AllPassed reports whether the run completed and every test passed (and there was one).
func (r *Result) AllPassed() bool {
	return r.Status == StatusOK && len(r.Tests) > 0 && r.Passed() == len(r.Tests)
}

// FirstFailure returns the first failing test, or nil.
func (r *Result) FirstFailure() *TestResult {
	for i := range r.Tests {
		if !r.Tests[i].Passed {
			return &r.Tests[i]
		}
	}
	return nil
}

// Stats counts what a Pool did.
type Stats struct {
	Runs     int64 // runs executed in a worker (warm or fresh)
	Cached   int64 // runs answered from the memo
	Restarts int64 // workers replaced after a timeout, crash or taint
	Timeouts int64
}

// Pool is a set of warm, confined Python workers. It is safe for concurrent use; each call
// takes one idle worker.
type Pool struct {
	opts    Options
	mode    Mode
	idle    chan *slot // warm workers that run tests themselves
	zygotes chan *slot // pristine workers that fork a child per run (RunFresh)
	cold    chan int   // slot ids for one-shot workers (RunCold)
	cache   *memo
	uidBase int

	mu     sync.Mutex
	pgids  map[int]bool // every process group a worker ever led (for the leftover check)
	closed bool

	runs, cached, restarts, timeouts atomic.Int64
}

type slot struct {
	id int
	w  *worker // nil: start one on next use
}

var poolSeq atomic.Int64

// New starts a pool of warm workers. With ModeAuto it falls back to ModeRlimits, printing a
// warning to Options.Log, when namespaces are not permitted.
func New(opts Options) (*Pool, error) {
	opts.fill()
	if _, err := os.Stat(opts.Python); err != nil {
		return nil, fmt.Errorf("sandbox: %s missing (Debian's python3; `make setup` installs it): %w", opts.Python, err)
	}
	p := &Pool{opts: opts, mode: opts.Mode, pgids: map[int]bool{}}
	if opts.CacheEntries > 0 {
		p.cache = newMemo(opts.CacheEntries)
	}
	// Host uids for the workers' in-namespace root and user: distinct per process and per
	// pool, so that RLIMIT_NPROC and the leftover check see only this pool's processes.
	seq := int(poolSeq.Add(1))
	p.uidBase = 3_000_000 + ((os.Getpid()*16+seq)%100_000)*256
	const nCold = 4
	p.idle = make(chan *slot, opts.Workers)
	p.zygotes = make(chan *slot, opts.Workers)
	p.cold = make(chan int, nCold)
	for i := 0; i < nCold; i++ {
		p.cold <- 2*opts.Workers + i
	}
	first := &slot{id: 0}
	if p.mode == ModeAuto {
		p.mode = ModeNamespaces
		w, err := p.start(0)
		if err != nil {
			p.mode = ModeRlimits
			fmt.Fprintf(opts.Log, "agentrl sandbox: WARNING: Linux namespaces are not permitted here (%v)\n", err)
			fmt.Fprintf(opts.Log, "agentrl sandbox: WARNING: falling back to %s: Python runs with rlimits in a private scratch folder but CAN read the filesystem and reach the network\n", ModeRlimits)
		} else {
			first.w = w
		}
	}
	if first.w == nil {
		w, err := p.start(0)
		if err != nil {
			return nil, fmt.Errorf("sandbox: starting worker in mode %s: %w", p.mode, err)
		}
		first.w = w
	}
	p.idle <- first
	// Slots 1..Workers-1 are warm workers, Workers..2*Workers-1 zygotes.
	var wg sync.WaitGroup
	errs := make([]error, 2*opts.Workers)
	slots := make([]*slot, 2*opts.Workers)
	for i := 1; i < 2*opts.Workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			w, err := p.start(i)
			slots[i], errs[i] = &slot{id: i, w: w}, err
		}(i)
	}
	wg.Wait()
	for i := 1; i < 2*opts.Workers; i++ {
		if i < opts.Workers {
			p.idle <- slots[i]
		} else {
			p.zygotes <- slots[i]
		}
	}
	if err := errors.Join(errs...); err != nil {
		p.Close()
		return nil, fmt.Errorf("sandbox: starting workers: %w", err)
	}
	return p, nil
}

// Mode reports the confinement actually in use.
func (p *Pool) Mode() Mode { return p.mode }

// Workers reports the number of warm workers.
func (p *Pool) Workers() int { return p.opts.Workers }

// Stats returns counters since New.
func (p *Pool) Stats() Stats {
	return Stats{Runs: p.runs.Load(), Cached: p.cached.Load(), Restarts: p.restarts.Load(), Timeouts: p.timeouts.Load()}
}

// Run executes req in a warm worker, or answers it from the memo.
func (p *Pool) Run(req Request) (*Result, error) {
	var key string
	if p.cache != nil && !req.NoCache {
		key = hashKey("run", req.Module, req.Source, req.TestsFile, req.Tests)
		if r, ok := p.cache.get(key); ok {
			p.cached.Add(1)
			r.Cached = true
			return r, nil
		}
	}
	res, err := p.withWorker(func(w *worker) (*Result, error) { return w.run(req, p.opts) })
	if err != nil {
		return nil, err
	}
	if key != "" && p.memoizable(res) {
		p.cache.put(key, res)
	}
	return res, nil
}

// RunFresh executes req in a fresh process: a child forked from a pristine worker that never
// ran a test, so the outcome cannot depend on anything an earlier run did to an interpreter.
// The child and everything it starts are killed after the run. Results are memoized apart from
// warm runs.
func (p *Pool) RunFresh(req Request) (*Result, error) {
	var key string
	if p.cache != nil && !req.NoCache {
		key = hashKey("fresh", req.Module, req.Source, req.TestsFile, req.Tests)
		if r, ok := p.cache.get(key); ok {
			p.cached.Add(1)
			r.Cached = true
			return r, nil
		}
	}
	res, err := p.withSlot(p.zygotes, func(w *worker) (*Result, error) { return w.fresh(req, p.opts) })
	if err == nil && key != "" && p.memoizable(res) {
		p.cache.put(key, res)
	}
	return res, err
}

// RunCold executes req in a newly started, confined interpreter that is discarded afterwards:
// what one process per run costs. Never memoized; it is the baseline the benchmarks compare
// against.
func (p *Pool) RunCold(req Request) (*Result, error) {
	id := <-p.cold
	defer func() { p.cold <- id }()
	w, err := p.start(id)
	if err != nil {
		return nil, err
	}
	defer w.kill()
	p.runs.Add(1)
	return w.run(req, p.opts)
}

// memoizable reports whether a result can be memoized: runs that timed out or crashed may go
// differently next time, though a timeout is taken to happen again unless RetryTimeouts.
func (p *Pool) memoizable(r *Result) bool {
	if r.Status == StatusTimeout {
		return !p.opts.RetryTimeouts
	}
	return r.Tainted == "" && (r.Status == StatusOK || r.Status == StatusModuleError || r.Status == StatusTestsError)
}

// SyntaxError describes source that does not compile.
type SyntaxError struct {
	Line    int // 1-based; 0 when unknown
	Message string
}

func (e *SyntaxError) Error() string { return e.Message }

// Check compiles src as module name without running it. It returns nil when src compiles and a
// *SyntaxError when it does not; the error result is for sandbox failures.
func (p *Pool) Check(name, src string) (*SyntaxError, error) {
	var key string
	if p.cache != nil {
		key = hashKey("check", name, src)
		if r, ok := p.cache.get(key); ok {
			return syntaxFrom(r), nil
		}
	}
	res, err := p.withWorker(func(w *worker) (*Result, error) { return w.check(name, src, p.opts) })
	if err != nil {
		return nil, err
	}
	if key != "" && res.Tainted == "" && res.Status != StatusTimeout && res.Status != StatusCrashed {
		p.cache.put(key, res)
	}
	return syntaxFrom(res), nil
}

func syntaxFrom(r *Result) *SyntaxError {
	if r.Status == StatusOK {
		return nil
	}
	line := 0
	if i := strings.LastIndex(r.Error, "(line "); i >= 0 {
		line, _ = strconv.Atoi(strings.TrimSuffix(r.Error[i+6:], ")"))
	}
	return &SyntaxError{Line: line, Message: r.Error}
}

func (p *Pool) withWorker(f func(*worker) (*Result, error)) (*Result, error) {
	return p.withSlot(p.idle, f)
}

func (p *Pool) withSlot(slots chan *slot, f func(*worker) (*Result, error)) (*Result, error) {
	s, ok := <-slots
	if !ok {
		return nil, errors.New("sandbox: pool is closed")
	}
	defer func() { slots <- s }()
	if s.w == nil {
		w, err := p.start(s.id)
		if err != nil {
			return nil, err
		}
		s.w = w
	}
	p.runs.Add(1)
	res, err := f(s.w)
	if err != nil || res.Tainted != "" {
		s.w.kill()
		s.w = nil
		p.restarts.Add(1)
	}
	if res != nil && res.Status == StatusTimeout {
		p.timeouts.Add(1)
	}
	return res, err
}

// Close stops every worker and waits for them to exit.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	for _, slots := range []chan *slot{p.idle, p.zygotes} {
		for i := 0; i < p.opts.Workers; i++ {
			s := <-slots
			if s != nil && s.w != nil {
				s.w.kill()
			}
		}
		close(slots)
	}
	for i := 0; i < cap(p.cold); i++ {
		<-p.cold
	}
}

// LiveProcesses counts processes still running as any of this pool's workers or their
// descendants. After Close it must be zero; tests use it to prove nothing escaped.
func (p *Pool) LiveProcesses() (int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("sandbox: listing /proc: %w", err)
	}
	p.mu.Lock()
	pgids := make(map[int]bool, len(p.pgids))
	for g := range p.pgids {
		pgids[g] = true
	}
	p.mu.Unlock()
	n := 0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		uid, pgid, ok := procIDs(pid)
		if !ok {
			continue
		}
		if pgids[pgid] || (uid >= p.uidBase && uid < p.uidBase+256) {
			n++
		}
	}
	return n, nil
}

// procIDs reads the real uid and process group of pid; ok is false if it is gone (or a zombie
// already reaped).
func procIDs(pid int) (uid, pgid int, ok bool) {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// Fields after the parenthesized command: state ppid pgrp ...
	i := strings.LastIndexByte(string(st), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(st[i+1:]))
	if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
		return 0, 0, false
	}
	pgid, _ = strconv.Atoi(f[2])
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, false
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				uid, _ = strconv.Atoi(f[0])
			}
			break
		}
	}
	return uid, pgid, true
}
