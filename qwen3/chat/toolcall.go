package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The tags Qwen3 writes around a tool call: `<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>`.
const (
	ToolCallOpen  = "<tool_call>"
	ToolCallClose = "</tool_call>"
)

// ToolCallError says which tool call in a generated text is malformed, where, and why.
type ToolCallError struct {
	Index  int    // 0-based index of the call in the text
	Offset int    // byte offset in the text where the problem was found
	Reason string // what is wrong
	Err    error  // the JSON error, if any
}

func (e *ToolCallError) Error() string {
	return fmt.Sprintf("tool call %d at byte %d: %s", e.Index, e.Offset, e.Reason)
}

func (e *ToolCallError) Unwrap() error { return e.Err }

// ParseToolCalls extracts the tool calls from text a model generated, in order. Each must be a
// JSON object with a string "name" and an object "arguments" between <tool_call> and
// </tool_call>. On a malformed call it returns the calls before it and a *ToolCallError. Text
// outside the tags is ignored; no tags at all gives no calls and no error.
func ParseToolCalls(text string) ([]ToolCall, error) {
	var calls []ToolCall
	pos := 0
	for i := 0; ; i++ {
		open := strings.Index(text[pos:], ToolCallOpen)
		if stray := strings.Index(text[pos:], ToolCallClose); stray >= 0 && (open < 0 || stray < open) {
			return calls, &ToolCallError{Index: i, Offset: pos + stray, Reason: ToolCallClose + " without " + ToolCallOpen}
		}
		if open < 0 {
			return calls, nil
		}
		start := pos + open + len(ToolCallOpen)
		end := strings.Index(text[start:], ToolCallClose)
		if end < 0 {
			return calls, &ToolCallError{Index: i, Offset: pos + open, Reason: ToolCallOpen + " is never closed"}
		}
		body := text[start : start+end]
		if nested := strings.Index(body, ToolCallOpen); nested >= 0 {
			return calls, &ToolCallError{Index: i, Offset: start + nested, Reason: ToolCallOpen + " inside a tool call"}
		}
		call, err := parseCall(body, start)
		if err != nil {
			err.Index = i
			return calls, err
		}
		calls = append(calls, call)
		pos = start + end + len(ToolCallClose)
	}
}

// parseCall parses the JSON between the tags; base is its offset in the whole text.
func parseCall(body string, base int) (ToolCall, *ToolCallError) {
	trimmed := strings.TrimLeft(body, " \t\r\n")
	base += len(body) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, " \t\r\n")
	if trimmed == "" {
		return ToolCall{}, &ToolCallError{Offset: base, Reason: "empty tool call"}
	}
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(trimmed))
	if err := dec.Decode(&fields); err != nil {
		off := base
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn) && syn.Offset > 0:
			off += int(syn.Offset) - 1 // the offending byte, not the one after it
		case errors.As(err, &typ):
			return ToolCall{}, &ToolCallError{Offset: off, Reason: "not a JSON object: " + snippet(trimmed), Err: err}
		}
		return ToolCall{}, &ToolCallError{Offset: off, Reason: fmt.Sprintf("invalid JSON (%v): %s", err, snippet(trimmed)), Err: err}
	}
	if end := int(dec.InputOffset()); end < len(trimmed) {
		rest := strings.TrimLeft(trimmed[end:], " \t\r\n")
		return ToolCall{}, &ToolCallError{Offset: base + len(trimmed) - len(rest), Reason: "text after the JSON object: " + snippet(rest)}
	}
	var name string
	if raw, ok := fields["name"]; !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		return ToolCall{}, &ToolCallError{Offset: base, Reason: `"name" must be a non-empty string`}
	}
	args, ok := fields["arguments"]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(args), []byte("{")) {
		return ToolCall{}, &ToolCallError{Offset: base, Reason: fmt.Sprintf(`tool %q: "arguments" must be a JSON object`, name)}
	}
	return ToolCall{Name: name, Arguments: args}, nil
}

func snippet(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// SplitThinking separates an assistant's generated text into its reasoning and its answer, the
// way Qwen3's chat template does when it re-renders such a message: with a </think> in the text,
// the answer is what follows the last </think> without its leading newlines, and the reasoning
// is what precedes the first </think>, after the last <think> before it, without newlines at
// either end. Text without </think> is all answer.
func SplitThinking(text string) (reasoning, answer string) {
	first := strings.Index(text, "</think>")
	if first < 0 {
		return "", text
	}
	last := strings.LastIndex(text, "</think>")
	answer = strings.TrimLeft(text[last+len("</think>"):], "\n")
	before := strings.TrimRight(text[:first], "\n")
	if open := strings.LastIndex(before, "<think>"); open >= 0 {
		before = before[open+len("<think>"):]
	}
	return strings.TrimLeft(before, "\n"), answer
}
