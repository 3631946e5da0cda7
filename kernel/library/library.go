package library

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/imports"

	"github.com/agenticrl/course/kernel/notebook"
)

// Marker is the first line of a cell that belongs in the library.
const Marker = "//@save"

// ImportPath is the library's import path: cells may call it qualified (agentrl.X) in notebooks;
// inside the library the qualifier is dropped.
const ImportPath = "github.com/agenticrl/course/agentrl"

// PackageName is the library's package name.
const PackageName = "agentrl"

// generated matches the header of every file this package writes (Go's convention for
// generated code), so stale generated files can be told from hand-written ones.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// File is one generated library file.
type File struct {
	Name     string // base name in the library folder, e.g. "ch02_rl_fundamentals.go"
	Notebook string // source notebook path
	Content  []byte
}

// Build collects the //@save cells of the notebooks (in reading order) into one file per
// notebook that has any. libDir is the library folder: imports are resolved as they would be there.
func Build(notebooks []string, libDir string) ([]File, error) {
	var files []File
	for _, path := range notebooks {
		nb, err := notebook.Read(path)
		if err != nil {
			return nil, err
		}
		f, ok, err := buildOne(nb, libDir)
		if err != nil {
			return nil, err
		}
		if ok {
			files = append(files, f)
		}
	}
	return files, nil
}

// savedCell is one //@save cell, split into its imports and the rest.
type savedCell struct {
	index   int    // 1-based cell position
	section string // the nearest Markdown heading above it
	imports []*ast.ImportSpec
	body    string
}

func buildOne(nb *notebook.Notebook, libDir string) (File, bool, error) {
	var cells []savedCell
	section := ""
	for i, c := range nb.Cells {
		if c.Type == "markdown" {
			if h := lastHeading(c.Source); h != "" {
				section = h
			}
			continue
		}
		if c.Type != "code" {
			continue
		}
		first, rest, _ := strings.Cut(c.Source, "\n")
		if strings.TrimSpace(first) != Marker {
			continue
		}
		sc, err := parseCell(rest, nb.Path, i+1, section)
		if err != nil {
			return File{}, false, err
		}
		cells = append(cells, sc)
	}
	if len(cells) == 0 {
		return File{}, false, nil
	}
	name := strings.TrimSuffix(filepath.Base(nb.Path), ".ipynb") + ".go"
	src := assemble(nb.Path, cells)
	out, err := imports.Process(filepath.Join(libDir, name), src, &imports.Options{Comments: true, TabIndent: true, TabWidth: 8})
	if err != nil {
		return File{}, false, fmt.Errorf("%s: the //@save cells do not form valid Go: %w\n--- generated source ---\n%s", nb.Path, err, numbered(src))
	}
	return File{Name: name, Notebook: nb.Path, Content: out}, true, nil
}

func lastHeading(md string) string {
	h := ""
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(line, "#") {
			h = strings.TrimSpace(strings.TrimLeft(line, "#"))
		}
	}
	return h
}

