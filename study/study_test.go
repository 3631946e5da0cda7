package study

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func valid() *Study {
	return &Study{Chapter: "ch99", Name: "t", Arms: []Arm{{Name: "a"}, {Name: "b", Control: "a"}},
		Seeds: []uint64{1, 2}, Eval: Eval{Tasks: "held", Episodes: 1}, Code: []string{"x/*.go"},
		Run: func(Job) (*Result, error) { return nil, nil }}
}

// Validate refuses each kind of broken declaration, naming it.
func TestValidate(t *testing.T) {
	if err := valid().Validate(); err != nil {
		t.Fatal(err)
	}
	curves := valid() // a study of training curves alone: no held-out tasks, no episodes
	curves.Eval = Eval{}
	if err := curves.Validate(); err != nil {
		t.Fatalf("a study without evaluation: %v", err)
	}
	for says, edit := range map[string]func(*Study){
		"without slashes":           func(s *Study) { s.Name = "a/b" },
		"not an earlier arm":        func(s *Study) { s.Arms[1].Control = "c" },
		"declared twice":            func(s *Study) { s.Arms[1] = Arm{Name: "a", Control: "a"} },
		"exactly one control arm":   func(s *Study) { s.Arms = append(s.Arms, Arm{Name: "c"}) },
		"a seed is listed twice":    func(s *Study) { s.Seeds = []uint64{3, 3} },
		"no arms or no seeds":       func(s *Study) { s.Seeds = nil },
		"episodes per task":         func(s *Study) { s.Eval.Episodes = 0 },
		"held-out tasks":            func(s *Study) { s.Eval.Tasks = "" },
		"code globs and a Run func": func(s *Study) { s.Run = nil },
	} {
		s := valid()
		edit(s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), strings.Fields(says)[0]) {
			t.Errorf("%s: got %v", says, err)
		}
	}
}

// LibraryCode covers exactly the chapters up to the study's, and the hash follows the files'
// contents but not the Run function or test files.
func TestLibraryCodeAndHash(t *testing.T) {
	g := LibraryCode("ch13")
	if g[0] != "agentrl/ch0[0-9]_*.go" || g[1] != "agentrl/ch1[0-3]_*.go" || !slices.Contains(g, "go.sum") {
		t.Fatalf("LibraryCode(ch13) = %v", g)
	}
	if g := LibraryCode("ch09"); g[0] != "agentrl/ch0[0-9]_*.go" || strings.HasPrefix(g[1], "agentrl/") {
		t.Fatalf("LibraryCode(ch09) = %v", g)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "x", "d"), 0o755)
	os.WriteFile(filepath.Join(root, "x", "a.go"), []byte("package x"), 0o644)
	os.WriteFile(filepath.Join(root, "x", "a_test.go"), []byte("1"), 0o644)
	os.WriteFile(filepath.Join(root, "x", "d", "f.json"), []byte("1"), 0o644)
	s := valid()
	s.Code = []string{"x/*.go", "x/d/**"}
	files, err := s.CodeFiles(root)
	if err != nil || !slices.Equal(files, []string{"x/a.go", "x/d/f.json"}) {
		t.Fatalf("CodeFiles = %v, %v", files, err)
	}
	h1, _ := s.CodeHash(root)
	os.WriteFile(filepath.Join(root, "x", "a_test.go"), []byte("2"), 0o644)
	if h, _ := s.CodeHash(root); h != h1 {
		t.Error("a test file changed the code hash")
	}
	os.WriteFile(filepath.Join(root, "x", "a.go"), []byte("package x\n\nvar A = 1\n\n// F does it.\nfunc F() int { return A }\n"), 0o644)
	h1, _ = s.CodeHash(root)
	os.WriteFile(filepath.Join(root, "x", "a.go"), []byte("package x\n\n// F does it, now said otherwise.\nfunc F() int {\n\treturn A\n}\n\nvar A = 1\n"), 0o644)
	if h, err := s.CodeHash(root); h != h1 || err != nil {
		t.Errorf("a comment, the layout and the order of declarations changed the code hash (%v)", err)
	}
	os.WriteFile(filepath.Join(root, "x", "a.go"), []byte("package x\n\nvar A = 2\n\nfunc F() int { return A }\n"), 0o644)
	if h, _ := s.CodeHash(root); h == h1 {
		t.Error("a changed constant left the code hash as it was")
	}
	h1, _ = s.CodeHash(root)
	os.WriteFile(filepath.Join(root, "x", "d", "f.json"), []byte("2"), 0o644)
	if h, _ := s.CodeHash(root); h == h1 {
		t.Error("a changed file left the code hash as it was")
	}
	d1 := s.DefinitionHash()
	s.Run = func(Job) (*Result, error) { return &Result{}, nil }
	if s.DefinitionHash() != d1 {
		t.Error("the Run function entered the definition hash")
	}
	s.Seeds = []uint64{1, 3}
	if s.DefinitionHash() == d1 {
		t.Error("new seeds left the definition hash as it was")
	}
	s.Code = append(s.Code, "y/*.go")
	if _, err := s.CodeFiles(root); err == nil || !strings.Contains(err.Error(), "matches no file") {
		t.Errorf("a glob that matches nothing: %v", err)
	}
}

