package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/study"
)

// toyStudy is a study whose jobs take no time: its outcome on task i is a function of the arm,
// the seed and a file of its code, so a code change changes the data.
var toyStudy = study.Register(&study.Study{
	Chapter: "ch99", Name: "toy", Question: "does the change help?",
	Arms:   []study.Arm{{Name: "control", Change: "none"}, {Name: "plus", Change: "adds 1", Control: "control"}},
	Seeds:  []uint64{1, 2, 3},
	Budget: "none",
	Eval:   study.Eval{Tasks: "4 tasks", Episodes: 2, Streams: "none"},
	Code:   []string{"toy/*.txt"},
	Run: func(j study.Job) (*study.Result, error) {
		b, err := os.ReadFile(filepath.Join(j.Root, "toy", "code.txt"))
		if err != nil {
			return nil, err
		}
		res := &study.Result{Curves: map[string][]float64{"x": {float64(j.Seed)}}, Outcomes: map[string][][]float64{}}
		for i := range 4 {
			v := float64(len(b)*int(j.Seed) + i)
			if j.Arm == "plus" {
				v++
			}
			res.Tasks = append(res.Tasks, fmt.Sprint("t", i))
			res.Outcomes["score"] = append(res.Outcomes["score"], []float64{v, v})
			j.Report(i+1, 4)
		}
		return res, nil
	},
})

// studyCmd runs `agentrl study ARGS...` in this process and returns its output and error.
func studyCmd(args ...string) (string, error) {
	var out bytes.Buffer
	old := stderr
	stderr = &out
	defer func() { stderr = old }()
	root, _ := os.LookupEnv("AGENTRL_ROOT")
	var err error
	switch args[0] {
	case "list":
		err = studyList(root, args[1:], &out)
	case "run":
		err = studyRun(root, args[1:], &out)
	case "verify":
		err = studyVerify(root, args[1:], &out)
	}
	return out.String(), err
}

// The study layer end to end on the toy study: data missing, then run in job processes, fresh,
// stale after a code change and after a change of the declaration, resumed from finished jobs,
// run in shards, and verified.
func TestStudyLifecycle(t *testing.T) {
	root := t.TempDir()
	t.Setenv("AGENTRL_ROOT", root)
	os.MkdirAll(filepath.Join(root, "toy"), 0o755)
	code := filepath.Join(root, "toy", "code.txt")
	os.WriteFile(code, []byte("v1"), 0o644)
	old := jobCommand
	defer func() { jobCommand = old }()
	jobCommand = func(args ...string) (*exec.Cmd, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "AGENTRL_HELPER=1", "AGENTRL_HELPER_ARGS="+string(must(json.Marshal(args))))
		return cmd, nil
	}
	expect := func(args []string, wantErr bool, says string) string {
		t.Helper()
		out, err := studyCmd(args...)
		msg := out
		if err != nil {
			msg += err.Error()
		}
		if (err != nil) != wantErr || !strings.Contains(msg, says) {
			t.Fatalf("study %q: error %v (want an error: %v), want %q in:\n%s", args, err, wantErr, says, msg)
		}
		return msg
	}
	expect([]string{"list", "-check", "ch99/toy"}, true, "run `agentrl study run ch99/toy`")
	expect([]string{"run", "-j", "2", "ch99/toy"}, false, "ch99/toy: 6 jobs")
	d, err := study.Load(root, "ch99/toy")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Jobs) != 6 || d.Provenance.Files[0] != "toy/code.txt" || d.Job("plus", 3).Result.Outcomes["score"][1][0] != 2*3+1+1 {
		t.Fatalf("data: %+v", d)
	}
	c, err := d.Compare(study.Measure{Metric: "score"}, "control", "plus", 200, 1)
	if err != nil || c.Diff != 1 || c.Lo != 1 || c.Hi != 1 || !c.Detectable() {
		t.Fatalf("compare: %+v, %v", c, err)
	}
	expect([]string{"list", "-check", "ch99/toy"}, false, "fresh")
	expect([]string{"verify", "-sample", "2", "ch99/toy"}, false, "identical to the committed data")
	expect([]string{"verify", "-max-job", "1h", "ch99/toy"}, false, "identical to the committed data")
	expect([]string{"verify", "-max-job", "1ns", "ch99/toy"}, true, "no job of these studies took at most -max-job 1ns")

	os.WriteFile(code, []byte("v22"), 0o644)
	expect([]string{"list", "-check", "ch99/toy"}, true, "the code it runs changed")
	expect([]string{"verify", "ch99/toy"}, true, "not fresh")
	os.WriteFile(code, []byte("v1"), 0o644)
	toyStudy.Budget = "edited"
	expect([]string{"list", "-check", "ch99/toy"}, true, "its declaration changed")
	toyStudy.Budget = "none"
	expect([]string{"list", "-check", "ch99/toy"}, false, "fresh")

	expect([]string{"run", "ch99/toy"}, false, "its data is fresh, nothing to run")
	// Resume: the finished jobs are kept, so a second run runs none.
	os.Remove(toyStudy.Path(root))
	expect([]string{"run", "ch99/toy"}, false, "0 jobs to run")
	expect([]string{"list", "-check", "ch99/toy"}, false, "fresh")

	// Shards: each runs its share; the data is written once every job is there.
	work := t.TempDir()
	os.Remove(toyStudy.Path(root))
	expect([]string{"run", "-work", work, "-shard", "1/2", "ch99/toy"}, false, "3 of 6 jobs not run yet")
	expect([]string{"run", "-work", work, "-shard", "2/2", "ch99/toy"}, false, "ch99/toy: 6 jobs")
	expect([]string{"run", "-force", "-work", work, "ch99/toy"}, false, "0 jobs to run")
	expect([]string{"run", "-shard", "3/2", "ch99/toy"}, true, "want I/N")
	expect([]string{"run", "ch98"}, true, `no study "ch98"`)

	// Data no study declares is refused.
	os.MkdirAll(filepath.Join(root, "notebooks", "studies", "ch99"), 0o755)
	os.WriteFile(filepath.Join(root, "notebooks", "studies", "ch99", "gone.json"), []byte("{}"), 0o644)
	expect([]string{"list", "-check"}, true, "notebooks/studies/ch99/gone.json")
}
