package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/parity"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

const toolsJSON = `[
 {"type": "function", "function": {"name": "read", "description": "Read a file of the repository.",
  "parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "relative path"}}, "required": ["path"]}}},
 {"type": "function", "function": {"name": "edit", "description": "Replace lines — \"quoted\", <tagged> & ünïcödé 日本語 😀",
  "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "start": {"type": "integer", "minimum": 1}, "end": {"type": "integer"},
   "text": {"type": "string", "default": "tab\there\nnewline\\backslash\u0001"}, "ratio": {"type": "number", "default": 0.25}, "dry": {"type": "boolean", "default": false}, "tags": {"type": "array", "items": {"type": "string"}, "default": null}}}}},
 {"type": "function", "function": {"name": "submit", "parameters": {"type": "object", "properties": {}}}}
]`

// conversations are the message lists of the parity test: every role, tool definitions, tool
// calls with object and string arguments, consecutive tool responses, thinking in content and in
// reasoning_content, a user turn that is itself a tool response, and content null (which the
// older Qwen3 template rejects).
var conversations = []struct {
	name     string
	messages string
	tools    bool
}{
	{"user", `[{"role": "user", "content": "Hello!"}]`, false},
	{"system+user", `[{"role": "system", "content": "You are terse."}, {"role": "user", "content": "What is 2+2?"}]`, false},
	{"multi-turn", `[{"role": "system", "content": "S"}, {"role": "user", "content": "one"}, {"role": "assistant", "content": "first answer"}, {"role": "user", "content": "two"}]`, false},
	{"think in past turn", `[{"role": "user", "content": "q1"}, {"role": "assistant", "content": "<think>\nreasoning one\n</think>\n\nanswer one"}, {"role": "user", "content": "q2"}]`, false},
	{"think in last turn", `[{"role": "user", "content": "q1"}, {"role": "assistant", "content": "<think>\n\nlet me see\n\n</think>\n\n\nthe answer"}]`, false},
	{"reasoning_content", `[{"role": "user", "content": "q"}, {"role": "assistant", "content": "final", "reasoning_content": "\nweighing options\n"}]`, false},
	{"reasoning_content null", `[{"role": "user", "content": "q"}, {"role": "assistant", "content": "<think>x</think>y", "reasoning_content": null}]`, false},
	{"tools only", `[{"role": "user", "content": "Fix the bug in a.py"}]`, true},
	{"tools+system", `[{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "Fix a.py"}]`, true},
	{"agent loop", `[{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "Fix a.py"},
		{"role": "assistant", "content": "<think>\nI should read it.\n</think>\n\nReading.", "tool_calls": [{"type": "function", "function": {"name": "read", "arguments": {"path": "a.py"}}}]},
		{"role": "tool", "content": "def f(x):\n    return x+1\n", "tool_call_id": "c1", "name": "read"},
		{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "edit", "arguments": {"path": "a.py", "start": 2, "end": 2, "text": "    return x + 2 # \"fixed\" ✓", "ratio": 0.5, "dry": false, "tags": ["a", null]}}}, {"type": "function", "function": {"name": "submit", "arguments": {}}}]},
		{"role": "tool", "content": "ok"}, {"role": "tool", "content": "<tool_response>nested</tool_response>"}]`, true},
	{"agent loop answered", `[{"role": "user", "content": "Fix a.py"},
		{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "read", "arguments": "{\"path\": \"a.py\"}"}}]},
		{"role": "tool", "content": "data"}, {"role": "assistant", "content": "<think>done</think>It is fixed."}]`, true},
	{"tool response as user", `[{"role": "user", "content": "go"}, {"role": "assistant", "content": "calling", "tool_calls": [{"name": "read", "arguments": {"path": "b.py"}}]},
		{"role": "user", "content": "<tool_response>\nsecret\n</tool_response>"}]`, true},
	{"content null", `[{"role": "user", "content": "go"}, {"role": "assistant", "content": null, "tool_calls": [{"type": "function", "function": {"name": "submit", "arguments": {}}}]}]`, true},
	{"unicode and whitespace", `[{"role": "system", "content": "  leading and trailing  \n"}, {"role": "user", "content": "日本語 😀 naïve\r\n\ttab \"quotes\" \\ <|im_end|> {{ not jinja }}"}, {"role": "assistant", "content": "\n\nanswer with blank lines\n\n"}, {"role": "user", "content": ""}]`, false},
	{"think without open tag", `[{"role": "user", "content": "q"}, {"role": "assistant", "content": "reasoning only\n</think>\n\nanswer"}]`, false},
	{"empty think", `[{"role": "user", "content": "q1"}, {"role": "assistant", "content": "<think>\n\n</think>\n\na1"}, {"role": "user", "content": "q2"}, {"role": "assistant", "content": "<think>\n\n</think>\n\na2"}]`, false},
	{"system later", `[{"role": "user", "content": "a"}, {"role": "system", "content": "late system"}, {"role": "user", "content": "b"}]`, false},
}

