package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// worker is one confined Python process, a zygote that forks a child per run, speaking the
// length-prefixed protocol of worker.py over two pipes.
type worker struct {
	cmd     *exec.Cmd
	reqW    *os.File
	respR   *os.File
	out     *tail
	scratch string // ModeRlimits only: the host directory the worker may write
	uid     int    // ModeRlimits as root: the dedicated host uid whose processes die with it
	done    chan struct{}
}

// workerFiles is a worker's RLIMIT_NOFILE.
const workerFiles = 64

// inner ids of the worker's user inside its user namespace.
const innerID = 1000

type workerConfig struct {
	Mode      string         `json:"mode"`
	Binds     []string       `json:"binds"`
	ScratchMB int            `json:"scratch_mb"`
	Scratch   string         `json:"scratch"`
	Limits    map[string]int `json:"limits"`
	UID       *int           `json:"uid"`
	GID       *int           `json:"gid"`
	// KillAll: the worker's uid (or PID namespace) is its own, so kill(-1) reaches only what
	// its runs started.
	KillAll bool `json:"kill_all"`
}

// launchConfig tells launcher.py which namespaces to make and how to map ids into them.
type launchConfig struct {
	Python        string `json:"python"`
	Flags         int    `json:"flags"`
	UIDMap        string `json:"uid_map"`
	GIDMap        string `json:"gid_map"`
	DenySetgroups bool   `json:"deny_setgroups"`
}

// refuseNamespaces makes namespace workers fail to start as they do where the kernel refuses
// namespaces; tests set it to exercise the fallback.
var refuseNamespaces bool

func (p *Pool) start(slotID int) (*worker, error) {
	o := p.opts
	if p.mode == ModeNamespaces && refuseNamespaces {
		return nil, fmt.Errorf("sandbox: clone: %w", syscall.EPERM)
	}
	cfg := workerConfig{
		ScratchMB: o.ScratchMB,
		Binds:     []string{"usr", "lib", "lib64", "lib32", "libx32", "bin"},
		Limits: map[string]int{
			"as": int(o.MemoryBytes), "fsize": int(o.FileBytes), "nofile": workerFiles,
			"cpu": o.CPUSeconds, "nproc": o.Procs,
		},
	}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	launch := launchConfig{Python: o.Python}
	w := &worker{out: &tail{max: 4096}, done: make(chan struct{})}
	if p.mode == ModeNamespaces {
		cfg.Mode = "namespaces"
		cfg.KillAll = true
		// launcher.py makes the namespaces: see there why Go does not clone them itself.
		launch.Flags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		if os.Geteuid() == 0 {
			// Two dedicated host ids per slot: the namespace's root (used only while the
			// worker confines itself) and the unprivileged user that runs the tests.
			root, user := p.uidBase+2*slotID, p.uidBase+2*slotID+1
			launch.UIDMap = fmt.Sprintf("0 %d 1\n%d %d 1\n", root, innerID, user)
			launch.GIDMap = launch.UIDMap
			id := innerID
			cfg.UID, cfg.GID = &id, &id
		} else {
			// Unprivileged: only our own uid can be mapped; the worker drops all
			// capabilities instead of changing uid.
			launch.UIDMap = fmt.Sprintf("0 %d 1\n", os.Getuid())
			launch.GIDMap = fmt.Sprintf("0 %d 1\n", os.Getgid())
			launch.DenySetgroups = true
		}
	} else {
		cfg.Mode = "rlimits"
		dir, err := os.MkdirTemp("", "agentrl-sandbox-")
		if err != nil {
			return nil, fmt.Errorf("sandbox: scratch folder: %w", err)
		}
		w.scratch, cfg.Scratch = dir, dir
		if os.Geteuid() == 0 {
			// Even without namespaces a dedicated uid keeps RLIMIT_NPROC meaningful.
			uid := p.uidBase + 2*slotID + 1
			attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}
			w.uid, cfg.KillAll = uid, true
			if err := os.Chown(dir, uid, uid); err != nil {
				return nil, fmt.Errorf("sandbox: scratch folder: %w", err)
			}
		}
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	cmd := exec.Command(o.Python, "-I", "-S", "-B", "-c", workerSource, string(cfgJSON))
	if p.mode == ModeNamespaces {
		launchJSON, err := json.Marshal(launch)
		if err != nil {
			return nil, err
		}
		cmd = exec.Command(o.Python, "-I", "-S", "-B", "-c", launcherSource, string(launchJSON), workerSource, string(cfgJSON))
	}
	cmd.Env = []string{"PATH=/usr/bin:/bin", "PYTHONHASHSEED=0", "LC_ALL=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{reqR, respW}
	cmd.Stdout, cmd.Stderr = w.out, w.out
	cmd.SysProcAttr = attr
	// A descendant that escaped the process group must not keep Wait blocked on the output pipe.
	cmd.WaitDelay = 200 * time.Millisecond
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		w.cleanup()
		return nil, fmt.Errorf("sandbox: starting %s: %w", o.Python, err)
	}
	reqR.Close()
	respW.Close()
	w.cmd, w.reqW, w.respR = cmd, reqW, respR
	p.mu.Lock()
	p.pgids[cmd.Process.Pid] = true
	p.mu.Unlock()
	go func() {
		cmd.Wait()
		close(w.done)
	}()
	hello, err := w.recv(10 * time.Second)
	if err != nil {
		w.kill()
		return nil, fmt.Errorf("sandbox: worker did not start: %w (output: %q)", err, w.out.String())
	}
	if len(hello) != 2 || hello[0] != "ready" {
		w.kill()
		return nil, fmt.Errorf("sandbox: worker could not confine itself: %v", hello)
	}
	return w, nil
}

