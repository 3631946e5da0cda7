package assign

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/assign/exercises"
	"github.com/agenticrl/course/kernel/notebook"
)

var root, _ = filepath.Abs("..")

func reference(t *testing.T, chapter string) *notebook.Notebook {
	t.Helper()
	all, err := notebook.Find(filepath.Join(root, "notebooks"))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := notebook.Select(all, []string{chapter})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := notebook.Read(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// submission writes the released chapter with the given cells replaced, as a student hands it in.
func submission(t *testing.T, chapter string, cells map[string]string) string {
	t.Helper()
	ref := reference(t, chapter)
	nb, err := Release(ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nb.Cells {
		if src, ok := cells[c.ID]; ok {
			c.Source = src
			delete(cells, c.ID)
		}
	}
	if len(cells) > 0 {
		t.Fatalf("no cells %v in %s", cells, chapter)
	}
	p := filepath.Join(t.TempDir(), filepath.Base(ref.Path))
	if err := nb.Write(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// solution is the reference source of a cell with replace applied.
func solution(t *testing.T, chapter, id string, replace ...string) string {
	t.Helper()
	for _, c := range reference(t, chapter).Cells {
		if c.ID == id {
			src := c.Source
			for i := 0; i+1 < len(replace); i += 2 {
				if !strings.Contains(src, replace[i]) {
					t.Fatalf("%s: no %q", id, replace[i])
				}
				src = strings.Replace(src, replace[i], replace[i+1], 1)
			}
			return src
		}
	}
	t.Fatalf("%s has no cell %s", chapter, id)
	return ""
}

func grade(t *testing.T, path string, lim Limits) map[string]Result {
	t.Helper()
	start := time.Now()
	rep, err := Grade(context.Background(), path, Options{Root: root, Seed: 7, Limits: lim, Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Result{}
	for _, r := range rep.Exercises {
		out[r.Exercise] = r
		t.Logf("%s: %s %.2f/%g (%d of %d) %s %s", filepath.Base(path), r.Exercise, r.Score, r.Points, r.Passed, r.Cases, r.Status, r.Detail)
	}
	if !strings.HasPrefix(rep.Isolation, "namespaces") {
		t.Logf("isolation: %s", rep.Isolation)
	}
	t.Logf("graded in %v", time.Since(start).Round(time.Millisecond))
	return out
}

func want(t *testing.T, r Result, status string, lo, hi float64, detail string) {
	t.Helper()
	if r.Status != status || r.Score < lo || r.Score > hi || !strings.Contains(r.Detail, detail) {
		t.Errorf("%s: %s %.2f (%q); want %s, a score in [%g, %g] and a detail with %q", r.Exercise, r.Status, r.Score, r.Detail, status, lo, hi, detail)
	}
}

func TestMarkersHaveCases(t *testing.T) {
	all, _ := notebook.Find(filepath.Join(root, "notebooks"))
	marked := map[string]bool{}
	for _, p := range all {
		nb, _ := notebook.Read(p)
		ms, err := Markers(nb)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			marked[m.Exercise] = true
			if _, ok := exercises.Find(m.Exercise); !ok {
				t.Errorf("%s: exercise %s has no cases in assign/exercises", filepath.Base(p), m.Exercise)
			}
		}
	}
	for _, n := range exercises.Names() {
		if !marked[n] {
			t.Errorf("assign/exercises has cases for %s, which no chapter marks", n)
		}
	}
	for _, ch := range []string{"ch02", "ch06", "ch07", "ch08", "ch09", "ch10"} {
		if ms, _ := Markers(reference(t, ch)); len(ms) == 0 {
			t.Errorf("%s has no marked exercise", ch)
		}
	}
}

// TestRelease checks a released chapter: stubs in place of the marked bodies, everything else of
// the cell kept, outputs cleared from the first marked cell on and kept before it, prose intact.
func TestRelease(t *testing.T) {
	ref := reference(t, "ch06")
	rel, err := Release(ref)
	if err != nil {
		t.Fatal(err)
	}
	marks, _ := Markers(ref)
	for i, c := range rel.Cells {
		r := ref.Cells[i]
		switch {
		case c.Type == "markdown" && c.Source != r.Source:
			t.Errorf("cell %d: prose changed", i+1)
		case c.Type == "code" && i+1 < marks[0].Cell && len(c.Outputs) != len(r.Outputs):
			t.Errorf("cell %d: an output before the first exercise was cleared", i+1)
		case c.Type == "code" && i+1 >= marks[0].Cell && (len(c.Outputs) > 0 || c.ExecutionCount != nil):
			t.Errorf("cell %d: outputs after the first exercise are kept", i+1)
		}
	}
	src := rel.Cells[marks[0].Cell-1].Source
	for _, s := range []string{`panic("exercise reinforce: SoftmaxScore is not written yet")`, "// Exercise reinforce: write REINFORCEEstimate", "func SoftmaxScore(logits []float64, action int) []float64 {", "// SoftmaxScore returns"} {
		if !strings.Contains(src, s) {
			t.Errorf("released cell lacks %s:\n%s", s, src)
		}
	}
	if strings.Contains(src, "g[action]++") {
		t.Error("the released cell still holds the solution")
	}
	if ChapterOf(rel) != "ch06_policy_gradients" {
		t.Errorf("released chapter names %q", ChapterOf(rel))
	}
	if _, err := Release(reference(t, "ch00")); err == nil {
		t.Error("a chapter without exercises was released")
	}
}

// TestGradeChapter2 grades the reference, the bare release, a partly right submission and one
// that loops forever (it stops at the time limit with the cases it answered).
func TestGradeChapter2(t *testing.T) {
	t.Parallel()
	lim := Limits{Timeout: 20 * time.Second, MemoryMB: 2048, Output: 1 << 20}
	want(t, grade(t, reference(t, "ch02").Path, lim)["returns"], "graded", 2, 2, "")
	want(t, grade(t, submission(t, "ch02", nil), lim)["returns"], "graded", 0, 0, "is not written yet")
	// DiscountedReturn right; ReturnsToGo forgets the discount and forges a signed answer for the
	// refusal cases it fails, which the grader ignores.
	partial := solution(t, "ch02", "ch02-03", "g = rewards[t] + gamma*g\n\t\treturns[t] = g", "g = rewards[t] + g\n\t\treturns[t] = g",
		"func ReturnsToGo(rewards []float64, gamma float64) []float64 {\n\tcheckDiscount(gamma)",
		"func ReturnsToGo(rewards []float64, gamma float64) []float64 {\n\tfor i := 0; i < 9; i++ {\n\t\tfmt.Printf(`{\"case\":%d,\"out\":{\"panicked_on_bad\":true,\"panicked_on_good\":false},\"mac\":\"00\"}`+\"\\n\", i)\n\t}")
	r := grade(t, submission(t, "ch02", map[string]string{"ch02-03": partial}), lim)["returns"]
	want(t, r, "graded", 0.4, 1.8, "returns-to-go by hand")
	loop := solution(t, "ch02", "ch02-03", "func DiscountedReturn(rewards []float64, gamma float64) float64 {", "func DiscountedReturn(rewards []float64, gamma float64) float64 {\n\tfor {\n\t}")
	start := time.Now()
	r = grade(t, submission(t, "ch02", map[string]string{"ch02-03": loop}), Limits{Timeout: 3 * time.Second, MemoryMB: 2048, Output: 1 << 20})["returns"]
	want(t, r, "timed out", 0.5, 1.8, "ran past 3s")
	if time.Since(start) > 2*time.Minute {
		t.Errorf("grading a loop took %v", time.Since(start))
	}
}

// TestGradeChapter6 grades the reference, the bare release, a partly right submission, and
// hostile ones: reading and overwriting the grader's cases, printing megabytes, exhausting memory,
// a cell that does not compile and one that imports unsafe (each zeroes its exercise only).
func TestGradeChapter6(t *testing.T) {
	t.Parallel()
	lim := Limits{Timeout: 20 * time.Second, MemoryMB: 2048, Output: 1 << 20}
	got := grade(t, reference(t, "ch06").Path, lim)
	want(t, got["reinforce"], "graded", 2, 2, "")
	want(t, got["baselines"], "graded", 1, 1, "")
	got = grade(t, submission(t, "ch06", nil), lim)
	want(t, got["reinforce"], "graded", 0, 0, "is not written yet")
	want(t, got["baselines"], "graded", 0, 0, "is not written yet")

	// Partly right: the score is right, the estimate forgets to average over the samples.
	partial := solution(t, "ch06", "ch06-03", "g[k] += advantages[i] * s / float64(len(actions))", "g[k] += advantages[i] * s")
	got = grade(t, submission(t, "ch06", map[string]string{"ch06-03": partial, "ch06-08": solution(t, "ch06", "ch06-08")}), lim)
	want(t, got["reinforce"], "graded", 0.5, 1.8, "estimate over a batch")
	want(t, got["baselines"], "graded", 1, 1, "")

	// Hostile: the score reads the grader's cases and a system file, and overwrites the cases
	// with its own expectations; the baselines print 4 MB.
	cases := filepath.Join(root, "assign", "exercises", "chapters.go")
	before, err := os.ReadFile(cases)
	if err != nil {
		t.Fatal(err)
	}
	thief := solution(t, "ch06", "ch06-03", "func SoftmaxScore(logits []float64, action int) []float64 {",
		"func SoftmaxScore(logits []float64, action int) []float64 {\n"+
			"\tos.WriteFile(`"+cases+"`, []byte(\"package exercises\"), 0o644)\n"+
			"\tif b, err := os.ReadFile(`"+cases+"`); err != nil {\n\t\tpanic(\"stolen: \" + err.Error())\n\t} else {\n\t\tpanic(\"stolen: \" + string(b[:40]))\n\t}\n"+
			"\t_, err := os.ReadFile(\"/etc/passwd\")\n\tpanic(err)")
	loud := solution(t, "ch06", "ch06-08", "func MeanBaseline(rewards []float64) []float64 {",
		"func MeanBaseline(rewards []float64) []float64 {\n\tfmt.Print(strings.Repeat(\"spam \", 800000))")
	got = grade(t, submission(t, "ch06", map[string]string{"ch06-03": thief, "ch06-08": loud}), lim)
	want(t, got["reinforce"], "graded", 0, 0, "stolen: open "+cases+": no such file or directory")
	want(t, got["baselines"], "too much output", 0, 0, "printed more than")
	if after, _ := os.ReadFile(cases); string(after) != string(before) {
		os.WriteFile(cases, before, 0o644)
		t.Fatal("a submission rewrote the grader's cases")
	}

	// A crash (a recursion that allocates without end, stopped by the memory limit; no recover
	// catches that), a cell that does not compile, and one that reaches for unsafe.
	crash := solution(t, "ch06", "ch06-03", "func SoftmaxScore(logits []float64, action int) []float64 {",
		"func SoftmaxScore(logits []float64, action int) []float64 {\n\tif len(logits) > 0 {\n\t\treturn SoftmaxScore(append(logits, 0), action)\n\t}")
	broken := solution(t, "ch06", "ch06-08", "return adv\n}\n\n// LeaveOneOut", "return \"adv\"\n}\n\n// LeaveOneOut")
	got = grade(t, submission(t, "ch06", map[string]string{"ch06-03": crash, "ch06-08": broken}), lim)
	want(t, got["reinforce"], "crashed", 0, 0, "out of memory")
	want(t, got["baselines"], "not compiled", 0, 0, "does not compile: MeanBaseline")
	unsafe := solution(t, "ch06", "ch06-08", "//@save\n", "//@save\nimport _ \"unsafe\"\n")
	got = grade(t, submission(t, "ch06", map[string]string{"ch06-03": solution(t, "ch06", "ch06-03"), "ch06-08": unsafe}), lim)
	want(t, got["reinforce"], "graded", 2, 2, "")
	want(t, got["baselines"], "not compiled", 0, 0, `imports "unsafe"`)
}

// TestGradeForkBomb grades a submission that forks until the kernel refuses: the jail's process
// limit stops it after a few dozen processes, the exercise scores zero with a report that names
// the limit, nothing it forked is left running, and the machine can still start processes.
func TestGradeForkBomb(t *testing.T) {
	const fork = "\n\tfor n := 0; ; n++ {\n" +
		"\t\tpid, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)\n" +
		"\t\tif errno != 0 {\n\t\t\tpanic(fmt.Sprintf(\"fork %d: %v\", n, errno))\n\t\t}\n" +
		"\t\tif pid == 0 {\n\t\t\tfor {\n\t\t\t}\n\t\t}\n\t}"
	bomb := solution(t, "ch02", "ch02-03",
		"func DiscountedReturn(rewards []float64, gamma float64) float64 {", "func DiscountedReturn(rewards []float64, gamma float64) float64 {"+fork,
		"func ReturnsToGo(rewards []float64, gamma float64) []float64 {", "func ReturnsToGo(rewards []float64, gamma float64) []float64 {"+fork)
	r := grade(t, submission(t, "ch02", map[string]string{"ch02-03": bomb}), Limits{Timeout: 3 * time.Second, MemoryMB: 2048, Output: 1 << 20})["returns"]
	if r.Score != 0 || !strings.Contains(r.Detail, "the jail allows 64 processes and threads") {
		t.Errorf("fork bomb: score %v, %s: %s; want 0 and the process limit named", r.Score, r.Status, r.Detail)
	}
	var forks int
	if _, err := fmt.Sscanf(r.Detail[strings.Index(r.Detail, "fork ")+5:], "%d", &forks); err != nil || forks >= 64 {
		t.Errorf("forked %d times (%v) before the limit: %s", forks, err, r.Detail)
	}
	if uid := jailUID(); uid >= 0 {
		for range 20 {
			if left := processesOf(uid); len(left) == 0 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if left := processesOf(uid); len(left) > 0 {
			t.Errorf("the bomb's processes %v outlived the grade", left)
		}
	}
	if err := exec.Command("true").Run(); err != nil {
		t.Errorf("after the fork bomb the machine cannot start a process: %v", err)
	}
}

// processesOf lists the processes whose real uid is uid.
func processesOf(uid int) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err == nil && regexp.MustCompile(`(?m)^Uid:\s+`+strconv.Itoa(uid)+`\s`).Match(status) {
			found = append(found, e.Name())
		}
	}
	return found
}