// optionSets are the render options crossed with every conversation.
var optionSets = []struct {
	name string
	json string // fields added to the conversation object
}{
	{"plain", `"add_generation_prompt": false`},
	{"gen", `"add_generation_prompt": true`},
	{"gen think", `"add_generation_prompt": true, "enable_thinking": true`},
	{"gen no-think", `"add_generation_prompt": true, "enable_thinking": false`},
	{"no-think", `"add_generation_prompt": false, "enable_thinking": false`},
}

func qwenTemplate(t *testing.T) *Template {
	t.Helper()
	d, err := files.Find("")
	if err != nil {
		t.Fatalf("Qwen3 tokenizer files missing: run `make setup`: %v", err)
	}
	tm, err := Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// referenceContext is what transformers passes to the template for a conversation: the special
// tokens, tools and documents as None unless given, then the conversation's own fields.
func referenceContext(t *testing.T, tm *Template, conversation string) json.RawMessage {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("{")
	for _, k := range append(specialTokenKeys, "additional_special_tokens") {
		if v, ok := tm.special[k]; ok {
			enc, _ := json.Marshal(v)
			fmt.Fprintf(&b, "%q: %s, ", k, enc)
		}
	}
	b.WriteString(`"documents": null, `)
	if !strings.Contains(conversation, `"tools":`) {
		b.WriteString(`"tools": null, `)
	}
	b.WriteString(strings.TrimPrefix(conversation, "{"))
	if !json.Valid(b.Bytes()) {
		t.Fatalf("invalid reference context: %s", b.String())
	}
	return b.Bytes()
}

func TestParityRender(t *testing.T) {
	tm := qwenTemplate(t)
	ref, err := parity.FindReference()
	if err != nil {
		t.Fatal(err)
	}
	type rcase struct {
		name, conversation string
	}
	var cases []rcase
	for _, c := range conversations {
		for _, o := range optionSets {
			conv := `{"messages": ` + c.messages
			if c.tools {
				conv += `, "tools": ` + toolsJSON
			}
			conv += ", " + o.json + "}"
			cases = append(cases, rcase{c.name + " / " + o.name, conv})
		}
	}
	reqs := make([]parity.RenderRequest, len(cases))
	for i, c := range cases {
		reqs[i] = parity.RenderRequest{Template: tm.Source(), Context: referenceContext(t, tm, c.conversation)}
	}
	want, err := ref.Render(reqs)
	if err != nil {
		t.Fatal(err)
	}
	rendered, errored := 0, 0
	var prompts []string
	for i, c := range cases {
		got, err := tm.RenderJSON([]byte(c.conversation))
		if err == nil {
			prompts = append(prompts, got)
		}
		switch {
		case want[i].Error != "" && err == nil:
			t.Errorf("%s: the reference fails (%s) but Go rendered:\n%s", c.name, want[i].Error, got)
		case want[i].Error == "" && err != nil:
			t.Errorf("%s: Go fails: %v", c.name, err)
		case err != nil:
			errored++
		case got != want[i].Text:
			t.Errorf("%s: renders differ\n--- got\n%s\n--- want\n%s", c.name, got, want[i].Text)
		default:
			rendered++
		}
	}
	t.Logf("%d combinations: %d byte-identical renders, %d rejected by both engines", len(cases), rendered, errored)

	// The rendered prompts, with their special and tool-call tokens, must also tokenize alike.
	d, _ := files.Find("")
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	wantIDs, err := ref.Encode(d.Tokenizer(), prompts)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range prompts {
		if got := tok.Encode(p); fmt.Sprint(got) != fmt.Sprint(wantIDs[i].IDs) {
			t.Errorf("prompt %d tokenizes differently:\n%s\n got %v\nwant %v", i, p, got, wantIDs[i].IDs)
		}
	}
	if len(cases) < 40 {
		t.Errorf("only %d combinations", len(cases))
	}
}
