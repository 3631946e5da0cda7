package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Message is one turn of a conversation. It marshals to the dict chat templates expect, keys in
// this order, empty optional fields left out:
//
//	{"role": ..., "content": ..., "reasoning_content": ..., "tool_calls": [...], "tool_call_id": ..., "name": ...}
type Message struct {
	Role    string // "system", "user", "assistant" or "tool"
	Content string
	// ReasoningContent is an assistant's thinking, rendered inside <think> by Qwen3's template.
	ReasoningContent string
	ToolCalls        []ToolCall
	ToolCallID       string // for role "tool": the call this is the response to
	Name             string // for role "tool": the tool's name
}

// ToolCall is a call an assistant message makes. It marshals as
// {"type": "function", "function": {"name": ..., "arguments": {...}}}.
type ToolCall struct {
	Name string
	// Arguments is the arguments object as JSON text; its key order is kept when rendered.
	Arguments json.RawMessage
}

// Tool is a function the model may call. It marshals as
// {"type": "function", "function": {"name": ..., "description": ..., "parameters": {...}}}.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the arguments, as JSON text; its key order is kept.
	Parameters json.RawMessage
}

// Conversation is the JSON object RenderJSON reads and `agentrl qwen3 chat --render` takes.
type Conversation struct {
	Messages            []Message
	Tools               []Tool
	AddGenerationPrompt bool
	EnableThinking      *bool // nil: undefined
}

// object writes a JSON object with keys in the order given; a nil value leaves its key out.
type object []field

type field struct {
	key   string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, f := range o {
		if f.value == nil {
			continue
		}
		v, err := marshal(f.value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.key, err)
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping, so that "<tool_call>" stays as written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// optional returns v, or nil (the key is left out) when it is the zero value.
func optional[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}

func rawOrEmpty(r json.RawMessage) any {
	if len(bytes.TrimSpace(r)) == 0 {
		return json.RawMessage("{}")
	}
	return r
}

// MarshalJSON writes the message as the dict chat templates read.
func (m Message) MarshalJSON() ([]byte, error) {
	var calls any
	if len(m.ToolCalls) > 0 {
		calls = m.ToolCalls
	}
	return object{
		{"role", m.Role},
		{"content", m.Content},
		{"reasoning_content", optional(m.ReasoningContent)},
		{"tool_calls", calls},
		{"tool_call_id", optional(m.ToolCallID)},
		{"name", optional(m.Name)},
	}.MarshalJSON()
}

// MarshalJSON writes the call in the OpenAI shape transformers documents for chat templates.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	return object{
		{"type", "function"},
		{"function", object{{"name", c.Name}, {"arguments", rawOrEmpty(c.Arguments)}}},
	}.MarshalJSON()
}

// MarshalJSON writes the tool in the OpenAI shape transformers documents for chat templates.
func (t Tool) MarshalJSON() ([]byte, error) {
	return object{
		{"type", "function"},
		{"function", object{
			{"name", t.Name},
			{"description", optional(t.Description)},
			{"parameters", rawOrEmpty(t.Parameters)},
		}},
	}.MarshalJSON()
}

// MarshalJSON writes the conversation; tools and enable_thinking only when given.
func (c Conversation) MarshalJSON() ([]byte, error) {
	var tools, thinking any
	if len(c.Tools) > 0 {
		tools = c.Tools
	}
	if c.EnableThinking != nil {
		thinking = *c.EnableThinking
	}
	msgs := c.Messages
	if msgs == nil {
		msgs = []Message{}
	}
	return object{
		{"messages", msgs},
		{"tools", tools},
		{"add_generation_prompt", c.AddGenerationPrompt},
		{"enable_thinking", thinking},
	}.MarshalJSON()
}
