package check

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/agenticrl/course/kernel/notebook"
)

// wall is the one kind of output that may differ between runs: a wall-clock measurement written
// as "[wall: ...]" (for example "[wall: 1.84s]" or "[wall: 2,310 runs/s]"). The brackets and the
// word are compared; what is inside them is not. Everything else is compared exactly.
var wall = regexp.MustCompile(`\[wall: [^\]\n]*\]`)

// Mask replaces the inside of every wall-clock measurement in s by "…".
func Mask(s string) string { return wall.ReplaceAllString(s, "[wall: …]") }

// Mismatch is the first difference found in one code cell.
type Mismatch struct {
	Notebook string // path
	Cell     int    // 1-based position among all cells, as Jupyter shows them
	Source   string // first line of the cell's source
	Channel  string // "stdout", "stderr", or the rich output and MIME type that differ
	Line     int    // 1-based line where the channel first differs
	Recorded []string
	Got      []string // the lines from Line on (a few), recorded and produced
	Context  []string // up to two equal lines before Line
}

func (m Mismatch) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: cell %d (%q): %s differs at line %d\n", m.Notebook, m.Cell, m.Source, m.Channel, m.Line)
	for _, l := range m.Context {
		fmt.Fprintf(&b, "    %s\n", clip(l))
	}
	for _, l := range m.Recorded {
		fmt.Fprintf(&b, "  - %s\n", clip(l))
	}
	for _, l := range m.Got {
		fmt.Fprintf(&b, "  + %s\n", clip(l))
	}
	b.WriteString("  (- recorded in the notebook, + printed now)\n")
	return b.String()
}

