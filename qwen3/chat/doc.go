// Package chat renders conversations into Qwen3 prompts with the chat template a model ships in
// its tokenizer_config.json, and parses generated text back into tool calls.
//
// Templates are Jinja, rendered by gonja with the settings Hugging Face's transformers uses
// (trim_blocks and lstrip_blocks on, a raise_exception function) and with its own `tojson`
// replaced: Hugging Face's filter is Python's json.dumps with ensure_ascii=False, which keeps the
// insertion order of keys and writes ", " and ": " between items, while gonja's sorts keys and
// writes no spaces. Values reach the template as ordered dictionaries, so a tool definition or
// tool-call arguments come out of `tojson` exactly as they went in.
//
// Messages and tools are JSON-shaped, like the Python dicts a chat template is written for. The
// typed Message, ToolCall and Tool marshal to those dicts with their keys in the usual order;
// RenderJSON takes the dicts themselves, for conversations whose shape the types do not cover
// (content null, extra keys).
//
// gonja is patched where chat templates would notice a difference from Python's Jinja: x[-1]
// of a one-element list, split with maxsplit 1 or without a separator, strip without
// characters, replace without a count, dict.items() order, and lstrip_blocks after a tag on
// the same line (methods.go, template.go); transformers' {% generation %} markers render as
// nothing. One difference remains, shared with Hugging Face's
// JavaScript engine: {{ none }} prints nothing where Python prints "None".
//
// Numbers follow Python: a JSON number with a fraction or exponent is a float and prints as
// Python prints it (1.0 stays 1.0), an integer prints as an integer. Hugging Face's JavaScript
// engine, @huggingface/jinja, prints 1.0 as 1; the parity tests avoid such values.
package chat
