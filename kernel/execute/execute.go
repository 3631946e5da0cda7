package execute

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/spec"
)

//go:embed run_notebook.py
var driver []byte

// Python is Debian's interpreter, which has Jupyter's modules. It is named by full path on purpose:
// the python3 first on PATH may be another build without them.
const Python = "/usr/bin/python3"

// DefaultKernel is the kernel spec that set-up registers for the course.
const DefaultKernel = spec.Name

// Options configure one execution.
type Options struct {
	Kernel         string        // kernel spec name; DefaultKernel when empty
	CellTimeout    time.Duration // longest a single cell may run; 10 minutes when zero
	StartupTimeout time.Duration // longest the kernel may take to start; 2 minutes when zero

	// Root, when set, is the checkout whose kernel runs the notebook: its kernel spec is written to
	// a private folder that Jupyter searches first, so a run uses the code of the checkout it
	// belongs to, whichever checkout's set-up registered the user's kernel last.
	Root string
}

// CellError reports the cell at which a notebook stopped.
type CellError struct {
	Notebook string // path
	Cell     int    // 1-based position among all cells, as Jupyter shows them
	Kind     string // "error", "timeout", "dead-kernel" or "startup"
	Source   string // first line of the cell's source
	Message  string // what the kernel said
}

func (e *CellError) Error() string {
	return fmt.Sprintf("%s: cell %d (%q): %s: %s", e.Notebook, e.Cell, e.Source, e.Kind, e.Message)
}

type driverResult struct {
	Status  string `json:"status"`
	Cell    int    `json:"cell"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Run executes the notebook at path in a fresh kernel, cell by cell, in the notebook's folder, and
// returns the executed notebook. If a cell fails, times out or kills the kernel, the notebook
// executed so far is returned together with a *CellError. Every process the run started (the
// kernel, its compiled cell programs, gopls) is gone when Run returns, and so is the run's own
// temporary folder, which its processes see as TMPDIR.
func Run(ctx context.Context, path string, opt Options) (*notebook.Notebook, error) {
	if opt.Kernel == "" {
		opt.Kernel = DefaultKernel
	}
	if opt.CellTimeout == 0 {
		opt.CellTimeout = 10 * time.Minute
	}
	if opt.StartupTimeout == 0 {
		opt.StartupTimeout = 2 * time.Minute
	}
	src, err := notebook.Read(path) // fail early, with the file's name, on a malformed notebook
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(Python); err != nil {
		return nil, fmt.Errorf("Debian's Jupyter is missing (%s): run `make setup`", Python)
	}
	tmp, err := os.MkdirTemp("", "agentrl-run-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "run_notebook.py")
	if err := os.WriteFile(script, driver, 0o644); err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, "out.ipynb")
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}

	// A private TMPDIR, removed with the run: chapters hand files from one cell to the next through
	// os.TempDir, and two runs at once (two checkers, a checker beside an open chapter) must not
	// read each other's files.
	runTmp := filepath.Join(tmp, "tmp")
	if err := os.Mkdir(runTmp, 0o755); err != nil {
		return nil, err
	}
	env := append(os.Environ(), "TMPDIR="+runTmp)
	if opt.Root != "" {
		dataDir := filepath.Join(tmp, "jupyter")
		if _, err := spec.Install(opt.Root, dataDir); err != nil {
			return nil, err
		}
		env = append(env, "JUPYTER_PATH="+dataDir)
	}

	// Every process of this run inherits the marker, so all of them can be found and stopped
	// afterwards, even those that left the driver's process group (the kernel starts its own session).
	marker := newMarker()
	// The driver has the whole cell budget plus start-up and shutdown; cells are timed by nbclient.
	limit := time.Duration(len(src.CodeCells())+1)*opt.CellTimeout + opt.StartupTimeout + time.Minute
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(runCtx, Python, script, abs, out, opt.Kernel,
		strconv.Itoa(int(opt.CellTimeout.Seconds())), strconv.Itoa(int(opt.StartupTimeout.Seconds())))
	cmd.Dir = filepath.Dir(abs)
	cmd.Env = append(env, markerVar+"="+marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// On an interrupt or the time limit, stop the whole run, not only the driver: the kernel runs
	// in a session of its own and holds the output pipes open, so Wait would never return while
	// it lives. WaitDelay bounds the wait for the pipes if anything escaped the marker.
	cmd.Cancel = func() error {
		killMarked(marker)
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	killMarked(marker)

	if runErr != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: interrupted: %w", path, ctx.Err())
		}
		return nil, fmt.Errorf("%s: executing notebook failed: %v\n%s", path, runErr, tail(stderr.String(), 20))
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var res driverResult
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		return nil, fmt.Errorf("%s: unreadable result from the notebook runner: %q\n%s", path, stdout.String(), tail(stderr.String(), 20))
	}
	executed, err := notebook.Read(out)
	if err != nil {
		return nil, err
	}
	executed.Path = path
	if res.Status != "ok" {
		ce := &CellError{Notebook: path, Cell: res.Cell + 1, Kind: res.Kind, Message: ansi.ReplaceAllString(res.Message, "")}
		if res.Cell >= 0 && res.Cell < len(src.Cells) {
			ce.Source = firstLine(src.Cells[res.Cell].Source)
		}
		if res.Kind == "startup" {
			ce.Message += "\n" + tail(stderr.String(), 20)
		}
		return executed, ce
	}
	return executed, nil
}

// ansi matches terminal colour codes, which GoNB puts around the cell's position in a stack trace.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

const markerVar = "AGENTRL_BOOK_RUN"

func newMarker() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// killMarked kills every process whose environment carries this run's marker. It repeats until
// none is left, since a dying process's children may still be starting.
func killMarked(marker string) {
	needle := []byte(markerVar + "=" + marker + "\x00")
	for range 50 {
		pids := markedProcesses(needle)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func markedProcesses(needle []byte) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, env...), append([]byte{0}, needle...)) {
			continue
		}
		if isZombie(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

func isZombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the command name, which is in parentheses and may contain spaces.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z'
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
