package chat

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nikolalohinski/gonja/v2/exec"
)

func TestPythonFloat(t *testing.T) {
	// Expected strings are what Python 3 prints for repr(float(x)).
	for _, c := range []struct {
		in   float64
		want string
	}{
		{1, "1.0"}, {-0.5, "-0.5"}, {0.1, "0.1"}, {1e-4, "0.0001"}, {1e-5, "1e-05"}, {2e-7, "2e-07"},
		{1e15, "1000000000000000.0"}, {1e16, "1e+16"}, {1.5e300, "1.5e+300"}, {123456.789, "123456.789"},
		{0, "0.0"}, {1.0 / 3, "0.3333333333333333"},
	} {
		if got := pythonFloat(c.in); got != c.want {
			t.Errorf("pythonFloat(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestToJSON(t *testing.T) {
	// Expected strings are what transformers' tojson (json.dumps, ensure_ascii=False) returns.
	for _, c := range []struct {
		name, expr, vars, want string
	}{
		{"order and spaces", `{{ x | tojson }}`, `{"x": {"b": 1, "a": [true, null, 1.0, "é\n\"\\\u0001"]}}`, `{"b": 1, "a": [true, null, 1.0, "é\n\"\\\u0001"]}`},
		{"empty", `{{ x | tojson }}`, `{"x": {"a": {}, "b": []}}`, `{"a": {}, "b": []}`},
		{"indent", `{{ x | tojson(indent=2) }}`, `{"x": {"a": [1, 2], "b": {}}}`, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}"},
		{"separators", `{{ x | tojson(separators=(",", ":")) }}`, `{"x": {"a": [1, 2]}}`, `{"a":[1,2]}`},
		{"sort_keys", `{{ x | tojson(sort_keys=true) }}`, `{"x": {"b": 1, "a": 2}}`, `{"a": 2, "b": 1}`},
		{"ensure_ascii", `{{ x | tojson(ensure_ascii=true) }}`, `{"x": "é😀"}`, `"\u00e9\ud83d\ude00"`},
		{"duplicate key", `{{ x | tojson }}`, `{"x": {"a": 1, "b": 2, "a": 3}}`, `{"a": 3, "b": 2}`},
		{"literal dict", `{{ {"z": 1, "y": "<b>"} | tojson }}`, `{"x": 0}`, `{"z": 1, "y": "<b>"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm, err := New(c.expr, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tm.RenderJSON([]byte(strings.Replace(c.vars, "{", `{"messages": [], `, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestMessageJSON(t *testing.T) {
	m := Message{Role: "assistant", Content: "", ReasoningContent: "why",
		ToolCalls: []ToolCall{{Name: "read", Arguments: json.RawMessage(`{"z": 1, "a": "<x>"}`)}}}
	b, err := marshal(m) // json.Marshal, without escaping <, > and & as \u003c...
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"assistant","content":"","reasoning_content":"why","tool_calls":[{"type":"function","function":{"name":"read","arguments":{"z":1,"a":"<x>"}}}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// TestRenderTyped checks that the typed API renders what the equivalent JSON renders.
func TestRenderTyped(t *testing.T) {
	tm := qwenTemplate(t)
	no := false
	msgs := []Message{
		{Role: "system", Content: "You fix bugs."},
		{Role: "user", Content: "Fix a.py"},
		{Role: "assistant", Content: "Reading.", ReasoningContent: "I should read it.", ToolCalls: []ToolCall{{Name: "read", Arguments: json.RawMessage(`{"path": "a.py"}`)}}},
		{Role: "tool", Content: "def f(): pass", Name: "read"},
	}
	tools := []Tool{{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(`{"type": "object", "properties": {"path": {"type": "string"}}}`)}}
	got, err := tm.Render(msgs, Options{Tools: tools, AddGenerationPrompt: true, EnableThinking: &no})
	if err != nil {
		t.Fatal(err)
	}
	conv := `{"messages": [{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "Fix a.py"},
		{"role": "assistant", "content": "Reading.", "reasoning_content": "I should read it.", "tool_calls": [{"type": "function", "function": {"name": "read", "arguments": {"path": "a.py"}}}]},
		{"role": "tool", "content": "def f(): pass", "name": "read"}],
		"tools": [{"type": "function", "function": {"name": "read", "description": "Read a file.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}],
		"add_generation_prompt": true, "enable_thinking": false}`
	want, err := tm.RenderJSON([]byte(conv))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("typed render differs from JSON render\n--- got\n%s\n--- want\n%s", got, want)
	}
	for _, s := range []string{"<|im_start|>system\nYou fix bugs.\n\n# Tools", `{"name": "read", "arguments": {"path": "a.py"}}`, "<tool_response>\ndef f(): pass\n</tool_response>", "<|im_start|>assistant\n<think>\n\n</think>\n\n"} {
		if !strings.Contains(got, s) {
			t.Errorf("render lacks %q:\n%s", s, got)
		}
	}
}

func TestParseToolCalls(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []ToolCall
		errPart    string // substring of the error; "" for none
		errOffset  int
	}{
		{"none", "just an answer", nil, "", 0},
		{"one", "Let me look.\n<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a.py\", \"n\": 1}}\n</tool_call>",
			[]ToolCall{{"read", json.RawMessage(`{"path": "a.py", "n": 1}`)}}, "", 0},
		{"two", `<tool_call>{"name": "a", "arguments": {}}</tool_call> and <tool_call> {"arguments": {"x": [1]}, "name": "b"} </tool_call>`,
			[]ToolCall{{"a", json.RawMessage(`{}`)}, {"b", json.RawMessage(`{"x": [1]}`)}}, "", 0},
		{"bad json", "<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": }}\n</tool_call>", nil, "invalid JSON", 51},
		{"unclosed", `ok <tool_call>{"name": "a", "arguments": {}}`, nil, "never closed", 3},
		{"stray close", `<tool_call>{"name": "a", "arguments": {}}</tool_call></tool_call>`, []ToolCall{{"a", json.RawMessage(`{}`)}}, "without", 53},
		{"no name", `<tool_call>{"arguments": {}}</tool_call>`, nil, `"name"`, 11},
		{"string arguments", `<tool_call>{"name": "a", "arguments": "{}"}</tool_call>`, nil, `"arguments" must be a JSON object`, 11},
		{"trailing text", `<tool_call>{"name": "a", "arguments": {}} extra</tool_call>`, nil, "text after", 42},
		{"not an object", `<tool_call>[1, 2]</tool_call>`, nil, "not a JSON object", 11},
		{"empty", "<tool_call>\n</tool_call>", nil, "empty", 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseToolCalls(c.text)
			if len(got) != len(c.want) {
				t.Fatalf("got %d calls %v, want %d", len(got), got, len(c.want))
			}
			for i := range got {
				if got[i].Name != c.want[i].Name || string(got[i].Arguments) != string(c.want[i].Arguments) {
					t.Errorf("call %d = %s %s, want %s %s", i, got[i].Name, got[i].Arguments, c.want[i].Name, c.want[i].Arguments)
				}
			}
			if c.errPart == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var tce *ToolCallError
			if !errors.As(err, &tce) || !strings.Contains(err.Error(), c.errPart) {
				t.Fatalf("error %v, want a ToolCallError containing %q", err, c.errPart)
			}
			if tce.Offset != c.errOffset {
				t.Errorf("error offset %d, want %d (%v)", tce.Offset, c.errOffset, err)
			}
		})
	}
}

// TestRenderConcurrent renders from several goroutines at once; run with -race it checks the
// claim that a Template is safe for concurrent use.
func TestRenderConcurrent(t *testing.T) {
	tm := qwenTemplate(t)
	conv := []byte(`{"messages": [{"role": "user", "content": "hi"}], "tools": ` + toolsJSON + `, "add_generation_prompt": true}`)
	want, err := tm.RenderJSON(conv)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				got, err := tm.RenderJSON(conv)
				if err == nil && got != want {
					err = errors.New("concurrent render differs")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

func TestSplitThinking(t *testing.T) {
	tm := qwenTemplate(t)
	// Expected values follow the template's expressions content.split('</think>')[-1].lstrip('\n')
	// and content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n').
	for _, c := range []struct{ in, reasoning, answer string }{
		{"no thinking", "", "no thinking"},
		{"<think>\nplan\n</think>\n\nanswer", "plan", "answer"},
		{"<think>\n\n</think>\n\nanswer\n", "", "answer\n"},
		{"plan without open tag</think>answer", "plan without open tag", "answer"},
		{"<think>a</think>b</think>\nc", "a", "c"},
		{"<think>x<think>y\n</think>z", "y", "z"},
		{"<think>unfinished", "", "<think>unfinished"},
	} {
		r, a := SplitThinking(c.in)
		if r != c.reasoning || a != c.answer {
			t.Errorf("SplitThinking(%q) = %q, %q; want %q, %q", c.in, r, a, c.reasoning, c.answer)
		}
		// The template, rendering the message as the last turn, must show the same split.
		got, err := tm.Render([]Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: c.in}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := "<|im_start|>assistant\n<think>\n" + strings.Trim(r, "\n") + "\n</think>\n\n" + a + "<|im_end|>\n"
		if !strings.HasSuffix(got, want) {
			t.Errorf("template renders %q as\n%q\nwant suffix %q", c.in, got, want)
		}
	}
}

func TestLoadNamedTemplates(t *testing.T) {
	dir := t.TempDir()
	cfg := `{"eos_token": {"content": "<e>"}, "chat_template": [
		{"name": "default", "template": "D{{ messages | length }}{{ eos_token }}"},
		{"name": "tool_use", "template": "T{{ tools | length }}{{ eos_token }}"}]}`
	if err := os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	tm, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ conv, want string }{
		{`{"messages": [{"role": "user", "content": "x"}]}`, "D1<e>"},
		{`{"messages": [], "tools": [{"name": "f"}, {"name": "g"}]}`, "T2<e>"},
	} {
		if got, err := tm.RenderJSON([]byte(c.conv)); err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.conv, got, err, c.want)
		}
	}
	// chat_template.jinja, when present, is the template.
	if err := os.WriteFile(filepath.Join(dir, "chat_template.jinja"), []byte("J{{ eos_token }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if tm, err = Load(dir); err != nil {
		t.Fatal(err)
	}
	if got, _ := tm.RenderJSON([]byte(`{"messages": [], "tools": []}`)); got != "J<e>" {
		t.Errorf("with chat_template.jinja: %q", got)
	}
}

// A message whose content is null is refused by its index and role before the template runs,
// which would fail adding None to a string; an assistant message may have none (it calls tools).
func TestNullContent(t *testing.T) {
	for _, c := range []struct {
		conv string
		want string
	}{
		{`{"messages": [{"role": "user", "content": null}]}`, `messages[0] (role "user") has "content": null`},
		{`{"messages": [{"role": "user", "content": "a"}, {"role": "tool", "content": null}]}`, `messages[1] (role "tool") has "content": null`},
		{`{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": null}]}`, ""},
	} {
		v, err := decodeOrdered([]byte(c.conv))
		if err != nil {
			t.Fatal(err)
		}
		_, err = checkMessages(v.(*exec.Dict).Get(exec.AsValue("messages")).Interface())
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.conv, err, c.want)
		}
	}
}
