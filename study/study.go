package study

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Arm is one arm of a study: a named change against a named control arm. The control arm itself
// has no Control.
type Arm struct {
	Name    string `json:"name"`
	Change  string `json:"change"`
	Control string `json:"control,omitempty"`
}

// Eval is a study's evaluation design.
type Eval struct {
	Tasks    string `json:"tasks"`    // the held-out tasks, in words ("" with Episodes 0: no evaluation)
	Episodes int    `json:"episodes"` // episodes per task, for every arm and seed
	Streams  string `json:"streams"`  // how the arms share sampling streams, so outcomes pair up
}

// Study is an experiment declared in code. Everything but Run is its declaration, which the data
// file records and whose hash decides, with the code's, whether the data is fresh.
type Study struct {
	Chapter  string   `json:"chapter"`  // "ch09"
	Name     string   `json:"name"`     // "length": the study is ch09/length
	Question string   `json:"question"` // what the study answers
	Arms     []Arm    `json:"arms"`
	Seeds    []uint64 `json:"seeds"`
	Budget   string   `json:"budget"` // the training of one job, in words
	Eval     Eval     `json:"eval"`
	// Code lists the files the study runs, as globs relative to the checkout's root ("**" matches
	// any path below a folder); tests and junk (hidden files, Python caches, editor backups) are
	// left out. Their paths and contents make the code hash.
	Code []string `json:"code"`
	// Run trains and evaluates one arm from one seed. It must be deterministic: the same job gives
	// the same Result on every machine (verify re-runs a sample and compares).
	Run func(j Job) (*Result, error) `json:"-"`
}

// Job is one arm of a study from one seed.
type Job struct {
	Arm  string
	Seed uint64
	Root string // the checkout's root
	// Progress, when set, is told how far the job is (done of total steps); jobs report it.
	Progress func(done, total int) `json:"-"`
}

// Key names the job in file names and messages: "ARM/seedN".
func (j Job) Key() string { return fmt.Sprintf("%s/seed%d", j.Arm, j.Seed) }

// Result is what one job measured.
type Result struct {
	// Curves are training series, one value per update, by name.
	Curves map[string][]float64 `json:"curves"`
	// Tasks are the evaluation's task ids, in order; Outcomes[metric][i][e] is the metric of
	// episode e on task i.
	Tasks    []string               `json:"tasks"`
	Outcomes map[string][][]float64 `json:"outcomes"`
	// Notes are any other numbers the job reports (a count of sandbox backstops, say).
	Notes map[string]float64 `json:"notes,omitempty"`
}

// ID is the study's name as commands take it: "ch09/length".
func (s *Study) ID() string { return s.Chapter + "/" + s.Name }

// Jobs lists the study's jobs, arm by arm and seed by seed.
func (s *Study) Jobs() []Job {
	var out []Job
	for _, a := range s.Arms {
		for _, seed := range s.Seeds {
			out = append(out, Job{Arm: a.Name, Seed: seed})
		}
	}
	return out
}

