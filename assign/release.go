package assign

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// Stub returns the cell with the body of each marked function replaced by a stub that compiles
// and says what to write.
func Stub(src string, m Marker) (string, error) {
	fset, funcs, err := parseCell(src)
	if err != nil {
		return "", err
	}
	type span struct {
		from, to int
		name     string
	}
	var spans []span
	for _, name := range m.Functions {
		fd := funcs[name]
		if fd == nil || fd.Body == nil {
			return "", fmt.Errorf("the cell declares no function %s with a body", name)
		}
		spans = append(spans, span{fset.Position(fd.Body.Lbrace).Offset - len(cellPrefix), fset.Position(fd.Body.Rbrace).Offset - len(cellPrefix) + 1, name})
	}
	// From the end of the cell backwards, so the offsets of the spans still to replace hold.
	sort.Slice(spans, func(i, j int) bool { return spans[i].from > spans[j].from })
	for _, s := range spans {
		stub := fmt.Sprintf("{\n\t// Exercise %s: write %s, as its comment above says.\n\tpanic(%q)\n}",
			m.Exercise, s.name, fmt.Sprintf("exercise %s: %s is not written yet", m.Exercise, s.name))
		src = src[:s.from] + stub + src[s.to:]
	}
	return src, nil
}

// Release returns the student's edition of a chapter: marked functions stubbed, the outputs of
// every code cell from the first marked cell on cleared, and the chapter named in the notebook's
// metadata for the grader. It fails on a chapter without markers.
func Release(nb *notebook.Notebook) (*notebook.Notebook, error) {
	marks, err := Markers(nb)
	if err != nil {
		return nil, err
	}
	if len(marks) == 0 {
		return nil, fmt.Errorf("%s has no solution markers", filepath.Base(nb.Path))
	}
	out := &notebook.Notebook{Metadata: nb.Metadata, NBFormat: nb.NBFormat, NBFormatMinor: nb.NBFormatMinor}
	byCell := map[int]Marked{}
	for _, m := range marks {
		byCell[m.Cell] = m
	}
	for i, c := range nb.Cells {
		cc := *c
		if m, ok := byCell[i+1]; ok {
			if cc.Source, err = Stub(c.Source, m.Marker); err != nil {
				return nil, fmt.Errorf("cell %d (%s): %w", i+1, c.ID, err)
			}
		}
		if c.Type == "code" && i+1 >= marks[0].Cell {
			cc.Outputs, cc.ExecutionCount = nil, nil
		}
		out.Cells = append(out.Cells, &cc)
	}
	chapter, _ := json.Marshal(map[string]string{"chapter": strings.TrimSuffix(filepath.Base(nb.Path), ".ipynb")})
	if err := out.SetMeta(MetaKey, chapter); err != nil {
		return nil, err
	}
	return out, nil
}

// ChapterOf is the chapter a submission answers: the one its metadata names (a released
// notebook's), else the chNN prefix of its file name.
func ChapterOf(nb *notebook.Notebook) string {
	var m map[string]string
	if raw := nb.Meta(MetaKey); raw != nil && json.Unmarshal(raw, &m) == nil && m["chapter"] != "" {
		return m["chapter"]
	}
	base := filepath.Base(nb.Path)
	if len(base) >= 4 && strings.HasPrefix(base, "ch") {
		return base[:4]
	}
	return ""
}
