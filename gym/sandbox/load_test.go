package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// loadRuns are a fixed set of runs: a pass, a failure, a CPU-bound run that uses 60% of the
// 200 ms limit in CPU time (twice that in wall-clock time on two busy cores, which the wall-clock
// limit used to grade as a timeout) and an infinite loop.
var loadRuns = []struct {
	name   string
	source string
	want   Status
	passed bool
}{
	{"pass", "def f(x):\n    return x\n", StatusOK, true},
	{"fail", "def f(x):\n    return x + 1\n", StatusOK, false},
	{"near the limit", "import time\n\ndef f(x):\n    t = time.process_time()\n    while time.process_time() - t < 0.12:\n        pass\n    return x\n", StatusOK, true},
	{"infinite loop", "def f(x):\n    while True:\n        pass\n", StatusTimeout, false},
}

// verdicts runs loadRuns once, unmemoized, and returns each run's status and whether it passed.
func verdicts(t *testing.T, p *Pool) []string {
	t.Helper()
	var got []string
	for _, r := range loadRuns {
		res, err := p.Run(Request{Module: "m", Source: r.source, Tests: okTests, NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(res.Status)+" "+map[bool]string{true: "passed", false: "failed"}[res.AllPassed()])
	}
	return got
}

// A run's verdict does not depend on the machine's load: the same runs, evaluated on an idle
// machine and with every core kept busy by other processes, get the same verdicts, and each is
// the one it should be.
func TestVerdictsIndependentOfLoad(t *testing.T) {
	p, err := New(Options{Workers: 1, Timeout: 200 * time.Millisecond, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	idle := verdicts(t, p)
	for i, r := range loadRuns {
		if want := string(r.want) + " " + map[bool]string{true: "passed", false: "failed"}[r.passed]; idle[i] != want {
			t.Errorf("%s on an idle machine: %s, want %s", r.name, idle[i], want)
		}
	}
	// Busy processes, two for each core the runs could use, for as long as the runs take (about
	// two seconds).
	var busy []*exec.Cmd
	for range 4 {
		c := exec.Command(p.opts.Python, "-c", "while True: pass")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		busy = append(busy, c)
	}
	start := time.Now()
	loaded := verdicts(t, p)
	took := time.Since(start)
	for _, c := range busy {
		c.Process.Kill()
		c.Wait()
	}
	if strings.Join(loaded, ", ") != strings.Join(idle, ", ") {
		t.Errorf("verdicts under load %v, idle %v", loaded, idle)
	}
	if st := p.Stats(); st.Backstops != 0 {
		t.Errorf("%d runs stopped by the wall-clock backstop", st.Backstops)
	}
	t.Logf("under load the runs took %v", took)
}

// A run that sleeps uses no CPU time: the wall-clock backstop stops it, runs it once more, then
// counts it as a timeout in Stats.Backstops and does not memoize it. A short sleep past the CPU
// limit passes.
func TestBackstop(t *testing.T) {
	p, err := New(Options{Workers: 1, Timeout: 100 * time.Millisecond, Backstop: 400 * time.Millisecond, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	nap, err := p.Run(Request{Module: "m", Source: "import time\n\ndef f(x):\n    time.sleep(0.2)\n    return x\n", Tests: okTests})
	if err != nil || !nap.AllPassed() {
		t.Errorf("a 0.2 s sleep under a 0.1 s CPU limit: %+v, %v", nap, err)
	}
	sleeper := Request{Module: "m", Source: "import time\n\ndef f(x):\n    time.sleep(1000)\n", Tests: okTests}
	for i := range 2 {
		start := time.Now()
		r, err := p.Run(sleeper)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusTimeout || !strings.HasPrefix(r.Error, backstopError) || r.Cached {
			t.Fatalf("run %d of a sleeper: %s %q, cached %v", i, r.Status, r.Error, r.Cached)
		}
		if took := time.Since(start); took < 800*time.Millisecond {
			t.Errorf("run %d of a sleeper took %v: the backstop's second try is missing", i, took)
		}
	}
	if st := p.Stats(); st.Backstops != 2 || st.Timeouts != 2 {
		t.Errorf("stats %+v, want 2 timeouts, both by the backstop", st)
	}
}

// A hard file-size limit below the sandbox's is named as such, not reported as a kernel that
// refuses namespaces. The pool starts in a process of its own, whose limit the shell lowered.
func TestHardLimitNamed(t *testing.T) {
	if os.Getenv("SANDBOX_HARD_LIMIT_HELPER") != "" {
		_, err := New(Options{Workers: 1, Log: os.Stderr})
		fmt.Println(err)
		return
	}
	cmd := exec.Command("bash", "-c", `ulimit -f 100 && ulimit -Hf 100 && exec "$0" -test.run='^TestHardLimitNamed$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "SANDBOX_HARD_LIMIT_HELPER=1")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "hard limit on file size (ulimit -f") || strings.Contains(string(out), "namespaces are not permitted") {
		t.Errorf("a low ulimit -f:\n%s", out)
	}
}