// Validate checks the declaration: a name, at least one arm and seed, every arm's control an
// earlier arm, exactly one arm without a control, episodes per task, code globs and Run.
func (s *Study) Validate() error {
	if s.Chapter == "" || s.Name == "" || strings.ContainsAny(s.Chapter+s.Name, "/ \\") {
		return fmt.Errorf("study %q: want a chapter and a name without slashes or spaces", s.ID())
	}
	if len(s.Arms) == 0 || len(s.Seeds) == 0 {
		return fmt.Errorf("study %s: no arms or no seeds", s.ID())
	}
	seen := map[string]bool{}
	controls := 0
	for _, a := range s.Arms {
		switch {
		case a.Name == "" || strings.ContainsAny(a.Name, "/\\ "):
			return fmt.Errorf("study %s: arm %q: want a name without slashes or spaces", s.ID(), a.Name)
		case seen[a.Name]:
			return fmt.Errorf("study %s: arm %s declared twice", s.ID(), a.Name)
		case a.Control == "":
			controls++
		case !seen[a.Control]:
			return fmt.Errorf("study %s: arm %s: its control %q is not an earlier arm", s.ID(), a.Name, a.Control)
		}
		seen[a.Name] = true
	}
	if controls != 1 {
		return fmt.Errorf("study %s: want exactly one control arm (an arm without a control), have %d", s.ID(), controls)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(s.Seeds)))) != len(s.Seeds) {
		return fmt.Errorf("study %s: a seed is listed twice", s.ID())
	}
	if s.Eval.Episodes < 0 || (s.Eval.Episodes == 0) != (s.Eval.Tasks == "") {
		return fmt.Errorf("study %s: want held-out tasks and episodes per task, or neither (a study of training curves alone)", s.ID())
	}
	if len(s.Code) == 0 || s.Run == nil {
		return fmt.Errorf("study %s: want code globs and a Run function", s.ID())
	}
	return nil
}

var (
	mu       sync.Mutex
	registry = map[string]*Study{}
)

// Register adds s to the studies that commands and checks know, and returns it, so that a
// declaration reads `var X = study.Register(...)`; it panics on an invalid declaration. A second
// declaration of the same ID replaces the first: a notebook's //@save cell declares again what
// the library (generated from that cell) declared, and in the notebook's process its own copy,
// edited or not, is the study.
func Register(s *Study) *Study {
	if err := s.Validate(); err != nil {
		panic(err)
	}
	mu.Lock()
	defer mu.Unlock()
	registry[s.ID()] = s
	return s
}