// groupAlive reports whether a process of group pgid is still running (zombies do not count).
func groupAlive(pgid int) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, g, ok := procIDs(pid); ok && g == pgid {
			return true
		}
	}
	return false
}

// run has the worker fork a child that makes the calls of every test file in files on the
// module, loaded afresh for each file, and judges what the child returned: one Result per file.
// The worker enforces each file's limits itself (CPU time, and the wall-clock backstop with one
// more try), so the Go side only waits longer in case the worker itself is stuck.
func (w *worker) run(req Request, files [][]testSpec, o Options) ([]*Result, error) {
	limits := strconv.FormatFloat(o.Timeout.Seconds(), 'f', 3, 64) + "/" + strconv.FormatFloat(o.Backstop.Seconds(), 'f', 3, 64)
	fields := []string{"run", strconv.Itoa(o.OutputCap), limits, strconv.Itoa(len(files)), req.Module, req.Source}
	for _, tests := range files {
		n := 0
		for _, t := range tests {
			n += len(t.calls)
		}
		fields = append(fields, strconv.Itoa(n))
		for _, t := range tests {
			for _, c := range t.calls {
				fields = append(fields, c.fn, c.args)
			}
		}
	}
	if _, err := w.reqW.Write(pack(fields)); err != nil {
		return same(len(files), &Result{Status: StatusCrashed, Error: "worker exited before the run: " + lastLine(w.out.String()), Tainted: "crashed"}), nil
	}
	deadline := time.Now().Add(2*o.Backstop*time.Duration(len(files)) + 5*time.Second)
	results := make([]*Result, len(files))
	for i, tests := range files {
		resp, err := w.recv(time.Until(deadline))
		if err != nil {
			r := &Result{Status: StatusCrashed, Error: "the sandbox worker died during the run: " + lastLine(w.out.String()), Tainted: "crashed"}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				r = &Result{Status: StatusTimeout, Error: "the sandbox worker stopped answering", Tainted: "timeout"}
			}
			for j := i; j < len(files); j++ {
				results[j] = r
			}
			return results, nil
		}
		r, outs, err := parseAnswer(resp)
		if err != nil {
			return nil, err
		}
		if r.Status == StatusOK {
			for _, o := range outs {
				if o.kind == "missing" {
					r.Status, r.Error = StatusTestsError, o.text
					break
				}
			}
		}
		if r.Status == StatusOK {
			n := 0
			for _, t := range tests {
				n += len(t.calls)
			}
			if len(outs) != n {
				return nil, fmt.Errorf("sandbox: the worker answered %d calls of %d", len(outs), n)
			}
			r.Tests = judge(tests, outs)
		}
		results[i] = r
	}
	// The worker ends its answer with why it can no longer be trusted, if it cannot.
	done, err := w.recv(time.Until(deadline))
	if err != nil || len(done) != 2 || done[0] != "done" {
		done = []string{"done", "the worker did not finish its answer"}
	}
	if done[1] != "" {
		for _, r := range results {
			r.Tainted = done[1]
		}
	}
	return results, nil
}

