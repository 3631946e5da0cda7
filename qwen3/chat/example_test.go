package chat_test

import (
	"encoding/json"
	"fmt"

	"github.com/agenticrl/course/qwen3/chat"
	"github.com/agenticrl/course/qwen3/files"
)

func Example() {
	d, err := files.Find("")
	if err != nil {
		fmt.Println(err)
		return
	}
	tm, err := chat.Load(d.Path)
	if err != nil {
		fmt.Println(err)
		return
	}
	off := false
	prompt, err := tm.Render([]chat.Message{
		{Role: "user", Content: "Fix a.py"},
		{Role: "assistant", Content: "", ToolCalls: []chat.ToolCall{{Name: "read", Arguments: json.RawMessage(`{"path": "a.py"}`)}}},
		{Role: "tool", Content: "def f(x): return x+1"},
	}, chat.Options{AddGenerationPrompt: true, EnableThinking: &off})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(prompt)

	calls, err := chat.ParseToolCalls("<tool_call>\n{\"name\": \"edit\", \"arguments\": {\"line\": 1, \"text\": \"return x+2\"}}\n</tool_call>")
	fmt.Println(calls[0].Name, string(calls[0].Arguments), err)
	// Output:
	// <|im_start|>user
	// Fix a.py<|im_end|>
	// <|im_start|>assistant
	// <tool_call>
	// {"name": "read", "arguments": {"path": "a.py"}}
	// </tool_call><|im_end|>
	// <|im_start|>user
	// <tool_response>
	// def f(x): return x+1
	// </tool_response><|im_end|>
	// <|im_start|>assistant
	// <think>
	//
	// </think>
	//
	// edit {"line": 1, "text": "return x+2"} <nil>
}