// All returns every registered study, by ID.
func All() []*Study {
	mu.Lock()
	defer mu.Unlock()
	out := make([]*Study, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// Lookup returns the study with that ID.
func Lookup(id string) (*Study, bool) {
	mu.Lock()
	defer mu.Unlock()
	s, ok := registry[id]
	return s, ok
}

// DefinitionHash is the hash of the declaration (everything but Run).
func (s *Study) DefinitionHash() string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a declaration is plain data
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// CodeHash is the hash of the files s.Code names under root: their paths and contents, Go files
// as their code alone (goCode). In the package that declares Run (the chapters' library, where
// every chapter adds declarations), only the declarations Run can reach count (reachable): a later
// study's declarations, added to an earlier chapter, leave this one's data fresh. It fails when a
// glob matches nothing, or a Go file does not parse: a renamed file must not silently leave the
// hash.
func (s *Study) CodeHash(root string) (string, error) {
	files, err := s.CodeFiles(root)
	if err != nil {
		return "", err
	}
	runDir, runPkg, runName := "", "", ""
	if s.Run != nil {
		runPkg, runName = funcName(s.Run)
	}
	goDirs := map[string][]string{} // the Go files among files, by folder
	for _, f := range files {
		if strings.HasSuffix(f, ".go") {
			goDirs[path.Dir(f)] = append(goDirs[path.Dir(f)], f)
		}
	}
	var pkg *parsedPackage
	for _, dir := range slices.Sorted(maps.Keys(goDirs)) {
		p, err := parsePackage(root, goDirs[dir])
		if err != nil {
			return "", fmt.Errorf("study %s: %w", s.ID(), err)
		}
		if p.name == runPkg && p.declaresFunc(runName) {
			runDir, pkg = dir, p
			break
		}
	}
	h := sha256.New()
	for _, f := range files {
		if runDir != "" && strings.HasSuffix(f, ".go") && path.Dir(f) == runDir {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		if strings.HasSuffix(f, ".go") {
			if b, err = goCode(b); err != nil {
				return "", fmt.Errorf("study %s: %s: %w", s.ID(), f, err)
			}
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	if pkg != nil {
		b := pkg.reachable(runName)
		fmt.Fprintf(h, "%s/ from %s %d\n", runDir, runName, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// funcName splits the name the runtime gives fn into its package's name and the top-level
// declaration that holds it: "agentrl", "runLengthJob" for agentrl.runLengthJob, for a closure
// inside it (runLengthJob.func1) and, for a method value ((*T).M-fm), "T".
func funcName(fn any) (pkg, name string) {
	full := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	rest := full[strings.LastIndex(full, "/")+1:]
	pkg, rest, _ = strings.Cut(rest, ".")
	if strings.HasPrefix(rest, "(") {
		rest, _, _ = strings.Cut(strings.TrimLeft(rest, "(*"), ")")
	} else {
		rest, _, _ = strings.Cut(rest, ".")
	}
	name, _, _ = strings.Cut(rest, "[")
	return pkg, name
}

// parsedPackage is one folder's Go files as units: each top-level declaration as its code
// (declCode), under the names it declares. A grouped const, var or type declaration is one unit,
// since a constant's value can depend on its place in the group (iota).
type parsedPackage struct {
	name    string
	units   []string         // each declaration's code
	byName  map[string][]int // the units that declare a name, and the methods of a type of that name
	always  []int            // init functions and blank (_) variables: they run whatever is called
	idents  [][]string       // the identifiers each unit mentions
	funcSet map[string]bool  // the top-level functions (no receiver)
}

func parsePackage(root string, files []string) (*parsedPackage, error) {
	p := &parsedPackage{byName: map[string][]int{}, funcSet: map[string]bool{}}
	fset := token.NewFileSet()
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if p.name != "" && file.Name.Name != p.name {
			return nil, fmt.Errorf("%s: package %s beside package %s", f, file.Name.Name, p.name)
		}
		p.name = file.Name.Name
		for _, d := range file.Decls {
			var names []string
			always := false
			switch d := d.(type) {
			case *ast.FuncDecl:
				switch {
				case d.Recv != nil && len(d.Recv.List) > 0:
					names = append(names, receiverType(d.Recv.List[0].Type))
				case d.Name.Name == "init":
					always = true
				default:
					names = append(names, d.Name.Name)
					p.funcSet[d.Name.Name] = true
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						names = append(names, spec.Name.Name)
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							if n.Name == "_" {
								always = true
							}
							names = append(names, n.Name)
						}
					}
				}
			}
			i := len(p.units)
			p.units = append(p.units, declCode(fset, src, d))
			var idents []string
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					idents = append(idents, id.Name)
				}
				return true
			})
			p.idents = append(p.idents, idents)
			for _, n := range names {
				p.byName[n] = append(p.byName[n], i)
			}
			if always {
				p.always = append(p.always, i)
			}
		}
	}
	return p, nil
}

// receiverType is the name of a method's receiver type: T for T, *T, T[K] and *T[K].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func (p *parsedPackage) declaresFunc(name string) bool { return p.funcSet[name] }

// reachable is the code of the declarations that name can reach, sorted: the units that declare
// it, then, transitively, those of every identifier they mention (a type brings its methods). An
// identifier is matched by its name alone (a field or a local variable may bring in a declaration
// of the same name): the set can be too large, never too small.
func (p *parsedPackage) reachable(name string) []byte {
	in := map[int]bool{}
	work := slices.Clone(p.always)
	work = append(work, p.byName[name]...)
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if in[u] {
			continue
		}
		in[u] = true
		for _, id := range p.idents[u] {
			work = append(work, p.byName[id]...)
		}
	}
	var code []string
	for u := range in {
		code = append(code, p.units[u])
	}
	slices.Sort(code)
	return []byte("package " + p.name + "\n" + strings.Join(code, "\n"))
}

// goCode is the code of a Go file without its comments and layout, its top-level declarations
// sorted: what the study runs, so that editing a doc comment, or moving a //@save cell and with it
// a declaration in the generated file, leaves the study's data fresh.
func goCode(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	decls := make([]string, len(f.Decls))
	for i, d := range f.Decls {
		decls[i] = declCode(fset, src, d)
	}
	slices.Sort(decls)
	return []byte("package " + f.Name.Name + "\n" + strings.Join(decls, "\n")), nil
}

// declCode is a declaration as its tokens, one per line, without comments and without the
// semicolons the scanner inserts at line ends.
func declCode(fset *token.FileSet, src []byte, d ast.Decl) string {
	from, to := fset.Position(d.Pos()).Offset, fset.Position(d.End()).Offset
	var sc scanner.Scanner
	sc.Init(token.NewFileSet().AddFile("", -1, to-from), src[from:to], nil, 0) // comments skipped
	var b strings.Builder
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		fmt.Fprintf(&b, "%s %s\n", tok, lit)
	}
	return b.String()
}

