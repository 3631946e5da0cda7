package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeFiles writes each name's content into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A trainer refuses a folder that holds anything it did not write itself, leaves it as it was and
// names what is there; -resume continues only a run of its own kind.
func TestRunFolderRefusesOthersFiles(t *testing.T) {
	tinyRun := map[string]string{"run.json": `{"Kind": "tinyagent", "Seed": 1}`, "metrics.jsonl": "{}\n", "checkpoint": "x"}
	legacyTiny := map[string]string{"run.json": `{"Recipe": {}, "Seed": 1}`, "metrics.jsonl": "{}\n", "checkpoint": "x"}
	for _, c := range []struct {
		name   string
		files  map[string]string
		kind   string
		done   string
		resume bool
		want   string // "" when the folder is taken
	}{
		{"notes", map[string]string{"notes.txt": "mine"}, kindTinyAgent, "checkpoint", false, "(notes.txt)"},
		{"a run.json of no run", map[string]string{"run.json": `{"name": "x"}`, "metrics.jsonl": "a\n"}, kindTinyAgent, "checkpoint", false, "metrics.jsonl, run.json"},
		{"qwen3 over tinyagent", tinyRun, kindQwen3, "checkpoint", false, "holds a tinyagent run"},
		{"qwen3 resumes tinyagent", tinyRun, kindQwen3, "checkpoint", true, "holds a tinyagent run"},
		{"capstone over tinyagent", tinyRun, kindCapstone, "metrics.jsonl", false, "holds a tinyagent run"},
		{"tinyagent over a finished tinyagent", tinyRun, kindTinyAgent, "checkpoint", false, "pass -resume"},
		{"tinyagent over an earlier version's run", legacyTiny, kindTinyAgent, "checkpoint", false, "pass -resume"},
		{"qwen3 over an earlier version's tinyagent", legacyTiny, kindQwen3, "checkpoint", true, "holds a tinyagent run"},
		{"resume nothing", nil, kindTinyAgent, "checkpoint", true, "no run to resume"},
		{"capstone twice", map[string]string{"run.json": `{"Kind": "capstone"}`, "metrics.jsonl": "{}\n"}, kindCapstone, "metrics.jsonl", false, "choose another -out"},
		{"resume its own", tinyRun, kindTinyAgent, "checkpoint", true, ""},
		{"resume an earlier version's", legacyTiny, kindTinyAgent, "checkpoint", true, ""},
		{"a start that saved no checkpoint", map[string]string{"run.json": `{"Kind": "tinyagent"}`, "metrics.jsonl": ""}, kindTinyAgent, "checkpoint", false, ""},
		{"empty", nil, kindQwen3, "checkpoint", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			writeFiles(t, dir, c.files)
			rf, err := claimRunFolder(dir, c.kind, c.done, c.resume)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				rf.release(nil)
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("got %v, want a refusal naming %s and %q", err, dir, c.want)
			}
			for name, content := range c.files {
				if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != content {
					t.Errorf("%s changed: %q, %v", name, b, err)
				}
			}
		})
	}
	// Not a folder at all.
	file := filepath.Join(t.TempDir(), "f")
	writeFiles(t, filepath.Dir(file), map[string]string{"f": "x"})
	if _, err := claimRunFolder(file, kindTinyAgent, "checkpoint", false); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("a file as -out: %v", err)
	}
}

