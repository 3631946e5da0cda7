package gym

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const python = "/usr/bin/python3"

func needPython(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s missing: run `make setup`", python)
	}
}

// TestPlainPython checks every task as a new user would, without the gym: copy the task folder,
// put the reference fix in place of the buggy module and run the hidden tests with plain
// python3 as a script (they must all pass); the buggy module must fail its visible tests. To
// stay fast, one python3 process runs every task's script in turn (runpy, as `python3 FILE`
// does); a few tasks are also run as separate `python3 test_hidden.py` commands.
func TestPlainPython(t *testing.T) {
	needPython(t)
	type job struct {
		ID, Dir, Module, Script string
		Want                    int // tests that must pass; -1: the script must fail
	}
	var jobs []job
	for i, task := range tasks(t) {
		src := filepath.Join(datasetDir, string(task.Split), task.ID)
		for _, variant := range []struct {
			module, script string
			want           int
		}{
			{filepath.Join(ReferenceDir, task.ModuleFile()), HiddenTestFile, len(task.HiddenCases)},
			{task.ModuleFile(), VisibleTestFile, -1},
		} {
			dir := t.TempDir()
			for _, f := range []string{VisibleTestFile, HiddenTestFile} {
				copyFile(t, filepath.Join(src, f), filepath.Join(dir, f))
			}
			copyFile(t, filepath.Join(src, variant.module), filepath.Join(dir, task.ModuleFile()))
			jobs = append(jobs, job{task.ID, dir, task.Module, variant.script, variant.want})
			if i%70 == 0 {
				cmd := exec.Command(python, variant.script)
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				if (variant.want >= 0) != (err == nil) {
					t.Errorf("%s: python3 %s: %v\n%s", task.ID, variant.script, err, out)
				}
			}
		}
	}
	in, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	script := `import contextlib, io, json, os, runpy, sys
res = []
for job in json.load(sys.stdin):
    os.chdir(job["Dir"])
    sys.path.insert(0, job["Dir"])
    sys.modules.pop(job["Module"], None)
    out, code = io.StringIO(), 0
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(job["Script"], run_name="__main__")
    except SystemExit as e:
        code = e.code
    sys.path.pop(0)
    res.append([code, out.getvalue()])
print(json.dumps(res))`
	cmd := exec.Command(python, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var res [][2]any
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(jobs) {
		t.Fatalf("%v: %d results for %d jobs", err, len(res), len(jobs))
	}
	for i, j := range jobs {
		code, _ := res[i][0].(float64)
		text, _ := res[i][1].(string)
		if j.Want >= 0 && (code != 0 || strings.Count(text, "PASS test_") != j.Want) {
			t.Errorf("%s: reference fix fails plain python3 %s (exit %v):\n%s", j.ID, j.Script, code, text)
		}
		if j.Want < 0 && (code != 1 || !strings.Contains(text, "FAIL test_")) {
			t.Errorf("%s: buggy module passes plain python3 %s:\n%s", j.ID, j.Script, text)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidate is `agentrl gym validate` as a test.
func TestValidate(t *testing.T) {
	v, err := Validate(pool(t), tasks(t))
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() {
		var b strings.Builder
		v.Print(&b)
		t.Fatal(b.String())
	}
	c := Counts(tasks(t))
	for _, s := range Splits {
		if c[s][""] == 0 {
			t.Errorf("split %s is empty", s)
		}
	}
	for _, k := range Kinds {
		if c[Train][k]+c[Dev][k]+c[Test][k] == 0 {
			t.Errorf("no task of kind %s", k)
		}
	}
}

// TestMenuCompiles compiles every candidate edit of every buggy module and reference fix with
// python3: the menu must only offer valid Python.
func TestMenuCompiles(t *testing.T) {
	needPython(t)
	var sources []string
	for _, task := range tasks(t) {
		for _, src := range []string{task.Buggy, task.Fix} {
			lines := SplitLines(src)
			for _, edits := range Menu(src) {
				for _, e := range edits {
					sources = append(sources, JoinLines(e.Apply(lines)))
				}
			}
		}
	}
	in, err := json.Marshal(sources)
	if err != nil {
		t.Fatal(err)
	}
	script := `import json, sys
bad = []
for i, s in enumerate(json.load(sys.stdin)):
    try:
        compile(s, "m.py", "exec")
    except SyntaxError as e:
        bad.append("%s\n--- %s" % (s, e))
print(json.dumps(bad))`
	cmd := exec.Command(python, "-I", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	if err := json.Unmarshal(out, &bad); err != nil {
		t.Fatal(err)
	}
	for i, b := range bad {
		if i < 5 {
			t.Errorf("menu edit does not compile:\n%s", b)
		}
	}
	if len(bad) > 0 || len(sources) == 0 {
		t.Fatalf("%d of %d menu edits do not compile", len(bad), len(sources))
	}
	t.Logf("%d menu edits over %d modules compile", len(sources), 2*len(tasks(t)))
}

// TestSplitsKeepTemplatesApart checks that held-out tasks are unseen code.
func TestSplitsKeepTemplatesApart(t *testing.T) {
	splitOf := map[string]Split{}
	for _, task := range tasks(t) {
		if s, ok := splitOf[task.Template]; ok && s != task.Split {
			t.Errorf("template %s in %s and %s", task.Template, s, task.Split)
		}
		splitOf[task.Template] = task.Split
	}
}