// CodeFiles lists the files s.Code names under root, slash-separated and sorted.
func (s *Study) CodeFiles(root string) ([]string, error) {
	set := map[string]bool{}
	for _, g := range s.Code {
		n := 0
		if dir, ok := strings.CutSuffix(g, "/**"); ok {
			err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if junk(d.Name()) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if d.IsDir() {
					return nil
				}
				rel, err := filepath.Rel(root, p)
				if err == nil {
					set[filepath.ToSlash(rel)] = true
					n++
				}
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("study %s: code %q: %w", s.ID(), g, err)
			}
		} else {
			m, err := filepath.Glob(filepath.Join(root, g))
			if err != nil {
				return nil, fmt.Errorf("study %s: code %q: %w", s.ID(), g, err)
			}
			for _, p := range m {
				if strings.HasSuffix(p, "_test.go") || junk(filepath.Base(p)) {
					continue
				}
				rel, _ := filepath.Rel(root, p)
				set[filepath.ToSlash(rel)] = true
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("study %s: code glob %q matches no file under %s", s.ID(), g, root)
		}
	}
	return slices.Sorted(func(yield func(string) bool) {
		for f := range set {
			if !yield(f) {
				return
			}
		}
	}), nil
}

// junk reports whether a file or folder is one that tools leave beside the code (hidden files,
// Python's caches, editor backups): it is not part of what a study runs, and a clean clone lacks it.
func junk(name string) bool {
	return strings.HasPrefix(name, ".") || name == "__pycache__" || strings.HasSuffix(name, ".pyc") || strings.HasSuffix(name, "~")
}

// LibraryCode returns the Code globs of a TinyAgent study declared in chapter ("ch09"): the
// library's files of that chapter and every earlier one (a chapter builds only on earlier ones),
// the hand-written packages TinyAgent runs on, the tasks and the module's pinned dependencies
// (go.sum). A later chapter's edit leaves an earlier chapter's studies fresh. This package is not
// among them: it times jobs and stores what they return, and computes none of it.
func LibraryCode(chapter string) []string {
	var n int
	if _, err := fmt.Sscanf(chapter, "ch%02d", &n); err != nil || n < 0 || n > 29 {
		panic(fmt.Sprintf("study: LibraryCode(%q): want ch00 to ch29", chapter))
	}
	var globs []string
	for tens := 0; tens*10 <= n; tens++ {
		last := 9
		if tens == n/10 {
			last = n % 10
		}
		globs = append(globs, fmt.Sprintf("agentrl/ch%d[0-%d]_*.go", tens, last))
	}
	return append(globs, "backend/*.go", "dotgrad/*.go", "tinyrt/*.go", "gym/*.go", "gym/sandbox/*.go",
		"gym/sandbox/*.py", "datasets/bugfix/**", "go.sum")
}

// Report tells j's Progress, when it has one, that done of total steps are done.
func (j Job) Report(done, total int) {
	if j.Progress != nil {
		j.Progress(done, total)
	}
}

// Bool is 1 for true and 0 for false: an outcome such as "solved" as a number.
func Bool(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