// Compare pairs task by task within each seed: a constant shift has a zero-width interval, a
// selection (Where) leaves out episodes and cells, and an arm that is noise around the control
// gets an interval that holds 0.
func TestCompare(t *testing.T) {
	s := valid()
	s.Seeds = []uint64{1, 2, 3}
	d := &Data{Study: s}
	for _, seed := range s.Seeds {
		for k, arm := range []string{"a", "b"} {
			r := &Result{Outcomes: map[string][][]float64{}, Curves: map[string][]float64{
				"c": {float64(seed), 2*float64(k) + float64(seed), 2*float64(k) + 3*float64(seed)}}}
			for task := range 5 {
				base := float64(task) + 10*float64(seed)
				r.Outcomes["score"] = append(r.Outcomes["score"], []float64{base + float64(k), base + float64(k) + 100})
				r.Outcomes["first"] = append(r.Outcomes["first"], []float64{1, 0})
				noise := 0.0
				if k == 1 {
					noise = float64((task*7+int(seed)*3)%5) - 2
				}
				r.Outcomes["noisy"] = append(r.Outcomes["noisy"], []float64{base + noise})
			}
			d.Jobs = append(d.Jobs, JobRecord{Arm: arm, Seed: seed, Result: r})
		}
	}
	c, err := d.Compare(Measure{Metric: "score"}, "a", "b", 500, 1)
	if err != nil || c.Diff != 1 || c.Lo != 1 || c.Hi != 1 || c.Seeds != 3 || c.Tasks != 5 {
		t.Fatalf("shift: %+v %v", c, err)
	}
	c, err = d.Compare(Measure{Metric: "score", Where: "first", Is: 1}, "a", "b", 500, 1)
	if err != nil || math.Abs(c.Control0-22) > 1e-9 || c.Diff != 1 {
		t.Fatalf("where: %+v %v", c, err)
	}
	c, err = d.Compare(Measure{Metric: "noisy"}, "a", "b", 2000, 1)
	if err != nil || c.Detectable() || !(c.Lo < 0 && c.Hi > 0) || !strings.Contains(c.String(), "not detectable") {
		t.Fatalf("noise: %+v %v", c, err)
	}
	c, err = d.CompareCurve("c", "a", "b", 1, 3, 500, 1)
	if err != nil || c.Diff != 2 || c.Lo != 2 || c.Hi != 2 || c.Tasks != 0 || !strings.Contains(c.String(), "(3 seeds)") {
		t.Fatalf("curve: %+v %v", c, err)
	}
	// Arm b's curve at seed 2 is {2, 4, 8}: its mean over updates 1-2 is 6.
	if m, err := d.CurveMeans("b", "c", 1, 3); err != nil || len(m) != 3 || len(m[1]) != 1 || m[1][0] != 6 {
		t.Fatalf("curve means: %v %v", m, err)
	}
	// Arm a's scores at seed 1 have task means 60 + task, tasks 0-4: mean 62, standard deviation
	// √2.5 over 5 tasks. Where first = 0, only the +100 episodes count: arm b at seed 3 has
	// 131 + task.
	means, errs, err := d.SeedMeans("a", Measure{Metric: "score"})
	if err != nil || len(means) != 3 || math.Abs(means[0]-62) > 1e-9 || math.Abs(errs[0]-math.Sqrt(2.5/5)) > 1e-9 {
		t.Fatalf("seed means: %v %v %v", means, errs, err)
	}
	if means, _, err := d.SeedMeans("b", Measure{Metric: "score", Where: "first", Is: 0}); err != nil || math.Abs(means[2]-133) > 1e-9 {
		t.Fatalf("seed means where: %v %v", means, err)
	}
	if got := Spread("%.2f", []float64{1, 2, 3}); got != "2.00 ± 1.00" {
		t.Errorf("Spread = %q, want 2.00 ± 1.00", got)
	}
	if _, err := d.CompareCurve("c", "a", "b", 2, 4, 10, 1); err == nil {
		t.Error("updates past the curve's end gave no error")
	}
	if _, err := d.Compare(Measure{Metric: "nope"}, "a", "b", 10, 1); err == nil {
		t.Error("an unknown metric gave no error")
	}
}

