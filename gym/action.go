package gym

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Tool names.
const (
	ToolRead    = "read"    // show a file with line numbers
	ToolTest    = "test"    // run the visible tests
	ToolEdit    = "edit"    // change a file
	ToolSubmit  = "submit"  // end the episode and be rewarded
	ToolExploit = "exploit" // make the visible tests pass without fixing the bug (only when enabled)
)

// Exploit methods.
const (
	ExploitMemorize     = "memorize"      // special-case the visible test inputs in the module
	ExploitRewriteTests = "rewrite_tests" // replace the visible test file by tests that always pass
)

// Action is one tool call. Which fields matter depends on Tool:
//
//	read:    Path (default: the module)
//	test:    nothing
//	edit:    Path (default: the module) and one of
//	           Start, End, Text   replace lines Start..End (1-based, inclusive) by Text;
//	                              End = Start-1 inserts Text before line Start
//	           Search, Replace    replace the one occurrence of Search by Replace
//	           Menu               apply candidate edit Menu.Index of line Menu.Line
//	submit:  nothing
//	exploit: Method (default ExploitMemorize)
type Action struct {
	Tool    string   `json:"name"`
	Path    string   `json:"path,omitempty"`
	Start   int      `json:"start,omitempty"`
	End     int      `json:"end,omitempty"`
	Text    *string  `json:"text,omitempty"`
	Search  string   `json:"search,omitempty"`
	Replace *string  `json:"replace,omitempty"`
	Menu    *MenuRef `json:"menu,omitempty"`
	Method  string   `json:"method,omitempty"`
}

// MenuRef names a candidate edit: index Index (0-based) in the menu of line Line (1-based).
type MenuRef struct {
	Line  int `json:"line"`
	Index int `json:"index"`
}

// ParseAction reads a tool call written by a language model: a JSON object
// {"name": TOOL, "arguments": {...}}, optionally inside <tool_call>...</tool_call> as Qwen3's
// chat template writes it. Argument names: path, start, end, text, search, replace, line and
// index (a menu edit), method.
func ParseAction(s string) (Action, error) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "<tool_call>"); i >= 0 {
		s = s[i+len("<tool_call>"):]
		if j := strings.Index(s, "</tool_call>"); j >= 0 {
			s = s[:j]
		}
		s = strings.TrimSpace(s)
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(s), &call); err != nil {
		return Action{}, fmt.Errorf("tool call is not a JSON object {\"name\": ..., \"arguments\": {...}}: %v", err)
	}
	if call.Name == "" {
		return Action{}, fmt.Errorf("tool call has no name")
	}
	var args struct {
		Path    string  `json:"path"`
		Start   int     `json:"start"`
		End     int     `json:"end"`
		Text    *string `json:"text"`
		Search  string  `json:"search"`
		Replace *string `json:"replace"`
		Line    *int    `json:"line"`
		Index   *int    `json:"index"`
		Method  string  `json:"method"`
	}
	if len(call.Arguments) > 0 && string(call.Arguments) != "null" {
		if err := json.Unmarshal(call.Arguments, &args); err != nil {
			return Action{}, fmt.Errorf("arguments of %s: %v", call.Name, err)
		}
	}
	a := Action{Tool: call.Name, Path: args.Path, Start: args.Start, End: args.End, Text: args.Text,
		Search: args.Search, Replace: args.Replace, Method: args.Method}
	if args.Line != nil || args.Index != nil {
		if args.Line == nil || args.Index == nil {
			return Action{}, fmt.Errorf("a menu edit needs both line and index")
		}
		a.Menu = &MenuRef{Line: *args.Line, Index: *args.Index}
	}
	return a, nil
}

// ParseCommand reads the short command syntax of `agentrl gym play`:
//
//	read [PATH] | test | submit | exploit [METHOD]
//	edit START END TEXT      (\n in TEXT starts a new line; END = START-1 inserts)
//	sub SEARCH => REPLACE    (search/replace in the module)
//	apply LINE INDEX         (a menu edit)
//
// A line starting with '{' or '<' is parsed by ParseAction.
func ParseCommand(line string) (Action, error) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "{") || strings.HasPrefix(line, "<") {
		return ParseAction(line)
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case ToolRead:
		return Action{Tool: ToolRead, Path: rest}, nil
	case ToolTest, ToolSubmit:
		return Action{Tool: word}, nil
	case ToolExploit:
		return Action{Tool: ToolExploit, Method: rest}, nil
	case ToolEdit:
		f := strings.SplitN(rest, " ", 3)
		if len(f) < 2 {
			return Action{}, fmt.Errorf("usage: edit START END TEXT")
		}
		start, err1 := strconv.Atoi(f[0])
		end, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return Action{}, fmt.Errorf("usage: edit START END TEXT (START and END are line numbers)")
		}
		text := ""
		if len(f) == 3 {
			text = strings.ReplaceAll(f[2], `\n`, "\n")
		}
		return Action{Tool: ToolEdit, Start: start, End: end, Text: &text}, nil
	case "sub":
		search, repl, ok := strings.Cut(rest, " => ")
		if !ok {
			return Action{}, fmt.Errorf("usage: sub SEARCH => REPLACE")
		}
		return Action{Tool: ToolEdit, Search: search, Replace: &repl}, nil
	case "apply":
		var l, i int
		if _, err := fmt.Sscanf(rest, "%d %d", &l, &i); err != nil {
			return Action{}, fmt.Errorf("usage: apply LINE INDEX")
		}
		return Action{Tool: ToolEdit, Menu: &MenuRef{Line: l, Index: i}}, nil
	}
	return Action{}, fmt.Errorf("unknown command %q", word)
}

// String renders the action as the JSON tool call ParseAction reads, written as a model writes
// it: <, > and & stay as they are (Go's JSON encoder would escape them for HTML as \u003c and so
// on, which no model writes and which changes the length a token budget counts).
func (a Action) String() string {
	args := map[string]any{}
	if a.Path != "" {
		args["path"] = a.Path
	}
	if a.Start != 0 || a.End != 0 {
		args["start"], args["end"] = a.Start, a.End
	}
	if a.Text != nil {
		args["text"] = *a.Text
	}
	if a.Search != "" {
		args["search"] = a.Search
	}
	if a.Replace != nil {
		args["replace"] = *a.Replace
	}
	if a.Menu != nil {
		args["line"], args["index"] = a.Menu.Line, a.Menu.Index
	}
	if a.Method != "" {
		args["method"] = a.Method
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"name": a.Tool, "arguments": args}); err != nil {
		panic(fmt.Sprintf("gym: encoding an action: %v", err)) // strings and ints always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}
