package assign

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Limits bound one run of a probe.
type Limits struct {
	Timeout  time.Duration // wall clock; CPU time is bounded to the same
	MemoryMB int           // address space
	Output   int           // bytes of standard output kept; more kills the run
}

// DefaultLimits suit one exercise of the book: its cases take well under a second (the PPO
// exercise compiles a graph, about one second).
var DefaultLimits = Limits{Timeout: 60 * time.Second, MemoryMB: 4096, Output: 1 << 20}

// JailResult is what a jailed run left.
type JailResult struct {
	Stdout    []byte // at most Limits.Output bytes
	Stderr    string // its last 4 KiB
	TimedOut  bool
	TooMuch   bool  // printed more than Limits.Output
	Exit      error // the exit status, nil for 0
	Isolation string
}

// jailSpec travels to the re-executed grader in $AGENTRL_JAIL.
type jailSpec struct {
	Bin       string
	Args      []string
	Root      string // an empty folder: the jail's root is a tmpfs mounted there
	Namespace bool
	Limits    Limits
}

const jailEnv = "AGENTRL_JAIL"

// The grader's own binary is the jail's launcher: re-executed with $AGENTRL_JAIL it sets the jail
// up and replaces itself with the probe. Any binary that links this package can do so (the
// agentrl command, the tests).
func init() {
	if spec := os.Getenv(jailEnv); spec != "" {
		jailMain(spec)
	}
}

// Jail runs bin with args, and stdin as its standard input, in a jail: new user, mount, PID, network, IPC and UTS namespaces, a root
// that holds only bin (read-only) and an empty /tmp, no network, and the limits. Where user
// namespaces are refused it runs with the limits alone, in an empty working folder, and says so in
// Isolation; with AGENTRL_REQUIRE_NAMESPACES=1 that is an error instead.
func Jail(ctx context.Context, bin string, args []string, stdin []byte, lim Limits) (*JailResult, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "agentrl-jail-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	spec := jailSpec{Bin: bin, Args: args, Root: dir, Namespace: true, Limits: lim}
	res, err := jailRun(ctx, self, spec, stdin)
	if err == nil {
		res.Isolation = "namespaces (user, mount, PID, network, IPC, UTS), an empty root, limits"
		return res, nil
	}
	if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EACCES) {
		return nil, err
	}
	if os.Getenv("AGENTRL_REQUIRE_NAMESPACES") == "1" {
		return nil, fmt.Errorf("the jail needs user namespaces, which this kernel refuses (%v), and AGENTRL_REQUIRE_NAMESPACES=1", err)
	}
	spec.Namespace = false
	res, err2 := jailRun(ctx, self, spec, stdin)
	if err2 != nil {
		return nil, err2
	}
	res.Isolation = fmt.Sprintf("WEAKER: limits and an empty working folder only; user namespaces refused (%v): the submission could read files this user can read", err)
	return res, nil
}

