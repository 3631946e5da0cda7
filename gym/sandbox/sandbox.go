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
	"syscall"
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

// MemoDirEnv names the environment variable that gives Options.MemoDir its default.
const MemoDirEnv = "AGENTRL_SANDBOX_MEMO"

// Options configures a Pool. The zero value is usable: every field has a default.
type Options struct {
	Workers int    // worker processes, each forking one child per run; default runtime.GOMAXPROCS(0), at most 60
	Python  string // interpreter; default /usr/bin/python3
	Mode    Mode   // default ModeAuto
	// Timeout is the CPU-time limit of one test file's run: it times out when it has used more
	// CPU time than this, and as much wall-clock time. CPU time does not grow while a busy
	// machine runs other processes, so whether a run times out does not depend on the load;
	// on an idle machine a run has a core to itself and the limit is the wall-clock one. Default 2s.
	Timeout time.Duration
	// Backstop bounds the wall-clock time of one test file's run, for a run that sleeps or blocks
	// and so never uses its CPU time. A run it stops within its CPU time runs once more before
	// it counts as a timeout; Stats.Backstops counts those that it stopped twice. Default ten
	// times Timeout, at least 2s.
	Backstop     time.Duration
	MemoryBytes  int64 // RLIMIT_AS of a worker; default 512 MiB
	FileBytes    int64 // RLIMIT_FSIZE; default 16 MiB
	ScratchMB    int   // size of the scratch tmpfs; default 32
	Procs        int   // RLIMIT_NPROC for the worker's dedicated uid; default 32
	CPUSeconds   int   // RLIMIT_CPU over a worker's life; default 600
	OutputCap    int   // characters of captured stdout/stderr kept per run; default 16384
	CacheEntries int   // memoized results kept; default 16384, negative disables the cache
	// MemoDir, when set, also keeps memoized results on disk, a file per run, so that later
	// processes (the next chapter of the book, the next training) answer a run that any earlier
	// one made without executing it again. Timeouts are never written there: whether a run
	// times out can depend on how busy the machine was. Default: $AGENTRL_SANDBOX_MEMO, which the
	// course's kernel sets to .cache/sandbox-memo of the checkout (`agentrl train` uses that folder
	// too); empty keeps the memo in memory only.
	MemoDir string
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
	// Each pool owns 256 host uids: two per slot, Workers+4 slots.
	o.Workers = min(o.Workers, 60)
	if o.Python == "" {
		o.Python = "/usr/bin/python3"
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.Backstop <= 0 {
		o.Backstop = max(10*o.Timeout, 2*time.Second)
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
	if o.MemoDir == "" {
		o.MemoDir = os.Getenv(MemoDirEnv)
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
}

// Request is one test run: a module and the tests that call it.
type Request struct {
	Module string // module name the tests import, e.g. "clamp"
	Source string // the module's source
	// Tests is the test file. The judge reads it and never runs it (see readTests for what it
	// reads): its test* functions are the tests, in order, and each check(...) or assert in them
	// is a call of the module's function with literal arguments and the value it must return.
	Tests     string
	TestsFile string // file name shown in messages; default "test.py"
	NoCache   bool   // always execute, even when an identical run is memoized
}

// Status says how a run ended as a whole.
type Status string

const (
	StatusOK          Status = "ok"           // module and tests loaded; see Tests
	StatusModuleError Status = "module_error" // the module raised while loading (syntax error included)
	StatusTestsError  Status = "tests_error"  // the test file cannot be read, or calls a function the module lacks
	StatusTimeout     Status = "timeout"      // the run exceeded Options.Timeout, or twice Options.Backstop
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
	Cached          bool // served from the memo without running
	// Tainted is non-empty when the worker itself (not the run's process, which is always
	// discarded) was replaced after this run, and why: it hung or died.
	Tainted string
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
	Runs     int64 // runs executed, each in a new process (a RunAll is one run; Check is none)
	Cached   int64 // runs answered from the memo
	Restarts int64 // workers replaced after a timeout, crash or taint
	Timeouts int64 // test files whose run timed out (each file of RunAll counts)
	// Backstops counts the timeouts of runs that the wall-clock backstop stopped twice within
	// their CPU time: runs that sleep or block, or a machine too busy to run them. Such a
	// verdict may depend on the load, so it is never memoized.
	Backstops int64
}

// Pool is a set of confined Python workers, each forking a new process per run. It is safe for
// concurrent use; each call takes one idle worker.
type Pool struct {
	opts    Options
	mode    Mode
	idle    chan *slot
	cold    chan int // slot ids for one-shot workers (RunCold)
	cache   *memo
	uidBase int

	mu     sync.Mutex
	pgids  map[int]bool // every process group a worker ever led (for the leftover check)
	closed bool

	runs, cached, restarts, timeouts, backstops atomic.Int64
}

type slot struct {
	id int
	w  *worker // nil: start one on next use
}

var poolSeq atomic.Int64

// New starts a pool of workers. With ModeAuto it falls back to ModeRlimits, printing a
// warning to Options.Log, when namespaces are not permitted.
func New(opts Options) (*Pool, error) {
	opts.fill()
	if _, err := os.Stat(opts.Python); err != nil {
		return nil, fmt.Errorf("sandbox: %s missing (Debian's python3; `make setup` installs it): %w", opts.Python, err)
	}
	if err := checkHardLimits(opts); err != nil {
		return nil, err
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
	p.cold = make(chan int, nCold)
	for i := 0; i < nCold; i++ {
		p.cold <- opts.Workers + i
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
	if p.cache != nil && opts.MemoDir != "" {
		d, err := newDiskMemo(&opts, p.mode)
		if err != nil {
			first.w.kill()
			return nil, err
		}
		p.cache.disk = d
	}
	p.idle <- first
	var wg sync.WaitGroup
	errs := make([]error, opts.Workers)
	slots := make([]*slot, opts.Workers)
	for i := 1; i < opts.Workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			w, err := p.start(i)
			slots[i], errs[i] = &slot{id: i, w: w}, err
		}(i)
	}
	wg.Wait()
	for i := 1; i < opts.Workers; i++ {
		p.idle <- slots[i]
	}
	if err := errors.Join(errs...); err != nil {
		p.Close()
		return nil, fmt.Errorf("sandbox: starting workers: %w", err)
	}
	return p, nil
}

// checkHardLimits refuses to start where this process's hard resource limits lie below those a
// worker sets: the worker could not raise them, and its failure would look like a kernel that
// refuses namespaces. The error names the limit, the shell's option for it and both values.
func checkHardLimits(o Options) error {
	for _, l := range []struct {
		res  int
		name string
		want uint64
	}{
		{syscall.RLIMIT_AS, "address space (ulimit -v, KiB)", uint64(o.MemoryBytes)},
		{syscall.RLIMIT_FSIZE, "file size (ulimit -f, 512-byte blocks in bash)", uint64(o.FileBytes)},
		{syscall.RLIMIT_CPU, "CPU time (ulimit -t, seconds)", uint64(o.CPUSeconds)},
		{syscall.RLIMIT_NOFILE, "open files (ulimit -n)", workerFiles},
	} {
		var have syscall.Rlimit
		if err := syscall.Getrlimit(l.res, &have); err == nil && have.Max < l.want {
			return fmt.Errorf("sandbox: this process's hard limit on %s is %d, below the %d a sandbox worker sets: raise it in the shell that starts agentrl", l.name, have.Max, l.want)
		}
	}
	return nil
}

// Mode reports the confinement actually in use.
func (p *Pool) Mode() Mode { return p.mode }

// Backstop reports the wall-clock backstop of one test file's run (Options.Backstop).
func (p *Pool) Backstop() time.Duration { return p.opts.Backstop }

// Workers reports the number of workers.
func (p *Pool) Workers() int { return p.opts.Workers }

// Stats returns counters since New.
func (p *Pool) Stats() Stats {
	return Stats{Runs: p.runs.Load(), Cached: p.cached.Load(), Restarts: p.restarts.Load(), Timeouts: p.timeouts.Load(), Backstops: p.backstops.Load()}
}

// Run executes req in a new process forked from a pristine worker, or answers it from the memo.
// The process that runs the module never sees the expected values: it returns what the calls
// returned, and the judge compares them here.
func (p *Pool) Run(req Request) (*Result, error) {
	rs, err := p.RunAll(req)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// RunAll runs several test files on one module: the requests must share Module and Source. The
// ones not memoized run together in one new process, where the module loads once, and each gets
// its own Result, in order.
func (p *Pool) RunAll(reqs ...Request) ([]*Result, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	results := make([]*Result, len(reqs))
	keys := make([]string, len(reqs))
	var todo []int
	var files [][]testSpec
	for i, req := range reqs {
		if req.Module != reqs[0].Module || req.Source != reqs[0].Source {
			return nil, errors.New("sandbox: RunAll needs requests of one module and source")
		}
		if p.cache != nil && !req.NoCache {
			keys[i] = hashKey("run", req.Module, req.Source, req.TestsFile, req.Tests)
			if r, ok := p.cache.get(keys[i]); ok {
				p.cached.Add(1)
				r.Cached = true
				results[i] = r
				continue
			}
		}
		tests, err := readTests(req.Tests, testsFile(req))
		if err != nil {
			results[i] = &Result{Status: StatusTestsError, Error: err.Error()}
			continue
		}
		todo = append(todo, i)
		files = append(files, tests)
	}
	if len(todo) == 0 {
		return results, nil
	}
	var ran []*Result
	p.runs.Add(1)
	_, err := p.withWorker(func(w *worker) (*Result, error) {
		var err error
		ran, err = w.run(reqs[0], files, p.opts)
		if err != nil {
			return nil, err
		}
		for _, r := range ran {
			if r.Tainted != "" {
				return r, nil
			}
		}
		return ran[len(ran)-1], nil
	})
	if err != nil {
		return nil, err
	}
	for j, i := range todo {
		results[i] = ran[j]
		if ran[j].Status == StatusTimeout {
			p.timeouts.Add(1)
			if stalled(ran[j]) {
				p.backstops.Add(1)
			}
		}
		if keys[i] != "" && p.memoizable(ran[j]) {
			p.cache.put(keys[i], ran[j])
		}
	}
	return results, nil
}

func testsFile(req Request) string {
	if req.TestsFile == "" {
		return "test.py"
	}
	return req.TestsFile
}

// RunCold executes req with a newly started, confined worker that is discarded afterwards: what
// starting an interpreter per run costs. Never memoized; it is the baseline the benchmarks compare
// against.
func (p *Pool) RunCold(req Request) (*Result, error) {
	tests, err := readTests(req.Tests, testsFile(req))
	if err != nil {
		return &Result{Status: StatusTestsError, Error: err.Error()}, nil
	}
	id := <-p.cold
	defer func() { p.cold <- id }()
	w, err := p.start(id)
	if err != nil {
		return nil, err
	}
	defer w.kill()
	p.runs.Add(1)
	rs, err := w.run(req, [][]testSpec{tests}, p.opts)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// memoizable reports whether a result can be memoized: runs that timed out or crashed may go
// differently next time, though a timeout is taken to happen again unless RetryTimeouts.
func (p *Pool) memoizable(r *Result) bool {
	if r.Status == StatusTimeout {
		return !p.opts.RetryTimeouts && !stalled(r)
	}
	return r.Tainted == "" && (r.Status == StatusOK || r.Status == StatusModuleError || r.Status == StatusTestsError)
}

// backstopError starts the error of a timeout by the wall-clock backstop (worker.py's BACKSTOP).
const backstopError = "stopped by the wall-clock backstop"

// stalled reports whether a timeout came from the wall-clock backstop rather than the CPU-time
// limit: such a verdict may depend on the machine's load.
func stalled(r *Result) bool {
	return r.Status == StatusTimeout && strings.HasPrefix(r.Error, backstopError)
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
	s, ok := <-p.idle
	if !ok {
		return nil, errors.New("sandbox: pool is closed")
	}
	defer func() { p.idle <- s }()
	if s.w == nil {
		w, err := p.start(s.id)
		if err != nil {
			return nil, err
		}
		s.w = w
	}
	res, err := f(s.w)
	if err != nil || res.Tainted != "" {
		s.w.kill()
		s.w = nil
		p.restarts.Add(1)
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
	for i := 0; i < p.opts.Workers; i++ {
		s := <-p.idle
		if s != nil && s.w != nil {
			s.w.kill()
		}
	}
	close(p.idle)
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
