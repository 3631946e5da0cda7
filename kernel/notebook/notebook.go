package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Notebook is a Jupyter notebook in nbformat 4.
type Notebook struct {
	Path          string // where it was read from; not part of the file
	Cells         []*Cell
	Metadata      json.RawMessage
	NBFormat      int
	NBFormatMinor int
}

// Cell is one notebook cell.
type Cell struct {
	Type           string // "code", "markdown" or "raw"
	ID             string
	Source         string
	Metadata       json.RawMessage
	ExecutionCount *int      // code cells only
	Outputs        []*Output // code cells only
	Attachments    json.RawMessage
}

// Output is one output of a code cell.
type Output struct {
	Type           string                     // "stream", "display_data", "execute_result" or "error"
	Name           string                     // stream: "stdout" or "stderr"
	Text           string                     // stream
	Data           map[string]json.RawMessage // display_data, execute_result: MIME type -> content
	Metadata       json.RawMessage            // display_data, execute_result
	ExecutionCount *int                       // execute_result
	EName, EValue  string                     // error
	Traceback      []string                   // error
}

// DataText returns the content of MIME type mime as text ("" when absent). Text MIME types are
// stored as a string or a list of lines; JSON types are returned as their JSON encoding.
func (o *Output) DataText(mime string) string {
	raw, ok := o.Data[mime]
	if !ok {
		return ""
	}
	if s, err := decodeMultiline(raw); err == nil {
		return s
	}
	return string(raw)
}

// Read parses the notebook at path. Errors name the file.
func Read(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	nb.Path = path
	return nb, nil
}

type fileNotebook struct {
	Cells         []fileCell      `json:"cells"`
	Metadata      json.RawMessage `json:"metadata"`
	NBFormat      int             `json:"nbformat"`
	NBFormatMinor int             `json:"nbformat_minor"`
}

type fileCell struct {
	CellType       string          `json:"cell_type"`
	ID             string          `json:"id"`
	Source         json.RawMessage `json:"source"`
	Metadata       json.RawMessage `json:"metadata"`
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []fileOutput    `json:"outputs"`
	Attachments    json.RawMessage `json:"attachments"`
}

type fileOutput struct {
	OutputType     string                     `json:"output_type"`
	Name           string                     `json:"name"`
	Text           json.RawMessage            `json:"text"`
	Data           map[string]json.RawMessage `json:"data"`
	Metadata       json.RawMessage            `json:"metadata"`
	ExecutionCount *int                       `json:"execution_count"`
	EName          string                     `json:"ename"`
	EValue         string                     `json:"evalue"`
	Traceback      []string                   `json:"traceback"`
}

// Parse decodes a notebook from its JSON. Only nbformat 4 is accepted.
func Parse(data []byte) (*Notebook, error) {
	var f fileNotebook
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a valid notebook (malformed JSON): %w", err)
	}
	if f.NBFormat != 4 {
		return nil, fmt.Errorf("unsupported nbformat %d (want 4)", f.NBFormat)
	}
	nb := &Notebook{Metadata: f.Metadata, NBFormat: f.NBFormat, NBFormatMinor: f.NBFormatMinor}
	for i, fc := range f.Cells {
		src, err := decodeMultiline(fc.Source)
		if err != nil {
			return nil, fmt.Errorf("cell %d: source: %w", i+1, err)
		}
		c := &Cell{Type: fc.CellType, ID: fc.ID, Source: src, Metadata: fc.Metadata,
			ExecutionCount: fc.ExecutionCount, Attachments: fc.Attachments}
		switch fc.CellType {
		case "code":
			for j, fo := range fc.Outputs {
				o := &Output{Type: fo.OutputType, Name: fo.Name, Data: fo.Data, Metadata: fo.Metadata,
					ExecutionCount: fo.ExecutionCount, EName: fo.EName, EValue: fo.EValue, Traceback: fo.Traceback}
				if fo.OutputType == "stream" {
					if o.Text, err = decodeMultiline(fo.Text); err != nil {
						return nil, fmt.Errorf("cell %d, output %d: %w", i+1, j+1, err)
					}
				}
				c.Outputs = append(c.Outputs, o)
			}
		case "markdown", "raw":
		default:
			return nil, fmt.Errorf("cell %d: unknown cell_type %q", i+1, fc.CellType)
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// decodeMultiline decodes nbformat's multiline string: a JSON string or a list of strings.
func decodeMultiline(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", fmt.Errorf("want a string or a list of strings: %w", err)
	}
	return strings.Join(lines, ""), nil
}

// splitLines is nbformat's on-disk form of a multiline string: lines that keep their "\n".
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if lines == nil {
		lines = []string{}
	}
	return lines
}

var emptyObject = json.RawMessage("{}")

func orEmpty(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return emptyObject
	}
	return m
}

