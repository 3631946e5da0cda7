package gym

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Split names the part of the task family a task belongs to. Splits never share a function
// template, so dev and test tasks are code the agent has never seen in training.
type Split string

const (
	Train Split = "train"
	Dev   Split = "dev"
	Test  Split = "test"
)

// Splits lists the splits in order.
var Splits = []Split{Train, Dev, Test}

// Case is one test case: the arguments of a call to the entry function and the expected result,
// both as Python literals.
type Case struct {
	Args string `json:"args"` // e.g. "[3, 1, 2], 5", the text between the call's parentheses
	Want string `json:"want"` // e.g. "[1, 2, 3]"
}

// Task is one BugFix task: a module with one bug, the tests the agent may run, the stronger tests
// it never sees, and the reference fix.
type Task struct {
	ID         string `json:"id"`
	Split      Split  `json:"split"`
	Template   string `json:"template"`   // the function template the task was made from
	Kind       Kind   `json:"kind"`       // the kind of bug
	Difficulty int    `json:"difficulty"` // 1 (most inputs expose the bug) to 3 (few do)
	Module     string `json:"module"`     // module name; the file is Module + ".py"
	Entry      string `json:"entry"`      // the function the tests call
	BugLine    int    `json:"bug_line"`   // line of the buggy module where the fix applies
	Bug        string `json:"bug"`        // the mutation that made the bug, e.g. "< -> <="

	VisibleCases []Case `json:"visible_cases"`
	HiddenCases  []Case `json:"hidden_cases"`

	Buggy        string `json:"-"` // the module as the agent first sees it
	Fix          string `json:"-"` // the reference fix
	VisibleTests string `json:"-"` // test_visible.py
	HiddenTests  string `json:"-"` // test_hidden.py; never shown to the agent
}

// File names inside a task folder.
const (
	TaskFile        = "task.json"
	VisibleTestFile = "test_visible.py"
	HiddenTestFile  = "test_hidden.py"
	ReferenceDir    = "reference"
)

// ModuleFile is the file name of the task's module, e.g. "clamp.py".
func (t *Task) ModuleFile() string { return t.Module + ".py" }

// ErrNoTasks is LoadTasks's error for a folder that holds no task.
var ErrNoTasks = errors.New("gym: no tasks")

// LoadTasks reads every task under dir (dir/SPLIT/ID/task.json and its files), sorted by split
// then ID.
func LoadTasks(dir string) ([]*Task, error) {
	metas, err := filepath.Glob(filepath.Join(dir, "*", "*", TaskFile))
	if err != nil {
		return nil, err
	}
	if len(metas) == 0 {
		return nil, fmt.Errorf("%w under %s (expected SPLIT/ID/%s)", ErrNoTasks, dir, TaskFile)
	}
	var tasks []*Task
	for _, m := range metas {
		t, err := LoadTask(filepath.Dir(m))
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	order := map[Split]int{Train: 0, Dev: 1, Test: 2}
	sort.Slice(tasks, func(i, j int) bool {
		if tasks[i].Split != tasks[j].Split {
			return order[tasks[i].Split] < order[tasks[j].Split]
		}
		return tasks[i].ID < tasks[j].ID
	})
	return tasks, nil
}

// LoadTask reads one task folder.
func LoadTask(dir string) (*Task, error) {
	raw, err := os.ReadFile(filepath.Join(dir, TaskFile))
	if err != nil {
		return nil, fmt.Errorf("gym: reading task: %w", err)
	}
	t := &Task{}
	if err := json.Unmarshal(raw, t); err != nil {
		return nil, fmt.Errorf("gym: %s: %w", filepath.Join(dir, TaskFile), err)
	}
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", fmt.Errorf("gym: task %s: %w", t.ID, err)
		}
		return string(b), nil
	}
	if t.Buggy, err = read(t.ModuleFile()); err != nil {
		return nil, err
	}
	if t.Fix, err = read(filepath.Join(ReferenceDir, t.ModuleFile())); err != nil {
		return nil, err
	}
	if t.VisibleTests, err = read(VisibleTestFile); err != nil {
		return nil, err
	}
	if t.HiddenTests, err = read(HiddenTestFile); err != nil {
		return nil, err
	}
	return t, nil
}

// WriteTask writes a task folder dir/SPLIT/ID, replacing what is there.
func WriteTask(dir string, t *Task) error {
	td := filepath.Join(dir, string(t.Split), t.ID)
	if err := os.RemoveAll(td); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(td, ReferenceDir), 0o755); err != nil {
		return err
	}
	meta, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	files := map[string]string{
		TaskFile:        string(meta) + "\n",
		t.ModuleFile():  t.Buggy,
		VisibleTestFile: t.VisibleTests,
		HiddenTestFile:  t.HiddenTests,
		filepath.Join(ReferenceDir, t.ModuleFile()): t.Fix,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(td, name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("gym: writing task %s: %w", t.ID, err)
		}
	}
	return nil
}

// Filter returns the tasks of a split (all splits when split is empty) and, when kind is not
// empty, of that bug kind.
func Filter(tasks []*Task, split Split, kind Kind) []*Task {
	var out []*Task
	for _, t := range tasks {
		if (split == "" || t.Split == split) && (kind == "" || t.Kind == kind) {
			out = append(out, t)
		}
	}
	return out
}

// TestFile renders a self-contained test file for cases of a task's entry function. Run with
// plain python3 it prints one line per test and exits 1 if any failed; the gym's sandbox instead
// calls its test_* functions one by one.
func TestFile(title, module, entry string, cases []Case) string {
	s := fmt.Sprintf("\"\"\"%s\"\"\"\nfrom %s import %s\n\n\n", title, module, entry)
	s += "def check(call, got, want):\n    assert got == want, \"%s returned %r, expected %r\" % (call, got, want)\n"
	for i, c := range cases {
		call := fmt.Sprintf("%s(%s)", entry, c.Args)
		s += fmt.Sprintf("\n\ndef test_%d():\n    check(%q, %s, %s)\n", i+1, call, call, c.Want)
	}
	s += `

if __name__ == "__main__":
    import sys
    failed = 0
    for name, fn in list(globals().items()):
        if name.startswith("test_"):
            try:
                fn()
                print("PASS", name)
            except Exception as e:
                failed += 1
                print("FAIL", name, type(e).__name__, e)
    sys.exit(1 if failed else 0)
`
	return s
}