func jailRun(ctx context.Context, self string, spec jailSpec, stdin []byte) (*JailResult, error) {
	b, _ := json.Marshal(spec)
	ctx, cancel := context.WithTimeout(ctx, spec.Limits.Timeout)
	defer cancel()
	cmd := exec.Command(self)
	cmd.Env = []string{jailEnv + "=" + string(b)}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: !spec.Namespace}
	if spec.Namespace {
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	cmd.Stdin = bytes.NewReader(stdin)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	res := &JailResult{}
	kill := sync.OnceFunc(func() {
		if spec.Namespace {
			cmd.Process.Kill() // PID 1 of its namespace: everything in it dies too
		} else {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	go func() {
		<-ctx.Done()
		kill()
	}()
	var out bytes.Buffer
	n, _ := io.Copy(&out, io.LimitReader(stdout, int64(spec.Limits.Output)+1))
	if n > int64(spec.Limits.Output) {
		res.TooMuch = true
		kill()
		io.Copy(io.Discard, stdout)
	}
	res.Exit = cmd.Wait()
	res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded) && !res.TooMuch
	res.Stdout = out.Bytes()[:min(out.Len(), spec.Limits.Output)]
	res.Stderr = stderr.String()
	// A jail that could not be set up exits 125 before the probe runs: that is the grader's
	// failure, not the submission's.
	if ee, ok := res.Exit.(*exec.ExitError); ok && ee.ExitCode() == 125 && len(res.Stdout) == 0 {
		if spec.Namespace {
			return nil, fmt.Errorf("%w: %s", syscall.EPERM, res.Stderr)
		}
		return nil, fmt.Errorf("the jail could not start: %s", res.Stderr)
	}
	return res, nil
}

// tailBuffer keeps the first and the last 2 KiB written to it: a Go crash names its cause at the
// top and the failing code at the bottom.
type tailBuffer struct {
	mu         sync.Mutex
	head, tail []byte
	cut        bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := min(2048-len(t.head), len(p)); n > 0 {
		t.head = append(t.head, p[:n]...)
		p = p[n:]
	}
	t.tail = append(t.tail, p...)
	if len(t.tail) > 2048 {
		t.tail, t.cut = t.tail[len(t.tail)-2048:], true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return string(t.head) + "\n…\n" + string(t.tail)
	}
	return string(t.head) + string(t.tail)
}

// jailMain runs in the re-executed grader: it builds the jail and execs the probe. It never
// returns; a failure exits 125.
func jailMain(specJSON string) {
	fail := func(what string, err error) {
		fmt.Fprintf(os.Stderr, "jail: %s: %v\n", what, err)
		os.Exit(125)
	}
	var spec jailSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		fail("spec", err)
	}
	runtime.LockOSThread()
	bin := spec.Bin
	if spec.Namespace {
		root := spec.Root
		steps := []struct {
			what string
			do   func() error
		}{
			{"private mounts", func() error { return unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, "") }},
			{"tmpfs root", func() error {
				return unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=16m,mode=755")
			}},
			{"probe file", func() error { return os.WriteFile(filepath.Join(root, "probe"), nil, 0o755) }},
			{"bind the probe", func() error { return unix.Mount(bin, filepath.Join(root, "probe"), "", unix.MS_BIND, "") }},
			{"tmp", func() error { return os.Mkdir(filepath.Join(root, "tmp"), 0o1777) }},
			{"old root", func() error { return os.Mkdir(filepath.Join(root, "old"), 0o700) }},
			{"pivot_root", func() error { return unix.PivotRoot(root, filepath.Join(root, "old")) }},
			{"chdir", func() error { return os.Chdir("/") }},
			{"unmount the old root", func() error { return unix.Unmount("/old", unix.MNT_DETACH) }},
			{"remove the old root", func() error { return os.Remove("/old") }},
		}
		for _, s := range steps {
			if err := s.do(); err != nil {
				fail(s.what, err)
			}
		}
		// Read-only where the kernel lets a user namespace remount it; the file is the grader's
		// private build either way.
		unix.Mount("", "/probe", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, "")
		bin = "/probe"
	} else if err := os.Chdir(spec.Root); err != nil {
		fail("chdir", err)
	}
	secs := uint64(spec.Limits.Timeout/time.Second) + 1
	for _, l := range []struct {
		res int
		max uint64
	}{
		{unix.RLIMIT_AS, uint64(spec.Limits.MemoryMB) << 20},
		{unix.RLIMIT_CPU, secs},
		{unix.RLIMIT_FSIZE, 1 << 20},
		{unix.RLIMIT_NOFILE, 64},
		{unix.RLIMIT_CORE, 0},
	} {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.max, Max: l.max}); err != nil {
			fail("rlimit", err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fail("no_new_privs", err)
	}
	env := []string{"HOME=/tmp", "TMPDIR=/tmp", "GOMLX_NO_AUTO_INSTALL=1", "GOMAXPROCS=2", "GOMLX_GO_SIMD_AVX512=false", "GODEBUG=cpu.avx512f=off"}
	fail("exec", syscall.Exec(bin, append([]string{bin}, spec.Args...), env))
}
