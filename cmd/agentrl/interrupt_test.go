package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenticrl/course/kernel/notebook"
	"github.com/agenticrl/course/kernel/spec"
)

// TestHelperProcess is not a test: the tests below run the test binary again with
// AGENTRL_HELPER set, and this runs the command they name as a process of its own, which they can
// then interrupt.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("AGENTRL_HELPER") == "" {
		t.Skip("runs only as a helper process")
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv("AGENTRL_HELPER_ARGS")), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintln(os.Stderr, "no command", args[0])
		os.Exit(3)
	}
	if err := c.run(args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "agentrl:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helper starts `agentrl ARGS...` as a process tagged with a random value in its environment,
// which every process it starts inherits; it returns the command and the tag.
func helper(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, string) {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	tag := hex.EncodeToString(b)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(append(os.Environ(), "AGENTRL_HELPER=1", "AGENTRL_HELPER_ARGS="+string(must(json.Marshal(args))), "AGENTRL_TEST_TAG="+tag), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, &out, tag
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// tagged lists the processes whose environment carries the tag.
func tagged(tag string) []int {
	needle := []byte("\x00AGENTRL_TEST_TAG=" + tag + "\x00")
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append(append([]byte{0}, env...), 0), needle) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue // a zombie has stopped; its parent has not collected it yet
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// waitFile waits for a file to exist, failing the test after the timeout.
func waitFile(t *testing.T, path string, timeout time.Duration, out *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared; the command said:\n%s", path, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// interruptWithin sends sig to cmd and fails the test unless it exits within limit and leaves no
// tagged process behind; it returns how long the exit took.
func interruptWithin(t *testing.T, cmd *exec.Cmd, tag string, sig syscall.Signal, limit time.Duration) time.Duration {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(limit):
		for _, pid := range tagged(tag) { // leave nothing running behind a failed test
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Fatalf("still running %v after %v", limit, sig)
	}
	took := time.Since(start)
	// Processes killed a moment ago may take a few milliseconds to leave /proc.
	var left []int
	for range 20 {
		if left = tagged(tag); len(left) == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(left) != 0 {
		for _, pid := range left {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			t.Errorf("left running after %v: pid %d %s", sig, pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return took
}

// Ctrl-C during `book check` stops the check within seconds, kills the kernel and the running
// cell, and leaves the notebook as it was.
func TestBookCheckStopsOnInterrupt(t *testing.T) {
	nb := readChapter0(t)
	ready := filepath.Join(t.TempDir(), "cell-started")
	cell := *nb.Cells[len(nb.Cells)-1]
	for _, c := range nb.Cells {
		if c.Type == "code" {
			cell = *c
			break
		}
	}
	cell.ID, cell.Outputs = "slow-cell", nil
	cell.Source = "%%\nos.WriteFile(os.Getenv(\"READY_FILE\"), nil, 0o644)\ntime.Sleep(10 * time.Minute)\n"
	nb.Cells = []*notebook.Cell{&cell}
	dir := t.TempDir()
	path := filepath.Join(dir, "ch00_slow.ipynb")
	if err := nb.Write(path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		os.Remove(ready)
		cmd, out, tag := helper(t, []string{"READY_FILE=" + ready}, "book", "check", "--update", "--notebooks", dir, "ch00")
		waitFile(t, ready, 3*time.Minute, out)
		took := interruptWithin(t, cmd, tag, sig, 5*time.Second)
		if !strings.Contains(out.String(), "interrupted while running "+path) {
			t.Errorf("%v: the command said:\n%s", sig, out)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Errorf("%v: the notebook changed", sig)
		}
		t.Logf("%v: stopped in %v", sig, took.Round(time.Millisecond))
	}
}

// Ctrl-C during training stops it at once with every sandbox worker gone, and the run resumes
// from its last checkpoint.
func TestTrainStopsOnInterrupt(t *testing.T) {
	dir := smallTaskDir(t)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "tinyagent", "-tasks", dir, "-out", out, "-steps", "1000", "-groups", "1", "-group-size", "2",
		"-turns", "2", "-eval-reps", "1", "-checkpoint-every", "1"}
	metrics := filepath.Join(out, "metrics.jsonl")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		before := lines(metrics)
		cmd, _, tag := helper(t, nil, append(args, "-resume="+strconv.FormatBool(sig == syscall.SIGTERM))...)
		// Interrupt it once it has trained an update of its own.
		deadline := time.Now().Add(2 * time.Minute)
		for lines(metrics) <= before+1 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		took := interruptWithin(t, cmd, tag, sig, 5*time.Second)
		t.Logf("%v: stopped in %v", sig, took.Round(time.Millisecond))
	}
	f, err := parseTrainFlags(append(args[2:len(args):len(args)], "-resume", "-steps", "1"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	f.progress = &buf
	if err := trainTinyAgent(f, &buf); err != nil {
		t.Fatalf("resuming after the interrupts: %v\n%s", err, buf.String())
	}
}

// lines counts the lines of a file (0 if it is missing).
func lines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// waitOutput waits until the command's output contains want, failing the test after the timeout.
func waitOutput(t *testing.T, out *bytes.Buffer, want string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the command never printed %q; it said:\n%s", want, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The benchmarks stop on SIGINT and SIGTERM in the middle of their timing, and leave neither
// sandbox workers nor the PyTorch process running, nor any of their files.
func TestBenchmarksStopOnInterrupt(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		marker string // printed once the timed work has started
	}{
		{"gym bench", []string{"gym", "bench", "-tasks", gymTasks, "-seconds", "600"}, "sandbox mode:"},
		{"bench tinyagent", []string{"bench", "tinyagent", "--tasks", gymTasks, "--rows", "32", "--iters", "100000"}, "parity within tolerance"},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			// What the binary leaves in its temporary folder even when it does nothing (a
			// dependency's cache) is not the benchmark's.
			tmp := t.TempDir()
			idle, _, _ := helper(t, []string{"TMPDIR=" + tmp}, "bench")
			idle.Wait()
			before := map[string]bool{}
			for _, e := range must(os.ReadDir(tmp)) {
				before[e.Name()] = true
			}
			cmd, out, tag := helper(t, []string{"TMPDIR=" + tmp}, c.args...)
			waitOutput(t, out, c.marker, 3*time.Minute)
			time.Sleep(time.Second) // into the timed runs
			took := interruptWithin(t, cmd, tag, sig, 5*time.Second)
			t.Logf("%s, %v: stopped in %v", c.name, sig, took.Round(time.Millisecond))
			for _, e := range must(os.ReadDir(tmp)) {
				if !before[e.Name()] {
					t.Errorf("%s, %v: left %s in its temporary folder", c.name, sig, e.Name())
				}
			}
		}
	}
}

// Ctrl-C in `agentrl course` stops Jupyter and the kernels it runs within seconds.
func TestCourseStopsOnInterrupt(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// Jupyter's data folder of its own: this checkout's kernel spec, and notebook signatures kept
	// out of the user's store.
	data := t.TempDir()
	if _, err := spec.Install(root, data); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		cmd, out, tag := helper(t, []string{"AGENTRL_ROOT=" + root, "JUPYTER_DATA_DIR=" + data}, "course", "--port", strconv.Itoa(port))
		waitOutput(t, out, "The course is open at ", 2*time.Minute)
		url := strings.Fields(strings.SplitN(out.String(), "The course is open at ", 2)[1])[0]
		base, token, _ := strings.Cut(url, "tree?token=")
		// A reader has a chapter open: its kernel runs.
		req, _ := http.NewRequest("POST", base+"api/kernels?token="+token, strings.NewReader(`{"name": "`+spec.Name+`"}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("starting a kernel: %v %v", err, resp)
		}
		resp.Body.Close()
		deadline := time.Now().Add(time.Minute)
		for len(tagged(tag)) < 3 && time.Now().Before(deadline) { // the command, Jupyter, the kernel
			time.Sleep(100 * time.Millisecond)
		}
		if n := len(tagged(tag)); n < 3 {
			t.Fatalf("%d processes run; want the command, Jupyter and a kernel", n)
		}
		took := interruptWithin(t, cmd, tag, sig, 5*time.Second)
		t.Logf("%v: stopped in %v", sig, took.Round(time.Millisecond))
	}
}
