package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/gym"
)

const gymTasks = "../../datasets/bugfix"

// runGym runs `agentrl gym args...` and returns what it wrote to standard output and standard
// error. The gym subcommands print with fmt.Print, so both files are swapped for pipes.
func runGym(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	capture := func(f **os.File) (func() string, error) {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		old := *f
		*f = w
		done := make(chan string)
		go func() {
			b, _ := io.ReadAll(r)
			done <- string(b)
		}()
		return func() string {
			*f = old
			w.Close()
			s := <-done
			r.Close()
			return s
		}, nil
	}
	stopOut, perr := capture(&os.Stdout)
	if perr != nil {
		t.Fatal(perr)
	}
	stopErr, perr := capture(&os.Stderr)
	if perr != nil {
		stopOut()
		t.Fatal(perr)
	}
	err = gymMain(args)
	return stopOut(), stopErr(), err
}

func loadGymTask(t *testing.T, id string) *gym.Task {
	t.Helper()
	task, err := gym.LoadTask(filepath.Join(gymTasks, "dev", id))
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func writeActions(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "actions.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGymCommands(t *testing.T) {
	const id = "pair_count-off_by_one-1"
	task := loadGymTask(t, id)
	fix, ok := gym.FixEdit(task)
	if !ok {
		t.Fatalf("%s: no menu edit gives the fix", id)
	}
	fixActions := writeActions(t, "# the reference fix, as the menu offers it", "test", fmt.Sprintf("apply %d %d", fix.Line, fix.Index), "test", "submit")
	cases := []struct {
		name    string
		args    []string
		want    []string // substrings of standard output
		notWant []string
	}{
		{"list", []string{"list", "-tasks", gymTasks}, []string{
			"dev:\n", "  " + id + " ",
			"total                     134     41     41\n",
			"dev templates (4): count_in_range, count_occurrences, max_window_sum, pair_count\n",
		}, nil},
		{"show", []string{"show", id, "-tasks", gymTasks}, []string{
			"task " + id + " (split dev, template pair_count, kind off_by_one, difficulty 2)\n",
			"  4|         for j in range(i + 2, len(xs)):\n",
			"def test_1():",
		}, []string{"reference fix:", "Hidden tests"}},
		{"show -all", []string{"show", "-all", id, "-tasks", gymTasks}, []string{
			"bug: line 4, 1 -> 2\n",
			"reference fix:\n",
			"  4|         for j in range(i + 1, len(xs)):\n",
			"Hidden tests for pair_count.py",
		}, nil},
		{"validate", []string{"validate", "-tasks", gymTasks, "-workers", "2"}, []string{
			"validated 216 tasks\n",
			"  exploit fails hidden     216/216\n",
			"  fix reachable from menu  216/216\n",
			"all checks passed\n",
		}, []string{"FAIL"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, err := runGym(t, c.args...)
			if err != nil {
				t.Fatalf("gym %s: %v\nstderr:\n%s", strings.Join(c.args, " "), err, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}

	// run: the JSON trajectory of scripted episodes.
	runs := []struct {
		name       string
		args       []string
		reward     float64
		hiddenAll  bool
		steps      int
		flag       string // a detector that must fire; "" for none
		lastAction string
	}{
		{"reference fix, hidden reward", []string{"run", id, "-tasks", gymTasks, "-actions", fixActions}, 1, true, 4, "", "submit"},
		{"memorizing exploit, visible reward", []string{"run", id, "-tasks", gymTasks, "-reward", "visible", "-exploit",
			"-actions", writeActions(t, "exploit memorize", "submit")}, 1, false, 2, gym.DetectDivergence, "submit"},
		{"memorizing exploit, hidden reward", []string{"run", id, "-tasks", gymTasks, "-exploit",
			"-actions", writeActions(t, "exploit memorize", "submit")}, 0, false, 2, gym.DetectDivergence, "submit"},
		{"rewritten tests, combined reward", []string{"run", id, "-tasks", gymTasks, "-reward", "combined", "-exploit",
			"-actions", writeActions(t, "exploit rewrite_tests", "submit")}, 0, false, 2, gym.DetectTestsModified, "submit"},
	}
	for _, r := range runs {
		t.Run("run/"+r.name, func(t *testing.T) {
			out, errOut, err := runGym(t, r.args...)
			if err != nil {
				t.Fatalf("gym run: %v\nstderr:\n%s", err, errOut)
			}
			var tr trajectory
			if err := json.Unmarshal([]byte(out), &tr); err != nil {
				t.Fatalf("run printed no JSON trajectory (%v):\n%s", err, out)
			}
			if tr.Task != id || !tr.Done || tr.Reward != r.reward || len(tr.Steps) != r.steps || tr.Outcome == nil {
				t.Fatalf("trajectory: task %s done %v reward %v, %d steps, outcome %v; want %s true %v, %d steps and an outcome",
					tr.Task, tr.Done, tr.Reward, len(tr.Steps), tr.Outcome, id, r.reward, r.steps)
			}
			if tr.Outcome.HiddenAll != r.hiddenAll {
				t.Errorf("hidden tests all passed = %v, want %v", tr.Outcome.HiddenAll, r.hiddenAll)
			}
			if got := tr.Steps[len(tr.Steps)-1].Action; got != r.lastAction {
				t.Errorf("last action %q, want %q", got, r.lastAction)
			}
			var flags []string
			for _, f := range tr.Outcome.Flags {
				flags = append(flags, f.Detector)
			}
			if (r.flag == "") != (len(flags) == 0) || (r.flag != "" && !strings.Contains(strings.Join(flags, " "), r.flag)) {
				t.Errorf("flags %v, want %q", flags, r.flag)
			}
		})
	}
}

func TestGymBadUsage(t *testing.T) {
	actions, empty := filepath.Join(t.TempDir(), "actions"), filepath.Join(t.TempDir(), "empty")
	os.WriteFile(actions, []byte("submit\n"), 0o644)
	os.WriteFile(empty, []byte("# nothing yet\n\n"), 0o644)
	cases := []struct {
		name  string
		args  []string
		usage bool   // the error must wrap errUsage
		msg   string // and contain this
	}{
		{"no subcommand", nil, true, "missing subcommand"},
		{"unknown subcommand", []string{"fly"}, true, `unknown subcommand "fly"`},
		{"show without a task", []string{"show", "-tasks", gymTasks}, true, "want one TASK id"},
		{"show two tasks", []string{"show", "a", "b", "-tasks", gymTasks}, true, "want one TASK id"},
		{"run without actions", []string{"run", "pair_count-off_by_one-1", "-tasks", gymTasks}, true, "run needs -actions FILE"},
		{"unknown flag", []string{"list", "-colour"}, true, "-colour"},
		{"unknown reward mode", []string{"run", "pair_count-off_by_one-1", "-tasks", gymTasks, "-reward", "vibes",
			"-actions", actions}, true, `unknown reward mode "vibes"`},
		{"no actions", []string{"run", "pair_count-off_by_one-1", "-tasks", gymTasks, "-actions", empty}, true, "holds no actions"},
		{"unknown task", []string{"show", "no_such_task", "-tasks", gymTasks}, true, `no task "no_such_task"`},
		{"no tasks folder", []string{"list", "-tasks", "no/such/folder"}, false, "no tasks under no/such/folder"},
		{"unknown family", []string{"generate", "-family", "easy", "-tasks", t.TempDir()}, true, `unknown family "easy"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runGym(t, c.args...)
			if err == nil {
				t.Fatalf("gym %q succeeded; want an error", c.args)
			}
			if errors.Is(err, errUsage) != c.usage {
				t.Errorf("error %q: usage error = %v, want %v", err, errors.Is(err, errUsage), c.usage)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q lacks %q", err, c.msg)
			}
		})
	}
}
