package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/gym"
)

// smallTaskDir writes two train tasks and one dev and one test task, so a whole run with its
// evaluation takes seconds.
func smallTaskDir(t *testing.T) string {
	t.Helper()
	all, err := gym.LoadTasks(gymTasks)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, split := range gym.Splits {
		n := 1
		if split == gym.Train {
			n = 2
		}
		for _, task := range gym.Filter(all, split, "")[:n] {
			if err := gym.WriteTask(dir, task); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func TestTrainFlagErrors(t *testing.T) {
	// Numbers out of range, NaN and infinities are refused with the flag's name and its range.
	for _, args := range [][]string{
		{"-lr", "Inf"}, {"-lr", "NaN"}, {"-lr", "2"}, {"-entropy-coef", "NaN"}, {"-kl-coef", "+Inf"}, {"-pass-bonus", "NaN"},
		{"-gamma", "NaN"}, {"-eval-temp", "Inf"}, {"-turns", "1000"}, {"-groups", "100000"}, {"-test-timeout", "0s"},
	} {
		_, err := parseTrainFlags(args)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), args[0]+" ") || !strings.Contains(err.Error(), "want a number in") {
			t.Errorf("%v: got %v, want a usage error naming %s and its range", args, err, args[0])
		}
	}
	for _, args := range [][]string{
		{"-algo", "nope"}, {"-steps", "0"}, {"-lr", "-1"}, {"-kl-coef", "-1"}, {"-refill", "-1"}, {"extra"}, {"-group-size", "x"},
		{"-credit", "nope"}, {"-gamma", "0"}, {"-gamma", "1.5"}, {"-eval-temp", "-1"}, {"-pass-bonus", "-0.1"},
	} {
		var buf bytes.Buffer
		old := stderr
		stderr = &buf
		_, err := parseTrainFlags(args)
		stderr = old
		if !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
	if err := trainMain(nil); !errors.Is(err, errUsage) {
		t.Errorf("no model: got %v, want a usage error", err)
	}
}

// metricUpdates reads the update numbers in a metrics file.
func metricUpdates(t *testing.T, path string) (steps []int, evals int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m tinyLine
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad metrics line %q: %v", line, err)
		}
		switch {
		case m.Update != nil:
			steps = append(steps, m.Update.Step)
		case m.Eval != nil:
			evals++
		}
	}
	return steps, evals
}

func TestTrainRunsResumesAndRefusesToOverwrite(t *testing.T) {
	dir := smallTaskDir(t)
	outDir := filepath.Join(t.TempDir(), "run")
	cache := t.TempDir()
	train := func(steps string, extra ...string) (string, error) {
		args := append([]string{"-tasks", dir, "-out", outDir, "-steps", steps, "-groups", "1", "-group-size", "2",
			"-turns", "2", "-eval-reps", "1", "-checkpoint-every", "1"}, extra...)
		f, err := parseTrainFlags(args)
		if err != nil {
			t.Fatal(err)
		}
		f.baselineCache = cache
		var progress, out bytes.Buffer
		f.progress = &progress
		err = trainTinyAgent(f, &out)
		return out.String() + progress.String(), err
	}
	out, err := train("2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	first := out
	if strings.Contains(first, "baselines: read from") {
		t.Errorf("an empty cache answered:\n%s", first)
	}
	for _, want := range []string{"TinyAgent (drgrpo, greedy)", "random edit, submit", "scripted search", "oracle", "2/2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	steps, evals := metricUpdates(t, filepath.Join(outDir, "metrics.jsonl"))
	if len(steps) != 2 || steps[0] != 0 || steps[1] != 1 || evals != 3 {
		t.Errorf("metrics: updates %v, %d evaluations; want [0 1] and 3", steps, evals)
	}
	if _, err := train("3"); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Errorf("a second run into the same folder: got %v, want a refusal naming -resume", err)
	}
	out, err = train("3", "-resume")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "resumed") || !strings.Contains(out, "at update 2") {
		t.Errorf("resume output:\n%s", out)
	}
	// The first run played the baselines and kept their rates; the resumed run (same binary,
	// tasks, settings and seed) read them back and printed the same rows.
	files, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	if len(files) != 1 || !strings.Contains(out, "baselines: read from "+files[0]) {
		t.Errorf("baseline cache %v; resumed output:\n%s", files, out)
	}
	if !strings.Contains(out, baselineLines(first)) || baselineLines(first) == "" {
		t.Errorf("cached baselines differ from played ones:\n%s\nagainst\n%s", baselineLines(out), baselineLines(first))
	}
	steps, _ = metricUpdates(t, filepath.Join(outDir, "metrics.jsonl"))
	if len(steps) != 3 || steps[2] != 2 {
		t.Errorf("after resuming: updates %v, want [0 1 2]", steps)
	}
	// Resuming under other settings is refused, naming each setting that differs.
	_, err = train("4", "-resume", "-lr", "0.01", "-algo", "grpo")
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-algo drgrpo (now grpo)") || !strings.Contains(err.Error(), "-lr 0.003 (now 0.01)") {
		t.Errorf("resume under another -lr and -algo: %v", err)
	}
	// -fast-graph changes the gradient's last bits, so it is a setting of the run too.
	if _, err = train("4", "-resume", "-fast-graph"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-fast-graph false (now true)") {
		t.Errorf("resume with -fast-graph: %v", err)
	}
	if steps, _ = metricUpdates(t, filepath.Join(outDir, "metrics.jsonl")); len(steps) != 3 {
		t.Errorf("a refused resume changed the metrics: updates %v", steps)
	}
	// Two processes never write one run folder: the second is told who holds it.
	unlock, err := lockRun(outDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := train("4", "-resume"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("is being written by process %d", os.Getpid())) {
		t.Errorf("a run folder in use: %v", err)
	}
	unlock()
}