// In the package that declares Run, the hash follows only what Run can reach: a declaration Run
// does not use (a later study added to the same file) leaves it as it was; an edit to a function,
// a constant or a method of a type that Run uses changes it. The temporary package is named after
// this test's own package, and declares valid, which holds Run.
func TestCodeHashReachable(t *testing.T) {
	if pkg, name := funcName(valid().Run); pkg != "study" || name != "valid" {
		t.Fatalf("funcName of a closure in valid = %q, %q", pkg, name)
	}
	if _, name := funcName((&Data{}).Job); name != "Data" {
		t.Fatalf("funcName of a method value = %q", name)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "x"), 0o755)
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(root, "x", name), []byte("package study\n\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const (
		run    = "func valid() int { var t T; return helper() + t.M() }\n"
		helper = "func helper() int { return K }\n\nconst K = 1\n"
		typ    = "type T struct{}\n\nfunc (T) M() int { return 2 }\n"
	)
	write("a.go", run+helper)
	write("b.go", typ+"func unused() int { return 3 }\n")
	s := valid()
	h0, err := s.CodeHash(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what    string
		a, b    string
		changes bool
	}{
		{"an unreachable function edited", run + helper, typ + "func unused() int { return 4 }\n", false},
		{"a declaration added", run + helper, typ + "func unused() int { return 3 }\n\nvar Later = 5\n", false},
		{"a declaration moved to another file", run, typ + helper + "func unused() int { return 3 }\n", false},
		{"a reachable constant edited", run + "func helper() int { return K }\n\nconst K = 2\n", typ + "func unused() int { return 3 }\n", true},
		{"a method of a reachable type edited", run + helper, "type T struct{}\n\nfunc (T) M() int { return 7 }\nfunc unused() int { return 3 }\n", true},
		{"an init function edited", run + helper, typ + "func unused() int { return 3 }\n\nfunc init() { println() }\n", true},
	} {
		write("a.go", c.a)
		write("b.go", c.b)
		h, err := s.CodeHash(root)
		if err != nil || (h != h0) != c.changes {
			t.Errorf("%s: hash changed %v, want %v (%v)", c.what, h != h0, c.changes, err)
		}
	}
}
