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
	"unsafe"

	"golang.org/x/sys/unix"
)

// Limits bound one run of a probe.
type Limits struct {
	Timeout  time.Duration // wall clock; CPU time is bounded to the same
	MemoryMB int           // address space
	Output   int           // bytes of standard output kept; more kills the run
	Procs    int           // processes and threads the run may hold at once; 0: DefaultLimits'
}

// DefaultLimits suit one exercise of the book: its cases take well under a second (the PPO
// exercise compiles a graph, about one second), and the probe, a Go program with GOMAXPROCS=2,
// runs on fewer than a dozen threads; 64 leaves it room and stops a fork bomb early.
var DefaultLimits = Limits{Timeout: 60 * time.Second, MemoryMB: 4096, Output: 1 << 20, Procs: 64}

// probeFD is the descriptor the jail receives the probe on: it execs the file through it, which
// needs neither the file inside the jail's root nor permission on the folders above it (see
// jailUID).
const probeFD = 3

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
	UID       int // the host uid the run has; -1: the grader's own
	Limits    Limits
}

// jailUID is the host uid a jailed run gets when the grader runs as root: the kernel exempts root
// from RLIMIT_NPROC, so a run as root could fork without bound. A uid of its own, different for
// each grading process, makes the process limit hold. Such a uid can read neither the grader's
// binary nor the probe through their folders, which is why both reach the jail as open files.
func jailUID() int {
	if os.Geteuid() != 0 {
		return -1
	}
	return 2_000_000 + os.Getpid()%1_000_000
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
// that holds only an empty /tmp (bin runs from a descriptor opened outside it), no network, and
// the limits, processes and threads included. Where user
// namespaces are refused it runs with the limits alone, in an empty working folder, and says so in
// Isolation; with AGENTRL_REQUIRE_NAMESPACES=1 that is an error instead.
func Jail(ctx context.Context, bin string, args []string, stdin []byte, lim Limits) (*JailResult, error) {
	if lim.Procs == 0 {
		lim.Procs = DefaultLimits.Procs
	}
	dir, err := os.MkdirTemp("", "agentrl-jail-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	spec := jailSpec{Bin: bin, Args: args, Root: dir, Namespace: true, UID: jailUID(), Limits: lim}
	if spec.UID >= 0 { // without namespaces the run works in dir as that uid
		if err := os.Chown(dir, spec.UID, spec.UID); err != nil {
			return nil, err
		}
	}
	const self = "/proc/self/exe" // this binary, whatever folder it is in (see jailUID)
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
	probe, err := os.Open(spec.Bin)
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	cmd := exec.Command(self)
	cmd.Env = []string{jailEnv + "=" + string(b)}
	cmd.ExtraFiles = []*os.File{probe} // probeFD
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: !spec.Namespace}
	uid, gid := os.Getuid(), os.Getgid()
	if spec.UID >= 0 {
		uid, gid = spec.UID, spec.UID
	}
	if spec.Namespace {
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
		if spec.UID >= 0 {
			// The map alone leaves the process root's uid, which the namespace does not map:
			// becoming its root makes it spec.UID, without root's supplementary groups.
			cmd.SysProcAttr.Credential = &syscall.Credential{Uid: 0, Gid: 0}
			cmd.SysProcAttr.GidMappingsEnableSetgroups = true
		}
	} else if spec.UID >= 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
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
	if !spec.Namespace {
		// Without a PID namespace what the run forked outlives it: its process group goes too.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
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
		{unix.RLIMIT_NPROC, uint64(spec.Limits.Procs)},
	} {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.max, Max: l.max}); err != nil {
			fail("rlimit", err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fail("no_new_privs", err)
	}
	env := []string{"HOME=/tmp", "TMPDIR=/tmp", "GOMLX_NO_AUTO_INSTALL=1", "GOMAXPROCS=2", "GOMLX_GO_SIMD_AVX512=false", "GODEBUG=cpu.avx512f=off"}
	unix.CloseOnExec(probeFD) // exec reads the file through it; the probe gets no copy
	fail("exec", execFD(probeFD, append([]string{"/probe"}, spec.Args...), env))
}

// execFD replaces the process with the program open on fd (execveat with an empty path): the
// file lies outside the jail's root, in folders its uid may not search, and was opened by the
// grader before the jail was built.
func execFD(fd int, argv, env []string) error {
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	envp, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		return err
	}
	empty := []byte{0}
	_, _, errno := syscall.RawSyscall6(unix.SYS_EXECVEAT, uintptr(fd), uintptr(unsafe.Pointer(&empty[0])),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])), unix.AT_EMPTY_PATH, 0)
	return errno
}
