package site

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// notebook is the part of an nbformat 4 file the export reads.
type notebook struct {
	Cells []cell `json:"cells"`
}

type cell struct {
	Type    string   `json:"cell_type"` // "markdown", "code" or "raw"
	Source  text     `json:"source"`
	Outputs []output `json:"outputs"`
}

type output struct {
	Type      string                     `json:"output_type"` // stream, display_data, execute_result, error
	Name      string                     `json:"name"`        // stream: stdout or stderr
	Text      text                       `json:"text"`
	Data      map[string]json.RawMessage `json:"data"` // by MIME type; JSON payloads are objects
	Ename     string                     `json:"ename"`
	Evalue    string                     `json:"evalue"`
	Traceback []string                   `json:"traceback"`
}

// text is nbformat's multiline string: either one string or a list of lines to concatenate.
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = text(s)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return fmt.Errorf("multiline string: want a string or a list of strings: %w", err)
	}
	*t = text(strings.Join(lines, ""))
	return nil
}

func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &nb, nil
}

// mime returns the output's payload of one MIME type, when it is a (multiline) string.
func (o output) mime(typ string) (string, bool) {
	raw, ok := o.Data[typ]
	if !ok {
		return "", false
	}
	var t text
	if err := json.Unmarshal(raw, &t); err != nil {
		return "", false
	}
	return string(t), true
}