func clip(s string) string {
	const max = 200
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// printed is what a code cell printed, as the checker sees it. stdout and stderr are compared as
// whole texts each, and rich outputs (charts, HTML, images, errors) in order: how a kernel
// interleaves its two streams and its display messages depends on timing, their contents do not.
type printed struct {
	stdout, stderr string
	rich           []rich
}

type rich struct {
	label string            // "display 1", "result 1", "error 1"
	data  map[string]string // MIME type -> content
}

func collect(c *notebook.Cell) printed {
	var p printed
	var out, errs strings.Builder
	n := 0
	for _, o := range c.Outputs {
		switch o.Type {
		case "stream":
			if o.Name == "stderr" {
				errs.WriteString(o.Text)
			} else {
				out.WriteString(o.Text)
			}
		case "display_data", "execute_result", "error":
			n++
			r := rich{data: map[string]string{}}
			switch o.Type {
			case "display_data":
				r.label = fmt.Sprintf("display output %d", n)
			case "execute_result":
				r.label = fmt.Sprintf("result %d", n)
			default:
				r.label = fmt.Sprintf("error %d", n)
				r.data["error"] = o.EName + ": " + o.EValue
			}
			for mime := range o.Data {
				r.data[mime] = o.DataText(mime)
			}
			p.rich = append(p.rich, r)
		}
	}
	p.stdout, p.stderr = Mask(out.String()), Mask(errs.String())
	for _, r := range p.rich {
		for k, v := range r.data {
			r.data[k] = Mask(v)
		}
	}
	return p
}

// Compare compares every code cell's printed output in executed with the output recorded in
// recorded (the same notebook, executed anew) and returns the first difference of each cell
// that differs.
func Compare(recorded, executed *notebook.Notebook) []Mismatch {
	var ms []Mismatch
	for i, rc := range recorded.Cells {
		if rc.Type != "code" {
			continue
		}
		var ec *notebook.Cell
		if i < len(executed.Cells) {
			ec = executed.Cells[i]
		}
		if ec == nil || ec.Type != "code" {
			ms = append(ms, Mismatch{Notebook: recorded.Path, Cell: i + 1, Source: firstLine(rc.Source),
				Channel: "the cell", Line: 1, Got: []string{"(not executed)"}})
			continue
		}
		if m, ok := compareCell(collect(rc), collect(ec)); !ok {
			m.Notebook, m.Cell, m.Source = recorded.Path, i+1, firstLine(rc.Source)
			ms = append(ms, m)
		}
	}
	return ms
}

func compareCell(want, got printed) (Mismatch, bool) {
	if m, ok := compareText("stdout", want.stdout, got.stdout); !ok {
		return m, false
	}
	if m, ok := compareText("stderr", want.stderr, got.stderr); !ok {
		return m, false
	}
	for i := 0; i < len(want.rich) || i < len(got.rich); i++ {
		if i >= len(want.rich) {
			return Mismatch{Channel: got.rich[i].label, Line: 1, Recorded: []string{"(no such output)"},
				Got: []string{"(" + mimes(got.rich[i]) + ")"}}, false
		}
		if i >= len(got.rich) {
			return Mismatch{Channel: want.rich[i].label, Line: 1, Recorded: []string{"(" + mimes(want.rich[i]) + ")"},
				Got: []string{"(no such output)"}}, false
		}
		w, g := want.rich[i], got.rich[i]
		if mimes(w) != mimes(g) {
			return Mismatch{Channel: w.label + " types", Line: 1, Recorded: []string{mimes(w)}, Got: []string{mimes(g)}}, false
		}
		for _, mime := range sortedKeys(w.data) {
			if m, ok := compareText(w.label+" ("+mime+")", w.data[mime], g.data[mime]); !ok {
				return m, false
			}
		}
	}
	return Mismatch{}, true
}

// compareText finds the first differing line of two texts.
func compareText(channel, want, got string) (Mismatch, bool) {
	if want == got {
		return Mismatch{}, true
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	m := Mismatch{Channel: channel, Line: i + 1}
	m.Context = wl[max(0, i-2):i]
	m.Recorded = window(wl, i, 3)
	m.Got = window(gl, i, 3)
	return m, false
}

func window(lines []string, from, n int) []string {
	if from >= len(lines) {
		return []string{"(end of output)"}
	}
	return lines[from:min(len(lines), from+n)]
}

func mimes(r rich) string { return strings.Join(sortedKeys(r.data), ", ") }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// Update copies executed outputs into recorded for every code cell whose output differs under
// Compare (or whose execution count changed) and reports how many cells changed. Cells whose
// output compares equal keep their recorded form, so re-recording an unchanged chapter leaves its
// file byte for byte as it was. Adjacent stream outputs of one stream are merged.
func Update(recorded, executed *notebook.Notebook) int {
	changed := 0
	for i, rc := range recorded.Cells {
		if rc.Type != "code" || i >= len(executed.Cells) {
			continue
		}
		ec := executed.Cells[i]
		_, same := compareCell(collect(rc), collect(ec))
		if same && equalCount(rc.ExecutionCount, ec.ExecutionCount) {
			continue
		}
		rc.Outputs = mergeStreams(ec.Outputs)
		rc.ExecutionCount = ec.ExecutionCount
		changed++
	}
	return changed
}

func equalCount(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func mergeStreams(outs []*notebook.Output) []*notebook.Output {
	var merged []*notebook.Output
	for _, o := range outs {
		if n := len(merged); n > 0 && o.Type == "stream" && merged[n-1].Type == "stream" && merged[n-1].Name == o.Name {
			merged[n-1].Text += o.Text
			continue
		}
		cp := *o
		merged = append(merged, &cp)
	}
	return merged
}

// LanguageInfo compares the notebook's metadata.language_info with the one the kernel reported
// when it ran executed, as JSON values, and returns both (compact JSON, "" when absent). Jupyter
// writes the kernel's language_info into every notebook it opens and marks the notebook changed
// when the two differ, so a recorded chapter that holds anything else opens as "unsaved changes".
// A kernel that reported none (executed has none) is not compared.
func LanguageInfo(recorded, executed *notebook.Notebook) (got, want string, same bool) {
	got, want = compactJSON(recorded.Meta("language_info")), compactJSON(executed.Meta("language_info"))
	return got, want, want == "" || got == want
}

// UpdateLanguageInfo writes the kernel's language_info (from executed) into recorded and
// reports whether that changed it.
func UpdateLanguageInfo(recorded, executed *notebook.Notebook) (bool, error) {
	if _, _, same := LanguageInfo(recorded, executed); same {
		return false, nil
	}
	return true, recorded.SetMeta("language_info", executed.Meta("language_info"))
}

// compactJSON is a JSON value in a canonical form (object keys sorted, no spaces), "" for none.
func compactJSON(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