func TestTimeToTarget(t *testing.T) {
	dir := smallTaskDir(t)
	run := func(target string) string {
		f, err := parseTrainFlags([]string{"-tasks", dir, "-steps", "2", "-groups", "1", "-group-size", "2", "-turns", "2", "-eval-reps", "1"})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		x, _ := strconv.ParseFloat(target, 64)
		if err := timeToTarget(f, x, 1, &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if out := run("1"); !strings.Contains(out, "not reached in 2 updates") || strings.Count(out, "held-out") < 3 {
		t.Errorf("unreachable target:\n%s", out)
	}
	// Any rate reaches 0: the first evaluation stops the run.
	if out := run("0"); !strings.Contains(out, "\nreached ") || !strings.Contains(out, "after 1 updates") {
		t.Errorf("reachable target:\n%s", out)
	}
}

// TestEveryAlgorithmTrains runs one update of each --algo, so that every chapter's advantage and
// loss is wired to a trainer that compiles and steps.
func TestEveryAlgorithmTrains(t *testing.T) {
	dir := smallTaskDir(t)
	names, _ := agentrl.TinyAlgorithms()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			out := quickRun(t, "-algo", name, "-credit", "episode", "-tasks", dir, "-out", filepath.Join(t.TempDir(), "run"),
				"-steps", "1", "-groups", "1", "-group-size", "4", "-turns", "2", "-eval-reps", "1", "-baselines=false")
			if !strings.Contains(out, "TinyAgent ("+name+", greedy)") {
				t.Errorf("output:\n%s", out)
			}
		})
	}
}

// TestDAPOWarning checks that DAPO is flagged where its overlong shaping punishes every edit call
// (one call per episode), and not where an edit and a submission fit below the shaped zone.
func TestDAPOWarning(t *testing.T) {
	dir := smallTaskDir(t)
	for _, c := range []struct {
		turns string
		warn  bool
	}{{"1", true}, {"2", false}} {
		out := quickRun(t, "-tasks", dir, "-out", filepath.Join(t.TempDir(), "run"), "-algo", "dapo", "-turns", c.turns,
			"-steps", "1", "-groups", "1", "-group-size", "2", "-eval-reps", "1", "-baselines=false", "-refill", "0")
		if got := strings.Contains(out, "warning: DAPO"); got != c.warn {
			t.Errorf("-turns %s: warning printed %v, want %v:\n%s", c.turns, got, c.warn, out)
		}
	}
}

// quickRun trains with the given flags and returns what the run printed.
func quickRun(t *testing.T, args ...string) string {
	t.Helper()
	f, err := parseTrainFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	var progress, out bytes.Buffer
	f.progress = &progress
	if err := trainTinyAgent(f, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return out.String()
}

// TestPatchesFlag runs a short -patches training and checks that the baselines include the patch
// interface's own search instead of the note that one call cannot search, and that the run
// reports how TinyAgent acted on its patches' test results.
func TestPatchesFlag(t *testing.T) {
	out := quickRun(t, "-tasks", smallTaskDir(t), "-out", filepath.Join(t.TempDir(), "run"), "-patches", "-turns", "3",
		"-steps", "1", "-groups", "1", "-group-size", "2", "-eval-reps", "1", "-refill", "0")
	if !strings.Contains(out, "scripted search (patch until pass)") || strings.Contains(out, "cannot search") ||
		!strings.Contains(out, "TinyAgent patched again after") {
		t.Errorf("-patches output:\n%s", out)
	}
}

// baselineLines is the baselines' rows of a train tinyagent output (every row but TinyAgent's).
func baselineLines(out string) string {
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		for _, name := range []string{"random valid call", "random edit, submit", "scripted search", "oracle"} {
			if strings.HasPrefix(l, name) {
				rows = append(rows, l)
			}
		}
	}
	return strings.Join(rows, "\n")
}