// Marshal encodes the notebook the way Jupyter writes it (sorted keys, one-space indent,
// multiline strings as lists of lines), so that a notebook saved by Jupyter and one written here
// differ only where their content does.
func (nb *Notebook) Marshal() ([]byte, error) {
	cells := make([]map[string]any, 0, len(nb.Cells))
	for _, c := range nb.Cells {
		m := map[string]any{"cell_type": c.Type, "metadata": orEmpty(c.Metadata), "source": splitLines(c.Source)}
		if c.ID != "" {
			m["id"] = c.ID
		}
		if len(c.Attachments) > 0 {
			m["attachments"] = c.Attachments
		}
		if c.Type == "code" {
			m["execution_count"] = c.ExecutionCount
			outs := make([]map[string]any, 0, len(c.Outputs))
			for _, o := range c.Outputs {
				outs = append(outs, o.fileForm())
			}
			m["outputs"] = outs
		}
		cells = append(cells, m)
	}
	doc := map[string]any{"cells": cells, "metadata": orEmpty(nb.Metadata),
		"nbformat": nb.NBFormat, "nbformat_minor": nb.NBFormatMinor}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (o *Output) fileForm() map[string]any {
	m := map[string]any{"output_type": o.Type}
	switch o.Type {
	case "stream":
		m["name"] = o.Name
		m["text"] = splitLines(o.Text)
	case "display_data", "execute_result":
		data := map[string]any{}
		for mime, raw := range o.Data {
			if s, err := decodeMultiline(raw); err == nil && !strings.HasSuffix(mime, "json") {
				data[mime] = splitLines(s)
			} else {
				data[mime] = raw
			}
		}
		m["data"] = data
		m["metadata"] = orEmpty(o.Metadata)
		if o.Type == "execute_result" {
			m["execution_count"] = o.ExecutionCount
		}
	case "error":
		m["ename"] = o.EName
		m["evalue"] = o.EValue
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["traceback"] = tb
	}
	return m
}

// Write saves the notebook to path atomically (a crash leaves the old file intact).
func (nb *Notebook) Write(path string) error {
	data, err := nb.Marshal()
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".nb-*.ipynb")
	if err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// CheckIDs reports the cells whose id is missing, malformed or used twice. From nbformat 4.5
// every cell has an id; Jupyter gives a cell without one an id when it opens the notebook, which
// changes the content the notebook's trust signature was computed over: the notebook opens
// untrusted, and the scripts that draw its charts do not run.
func (nb *Notebook) CheckIDs() error {
	if nb.NBFormat < 4 || nb.NBFormat == 4 && nb.NBFormatMinor < 5 {
		return nil
	}
	var problems []string
	first := map[string]int{}
	for i, c := range nb.Cells {
		switch prev, seen := first[c.ID]; {
		case c.ID == "":
			problems = append(problems, fmt.Sprintf("cell %d has no id", i+1))
		case !validID(c.ID):
			problems = append(problems, fmt.Sprintf("cell %d: id %q is not 1-64 letters, digits, '-' or '_'", i+1, c.ID))
		case seen:
			problems = append(problems, fmt.Sprintf("cell %d: id %q is already the id of cell %d", i+1, c.ID, prev+1))
		default:
			first[c.ID] = i
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("cell ids (nbformat %d.%d): %s", nb.NBFormat, nb.NBFormatMinor, strings.Join(problems, "; "))
	}
	return nil
}

// validID is nbformat's pattern for a cell id: ^[a-zA-Z0-9-_]+$, at most 64 characters.
func validID(id string) bool {
	if len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return id != ""
}

// CodeCells returns the indices (into Cells) of the code cells, in order.
func (nb *Notebook) CodeCells() []int {
	var idx []int
	for i, c := range nb.Cells {
		if c.Type == "code" {
			idx = append(idx, i)
		}
	}
	return idx
}

// Find lists the book's notebooks in dir in reading order: chapters ch00, ch01, … then the
// appendices appA, appB, …; names not of that form are ignored.
func Find(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".ipynb") || !(strings.HasPrefix(n, "ch") || strings.HasPrefix(n, "app")) {
			continue
		}
		paths = append(paths, filepath.Join(dir, n))
	}
	// "ch" sorts before "app" in reading order, so sort by (kind, name).
	sort.Slice(paths, func(i, j int) bool {
		a, b := filepath.Base(paths[i]), filepath.Base(paths[j])
		ka, kb := strings.HasPrefix(a, "app"), strings.HasPrefix(b, "app")
		if ka != kb {
			return !ka
		}
		return a < b
	})
	return paths, nil
}

// Select returns the notebooks among paths whose file name starts with one of the prefixes
// (e.g. "ch00"), in reading order. A prefix that matches nothing is an error.
func Select(paths []string, prefixes []string) ([]string, error) {
	if len(prefixes) == 0 {
		return paths, nil
	}
	want := map[string]bool{}
	for _, p := range prefixes {
		found := false
		for _, path := range paths {
			if strings.HasPrefix(filepath.Base(path), p) {
				want[path] = true
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no notebook matches %q", p)
		}
	}
	var out []string
	for _, path := range paths {
		if want[path] {
			out = append(out, path)
		}
	}
	return out, nil
}

// Meta returns the value of one key of the notebook's metadata as JSON, or nil when the key is
// absent (or the metadata is not an object).
func (nb *Notebook) Meta(key string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(orEmpty(nb.Metadata), &m) != nil {
		return nil
	}
	return m[key]
}

// SetMeta sets one key of the notebook's metadata to a JSON value, keeping the other keys.
func (nb *Notebook) SetMeta(key string, value json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(orEmpty(nb.Metadata), &m); err != nil {
		return fmt.Errorf("notebook metadata: %w", err)
	}
	if m == nil { // the metadata was null
		m = map[string]json.RawMessage{}
	}
	m[key] = value
	raw, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("notebook metadata: %w", err)
	}
	nb.Metadata = raw
	return nil
}