// parseCell checks that a saved cell is plain Go declarations and splits off its imports.
func parseCell(code, nbPath string, cell int, section string) (savedCell, error) {
	where := fmt.Sprintf("%s: cell %d (//@save)", nbPath, cell)
	for n, line := range strings.Split(code, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
			return savedCell{}, fmt.Errorf("%s, line %d: special commands (%q) cannot be saved to the library", where, n+2, t)
		}
	}
	const header = "package " + PackageName + "\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", header+code, parser.ParseComments)
	if err != nil {
		return savedCell{}, fmt.Errorf("%s: not valid Go declarations: %w", where, err)
	}
	src := []byte(header + code)
	sc := savedCell{index: cell, section: section}
	// Cut out the import declarations; remember their specs.
	var cuts [][2]int
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if ok && gd.Tok == token.IMPORT {
			for _, s := range gd.Specs {
				sc.imports = append(sc.imports, s.(*ast.ImportSpec))
			}
			cuts = append(cuts, [2]int{fset.Position(gd.Pos()).Offset, fset.Position(gd.End()).Offset})
			continue
		}
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return savedCell{}, fmt.Errorf("%s: func main cannot be saved to the library", where)
		}
	}
	// Name the section in the doc comment of every top-level declaration, so that a reader of the
	// library finds the chapter text that explains it.
	note := fmt.Sprintf("// Defined in %s, %q.", filepath.Base(nbPath), section)
	if section == "" {
		note = fmt.Sprintf("// Defined in %s.", filepath.Base(nbPath))
	}
	type insert struct {
		at   int
		text string
	}
	var inserts []insert
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue
		}
		var doc *ast.CommentGroup
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc = d.Doc
		case *ast.GenDecl:
			doc = d.Doc
		}
		at := lineStart(src, fset.Position(d.Pos()).Offset)
		text := note + "\n"
		if doc != nil {
			text = "//\n" + text
		}
		inserts = append(inserts, insert{at, text})
	}
	var b bytes.Buffer
	pos := len(header)
	// Apply cuts and inserts in source order.
	type edit struct {
		at, end int
		text    string
	}
	var edits []edit
	for _, c := range cuts {
		edits = append(edits, edit{c[0], c[1], ""})
	}
	for _, in := range inserts {
		edits = append(edits, edit{in.at, in.at, in.text})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	for _, e := range edits {
		b.Write(src[pos:e.at])
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(src[pos:])
	body, err := stripQualifier(b.Bytes(), sc.imports)
	if err != nil {
		return savedCell{}, fmt.Errorf("%s: %w", where, err)
	}
	sc.body = strings.TrimSpace(body)
	return sc, nil
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// stripQualifier removes "agentrl." before identifiers when the cell imports the library: inside
// the library its own names are unqualified. It works on tokens, so comments and strings that
// mention the package are left alone.
func stripQualifier(src []byte, specs []*ast.ImportSpec) (string, error) {
	name := ""
	for _, s := range specs {
		if p, _ := strconv.Unquote(s.Path.Value); p == ImportPath {
			name = PackageName
			if s.Name != nil {
				name = s.Name.Name
			}
		}
	}
	if name == "" {
		return string(src), nil
	}
	fset := token.NewFileSet()
	file := fset.AddFile("cell.go", -1, len(src))
	var s scanner.Scanner
	var scanErr error
	s.Init(file, src, func(pos token.Position, msg string) { scanErr = fmt.Errorf("%s: %s", pos, msg) }, scanner.ScanComments)
	var out bytes.Buffer
	last := 0
	prevIdent, prevOff := false, 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.PERIOD && prevIdent {
			out.Write(src[last:prevOff])
			last = off + 1
		}
		prevIdent = tok == token.IDENT && lit == name
		prevOff = off
	}
	out.Write(src[last:])
	return out.String(), scanErr
}

func assemble(nbPath string, cells []savedCell) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by agentrl book build-library from notebooks/%s. DO NOT EDIT.\n\n", filepath.Base(nbPath))
	fmt.Fprintf(&b, "package %s\n\n", PackageName)
	seen := map[string]bool{}
	var specs []string
	for _, c := range cells {
		for _, s := range c.imports {
			path, _ := strconv.Unquote(s.Path.Value)
			if path == ImportPath {
				continue
			}
			spec := s.Path.Value
			if s.Name != nil {
				spec = s.Name.Name + " " + spec
			}
			if !seen[spec] {
				seen[spec] = true
				specs = append(specs, spec)
			}
		}
	}
	if len(specs) > 0 {
		b.WriteString("import (\n")
		for _, s := range specs {
			fmt.Fprintf(&b, "\t%s\n", s)
		}
		b.WriteString(")\n\n")
	}
	for _, c := range cells {
		b.WriteString(c.body)
		b.WriteString("\n\n")
	}
	return b.Bytes()
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, l := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

// Problem is one way the library folder differs from what the notebooks generate.
type Problem struct {
	File string // path in the library folder
	Why  string
}

func (p Problem) String() string { return p.File + ": " + p.Why }

// Diff compares the generated files with the library folder: missing files, files whose content
// differs, and generated files that no notebook produces any more. Hand-written files (tests, doc.go)
// are ignored.
func Diff(files []File, libDir string) ([]Problem, error) {
	var problems []Problem
	want := map[string]bool{}
	for _, f := range files {
		want[f.Name] = true
		path := filepath.Join(libDir, f.Name)
		have, err := os.ReadFile(path)
		switch {
		case os.IsNotExist(err):
			problems = append(problems, Problem{path, "missing: " + f.Notebook + " has //@save cells"})
		case err != nil:
			return nil, err
		case !bytes.Equal(have, f.Content):
			problems = append(problems, Problem{path, "out of date with " + f.Notebook + firstDiff(have, f.Content)})
		}
	}
	stale, err := staleFiles(libDir, want)
	if err != nil {
		return nil, err
	}
	for _, s := range stale {
		problems = append(problems, Problem{s, "generated, but no notebook produces it any more"})
	}
	return problems, nil
}

func firstDiff(have, want []byte) string {
	h, w := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(h) || i < len(w); i++ {
		var a, b string
		if i < len(h) {
			a = h[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf(" (first difference at line %d:\n  - %s\n  + %s\n  - in the folder, + generated from the notebook)", i+1, a, b)
		}
	}
	return ""
}

func staleFiles(libDir string, want map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(libDir)
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || want[n] {
			continue
		}
		data, err := os.ReadFile(filepath.Join(libDir, n))
		if err != nil {
			return nil, err
		}
		if generated.Match(data) {
			stale = append(stale, filepath.Join(libDir, n))
		}
	}
	return stale, nil
}

// Write writes the generated files into libDir and removes generated files no notebook
// produces any more. It reports the files it changed.
func Write(files []File, libDir string) ([]string, error) {
	var changed []string
	want := map[string]bool{}
	for _, f := range files {
		want[f.Name] = true
		path := filepath.Join(libDir, f.Name)
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, f.Content) {
			continue
		}
		// Written whole or not at all: an interrupted build leaves the old file, never half a new one.
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, f.Content, 0o644); err != nil {
			return changed, err
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return changed, err
		}
		changed = append(changed, path)
	}
	stale, err := staleFiles(libDir, want)
	if err != nil {
		return changed, err
	}
	for _, s := range stale {
		if err := os.Remove(s); err != nil {
			return changed, err
		}
		changed = append(changed, s+" (removed)")
	}
	return changed, nil
}
