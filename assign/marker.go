package assign

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/agenticrl/course/kernel/library"
	"github.com/agenticrl/course/kernel/notebook"
)

// MetaKey is the cell metadata key of a solution marker, and the notebook metadata key under
// which a released notebook names its chapter.
const MetaKey = "assign"

// Marker is one exercise: a //@save cell whose listed functions the student writes.
type Marker struct {
	Exercise  string   `json:"exercise"`  // unique within the book, e.g. "gae"
	Title     string   `json:"title"`     // for reports
	Points    float64  `json:"points"`    // full marks
	Functions []string `json:"functions"` // the functions of the cell whose bodies are the solution
}

// Marked is a marker with the cell it sits on.
type Marked struct {
	Marker
	Cell int    // 1-based position
	ID   string // cell id
}

// Markers returns the notebook's solution markers in cell order, checking each: on a //@save code
// cell, with a name, positive points and functions the cell declares.
func Markers(nb *notebook.Notebook) ([]Marked, error) {
	var out []Marked
	seen := map[string]bool{}
	for i, c := range nb.Cells {
		var meta map[string]json.RawMessage
		if json.Unmarshal(c.Metadata, &meta) != nil || meta[MetaKey] == nil {
			continue
		}
		var m Marker
		if err := json.Unmarshal(meta[MetaKey], &m); err != nil {
			return nil, fmt.Errorf("cell %d (%s): marker: %w", i+1, c.ID, err)
		}
		where := fmt.Sprintf("cell %d (%s), exercise %q", i+1, c.ID, m.Exercise)
		switch {
		case c.Type != "code" || !isSaved(c.Source):
			return nil, fmt.Errorf("%s: a marker belongs on a %s code cell", where, library.Marker)
		case m.Exercise == "" || strings.ContainsAny(m.Exercise, " /\t\n"):
			return nil, fmt.Errorf("%s: the exercise needs a name without spaces or slashes", where)
		case seen[m.Exercise]:
			return nil, fmt.Errorf("%s: the name is used twice", where)
		case !(m.Points > 0):
			return nil, fmt.Errorf("%s: points must be positive", where)
		case len(m.Functions) == 0:
			return nil, fmt.Errorf("%s: no functions listed", where)
		}
		seen[m.Exercise] = true
		_, funcs, err := parseCell(c.Source)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		for _, f := range m.Functions {
			if funcs[f] == nil {
				return nil, fmt.Errorf("%s: the cell declares no function %s", where, f)
			}
		}
		out = append(out, Marked{Marker: m, Cell: i + 1, ID: c.ID})
	}
	return out, nil
}

func isSaved(src string) bool {
	first, _, _ := strings.Cut(src, "\n")
	return strings.TrimSpace(first) == library.Marker
}

// cellPrefix turns a //@save cell into a Go file for the parser; offsets in the file are the
// cell's plus its length.
const cellPrefix = "package p\n"

// parseCell parses a //@save cell and returns its top-level functions by name (methods are
// skipped: a marker names plain functions).
func parseCell(src string) (*token.FileSet, map[string]*ast.FuncDecl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", cellPrefix+src, parser.ParseComments)
	if err != nil {
		return nil, nil, fmt.Errorf("the cell is not valid Go: %v", err)
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			funcs[fd.Name.Name] = fd
		}
	}
	return fset, funcs, nil
}