func same(n int, r *Result) []*Result {
	rs := make([]*Result, n)
	for i := range rs {
		rs[i] = r
	}
	return rs
}

// parseAnswer reads one file's answer: status, error, output, truncated, the number of calls,
// then each call's outcome.
func parseAnswer(resp []string) (*Result, []outcome, error) {
	if len(resp) < 5 {
		return nil, nil, fmt.Errorf("sandbox: malformed answer of %d fields", len(resp))
	}
	n, err := strconv.Atoi(resp[4])
	if err != nil || len(resp) != 5+2*n {
		return nil, nil, fmt.Errorf("sandbox: malformed answer of %d fields", len(resp))
	}
	r := &Result{Status: Status(resp[0]), Error: resp[1], Output: resp[2], OutputTruncated: resp[3] == "1"}
	outs := make([]outcome, n)
	for i := range outs {
		outs[i] = outcome{kind: resp[5+2*i], text: resp[6+2*i]}
	}
	return r, outs, nil
}

func (w *worker) check(name, src string, o Options) (*Result, error) {
	if _, err := w.reqW.Write(pack([]string{"check", name, src})); err != nil {
		return &Result{Status: StatusCrashed, Error: "worker exited: " + lastLine(w.out.String()), Tainted: "crashed"}, nil
	}
	// Compiling uses no time limit of its own: how long it takes depends on the machine's load.
	resp, err := w.recv(o.Backstop)
	if err != nil {
		return &Result{Status: StatusTimeout, Error: "the sandbox worker stopped answering", Tainted: "timeout"}, nil
	}
	r, _, err := parseAnswer(resp)
	return r, err
}

// pack frames fields as worker.py expects: a length-prefixed frame of length-prefixed strings.
func pack(fields []string) []byte {
	n := 4
	for _, f := range fields {
		n += 4 + len(f)
	}
	b := make([]byte, 4, n)
	binary.BigEndian.PutUint32(b, uint32(n-4))
	for _, f := range fields {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

func (w *worker) recv(timeout time.Duration) ([]string, error) {
	if err := w.respR.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return nil, err
	}
	var head [4]byte
	if _, err := io.ReadFull(w.respR, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > 64<<20 {
		return nil, fmt.Errorf("response of %d bytes", n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(w.respR, body); err != nil {
		return nil, err
	}
	var fields []string
	for len(body) >= 4 {
		l := binary.BigEndian.Uint32(body)
		if uint64(l) > uint64(len(body)-4) {
			return nil, fmt.Errorf("malformed response field")
		}
		fields = append(fields, string(body[4:4+l]))
		body = body[4+l:]
	}
	return fields, nil
}

// kill ends the worker and everything it started: in ModeNamespaces the worker is PID 1 of its
// namespace, so the kernel kills every process in it; the process group kill covers
// ModeRlimits.
func (w *worker) kill() {
	if w.cmd != nil && w.cmd.Process != nil {
		pid := w.cmd.Process.Pid
		syscall.Kill(-pid, syscall.SIGKILL)
		w.cmd.Process.Kill()
		<-w.done
		syscall.Kill(-pid, syscall.SIGKILL)
		// In ModeNamespaces the process Go waited for is the launcher; the worker, PID 1 of its
		// namespace, is its grandchild and exits only once every process of the namespace is
		// gone. Wait for the group to empty, so that nothing outlives kill.
		for deadline := time.Now().Add(2 * time.Second); groupAlive(pid) && time.Now().Before(deadline); {
			time.Sleep(2 * time.Millisecond)
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
	if w.uid != 0 {
		// Without a PID namespace a descendant may have left the process group (setsid); its
		// dedicated uid still gives it away.
		killUID(w.uid)
	}
	if w.reqW != nil {
		w.reqW.Close()
		w.respR.Close()
	}
	w.cleanup()
}

func (w *worker) cleanup() {
	if w.scratch != "" {
		os.RemoveAll(w.scratch)
	}
}

// tail keeps the last max bytes written to it: the worker's raw stdout and stderr, kept only to
// explain a crash.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// killUID kills every process whose real uid is uid, repeating while new ones appear.
func killUID(uid int) {
	for range 20 {
		ents, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		found := false
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if u, _, ok := procIDs(pid); ok && u == uid {
				syscall.Kill(pid, syscall.SIGKILL)
				found = true
			}
		}
		if !found {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