// The trainers themselves refuse before they write anything, and a start that fails in set-up
// removes the folder it made.
func TestTrainersRefuseOthersFolders(t *testing.T) {
	tasks := smallTaskDir(t)
	foreign := filepath.Join(t.TempDir(), "d")
	writeFiles(t, foreign, map[string]string{"run.json": `{"mine": true}`, "metrics.jsonl": "keep\n"})
	f, err := parseTrainFlags([]string{"-tasks", tasks, "-out", foreign, "-steps", "1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := trainTinyAgent(f, io.Discard); err == nil || !strings.Contains(err.Error(), "not a tinyagent run's") {
		t.Errorf("train tinyagent into a foreign folder: %v", err)
	}
	model := t.TempDir()
	writeFiles(t, model, map[string]string{"config.json": "{}"})
	tiny := filepath.Join(t.TempDir(), "tiny")
	writeFiles(t, tiny, map[string]string{"run.json": `{"Kind": "tinyagent"}`, "metrics.jsonl": "keep\n", "checkpoint": "x"})
	q, err := parseQwen3TrainFlags([]string{"-model-dir", model, "-tasks", tasks, "-out", tiny})
	if err != nil {
		t.Fatal(err)
	}
	if err := trainQwen3(q, io.Discard); err == nil || !strings.Contains(err.Error(), "holds a tinyagent run") {
		t.Errorf("train qwen3 into a tinyagent run: %v", err)
	}
	c, err := parseCapstoneFlags([]string{"-tasks", tasks, "-out", tiny})
	if err != nil {
		t.Fatal(err)
	}
	if err := trainCapstone(c, io.Discard); err == nil || !strings.Contains(err.Error(), "holds a tinyagent run") {
		t.Errorf("train capstone into a tinyagent run: %v", err)
	}
	for _, dir := range []string{foreign, tiny} {
		if b, _ := os.ReadFile(filepath.Join(dir, "metrics.jsonl")); string(b) != "keep\n" {
			t.Errorf("%s/metrics.jsonl became %q", dir, b)
		}
		if _, err := os.Stat(filepath.Join(dir, "lock")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused start left its lock file in %s (%v)", dir, err)
		}
	}
	// A failed set-up (no tasks) leaves no folder behind: neither the run folder nor the runs/
	// folder it made above it.
	runs := filepath.Join(t.TempDir(), "runs")
	fresh := filepath.Join(runs, "fresh")
	f, err = parseTrainFlags([]string{"-tasks", t.TempDir(), "-out", fresh})
	if err != nil {
		t.Fatal(err)
	}
	if err := trainTinyAgent(f, io.Discard); err == nil {
		t.Fatal("training on no tasks succeeded")
	}
	if _, err := os.Stat(runs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed start left %s behind (%v)", runs, err)
	}
}

// Ctrl-C during a start's set-up removes the folders the start made; the process still stops.
func TestInterruptedStartLeavesNoFolder(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	cmd, out, tag := helper(t, nil, "train", "tinyagent", "-tasks", gymTasks, "-out", filepath.Join(runs, "r"), "-steps", "1000")
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(runs, "r", "lock")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run folder never appeared; the command said:\n%s", out)
		}
		time.Sleep(time.Millisecond)
	}
	interruptWithin(t, cmd, tag, syscall.SIGINT, 5*time.Second)
	// Set-up ends once the run's metrics file is written; an interrupt after that stops a run
	// that has started, which keeps its folder.
	if _, err := os.Stat(filepath.Join(runs, "r", "metrics.jsonl")); err == nil {
		t.Skip("set-up ended before the interrupt: the run keeps its folder")
	}
	if entries, err := os.ReadDir(runs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an interrupted start left %s behind: %v %v; the command said:\n%s", runs, entries, err, out)
	}
}

// TestCheckSettings: one check for every trainer's run.json. It names a difference by its flag,
// or by the field's path where no flag sets it; it lets through what same copies from the run
// and fields tagged json:"-".
func TestCheckSettings(t *testing.T) {
	type inner struct{ A, B int }
	type settings struct {
		Kind  string
		In    inner
		Steps int
		Code  func() `json:"-"`
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := writeJSON(path, settings{Kind: "k", In: inner{1, 2}, Steps: 5}); err != nil {
		t.Fatal(err)
	}
	flags := map[string]string{"In.A": "-a"}
	same := func(run settings, now *settings) { now.Steps = run.Steps }
	if err := checkSettings(path, settings{Kind: "k", In: inner{1, 2}, Steps: 9, Code: func() {}}, flags, same); err != nil {
		t.Errorf("the same settings, other steps: %v", err)
	}
	err := checkSettings(path, settings{Kind: "k", In: inner{3, 4}}, flags, same)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-a 1 (now 3), In.B 2 (now 4) (give them") {
		t.Errorf("two differences: %v", err)
	}
	if err := checkSettings(filepath.Join(t.TempDir(), "run.json"), settings{}, flags, same); err == nil || !strings.Contains(err.Error(), "is missing") {
		t.Errorf("no run.json: %v", err)
	}
}
