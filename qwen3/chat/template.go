package chat

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
)

// Template is a compiled chat template with the special tokens its tokenizer declares. It is safe
// for concurrent use.
type Template struct {
	source  string
	tmpl    *exec.Template
	special map[string]any // bos_token, eos_token, ... as transformers passes them
	toolUse *Template      // a "tool_use" template, used instead when tools are given
}

// Load reads the chat template of a model directory: chat_template.jinja when present (newer
// repositories keep it there, and transformers prefers it), otherwise the chat_template field of
// tokenizer_config.json. Special tokens always come from tokenizer_config.json.
func Load(dir string) (*Template, error) {
	cfgPath := filepath.Join(dir, "tokenizer_config.json")
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		return nil, fmt.Errorf("chat template: %w", err)
	}
	cfg, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("chat template: %s: %w", cfgPath, err)
	}
	if jinja, err := os.ReadFile(filepath.Join(dir, "chat_template.jinja")); err == nil {
		return New(string(jinja), cfg.special)
	}
	if cfg.template == "" {
		return nil, fmt.Errorf("chat template: %s has no chat_template and %s has no chat_template.jinja", cfgPath, dir)
	}
	t, err := New(cfg.template, cfg.special)
	if err != nil || cfg.toolUse == "" {
		return t, err
	}
	if t.toolUse, err = New(cfg.toolUse, cfg.special); err != nil {
		return nil, fmt.Errorf("tool_use %w", err)
	}
	return t, nil
}

type tokenizerConfig struct {
	template string
	toolUse  string // the "tool_use" one of named templates
	special  map[string]any
}

// specialTokenKeys are the special-token attributes transformers passes to a template when set.
var specialTokenKeys = []string{"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}

func parseConfig(data []byte) (tokenizerConfig, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return tokenizerConfig{}, err
	}
	var cfg tokenizerConfig
	if t, ok := raw["chat_template"]; ok {
		if err := json.Unmarshal(t, &cfg.template); err != nil {
			// A list of named templates: transformers uses "tool_use" when tools are given and
			// "default" otherwise.
			var named []struct{ Name, Template string }
			if err := json.Unmarshal(t, &named); err != nil {
				return cfg, fmt.Errorf("chat_template is neither a string nor a list of named templates")
			}
			for _, n := range named {
				switch n.Name {
				case "default":
					cfg.template = n.Template
				case "tool_use":
					cfg.toolUse = n.Template
				}
			}
		}
	}
	cfg.special = map[string]any{}
	for _, k := range specialTokenKeys {
		if tok := tokenContent(raw[k]); tok != "" {
			cfg.special[k] = tok
		}
	}
	if a, ok := raw["additional_special_tokens"]; ok {
		var list []json.RawMessage
		if json.Unmarshal(a, &list) == nil && len(list) > 0 {
			toks := make([]any, 0, len(list))
			for _, item := range list {
				toks = append(toks, tokenContent(item))
			}
			cfg.special["additional_special_tokens"] = toks
		}
	}
	return cfg, nil
}

// tokenContent reads a special token written either as a string or as {"content": ...}.
func tokenContent(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct{ Content string }
	if json.Unmarshal(raw, &obj) == nil {
		return obj.Content
	}
	return ""
}

// environment is gonja's default environment with Hugging Face's tojson and raise_exception, and
// string and dict methods that behave as Python's (methods.go).
var environment = func() *exec.Environment {
	filters := exec.NewFilterSet(map[string]exec.FilterFunction{}).Update(builtins.Filters)
	filters.Replace("tojson", filterToJSON)
	ctx := exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables).Update(exec.NewContext(map[string]any{
		"raise_exception": func(_ *exec.Evaluator, params *exec.VarArgs) (any, error) {
			msg := "raise_exception called"
			if len(params.Args) > 0 {
				msg = params.Args[0].String()
			}
			return nil, errors.New(msg)
		},
	}))
	methods := builtins.Methods
	methods.Str = strMethods()
	methods.Dict = dictMethods()
	return &exec.Environment{
		Context:           ctx,
		Filters:           filters,
		Tests:             builtins.Tests,
		ControlStructures: builtins.ControlStructures,
		Methods:           methods,
	}
}()

// lstripBlocks matches the spaces and tabs before a block or comment tag that starts a line,
// unless the tag opens with "+", which keeps them (Jinja's lstrip_blocks).
var lstripBlocks = regexp.MustCompile(`(?m)^[ \t]+(\{[%#](?:[^+]|$))`)

// generationTag matches transformers' {% generation %} and {% endgeneration %}, which only mark
// the assistant's part for return_assistant_tokens_mask and render as nothing.
var generationTag = regexp.MustCompile(`\{%([-+]?)\s*(?:end)?generation\s*([-+]?)%\}`)

// dropGenerationTags removes the generation markers, which gonja does not know, applying their
// whitespace control and trim_blocks as Jinja would have.
func dropGenerationTags(src string) string {
	var b strings.Builder
	last := 0
	for _, m := range generationTag.FindAllStringSubmatchIndex(src, -1) {
		before := src[last:m[0]]
		if src[m[2]:m[3]] == "-" {
			before = strings.TrimRightFunc(before, unicode.IsSpace)
		}
		b.WriteString(before)
		last = m[1]
		switch rest := src[last:]; src[m[4]:m[5]] {
		case "-":
			last += len(rest) - len(strings.TrimLeftFunc(rest, unicode.IsSpace))
		case "":
			if strings.HasPrefix(rest, "\n") { // trim_blocks
				last++
			}
		}
	}
	b.WriteString(src[last:])
	return b.String()
}

// New compiles a template source. special holds the variables transformers adds from the
// tokenizer's special tokens (eos_token and so on); it may be nil.
func New(source string, special map[string]any) (*Template, error) {
	// transformers compiles chat templates with trim_blocks and lstrip_blocks. gonja's
	// lstrip_blocks also strips the blanks between a tag and a block on the same line, so that
	// one is applied to the source here instead.
	cfg := config.New()
	cfg.TrimBlocks = true
	stripped := dropGenerationTags(lstripBlocks.ReplaceAllString(source, "$1"))
	sum := sha256.Sum256([]byte(stripped))
	id := "chat-template-" + hex.EncodeToString(sum[:8])
	fsLoader, err := loaders.NewFileSystemLoader("")
	if err != nil {
		return nil, err
	}
	loader, err := loaders.NewShiftedLoader(id, bytes.NewReader([]byte(stripped)), fsLoader)
	if err != nil {
		return nil, err
	}
	tmpl, err := exec.NewTemplate(id, cfg, loader, environment)
	if err != nil {
		return nil, fmt.Errorf("chat template: %w", err)
	}
	if special == nil {
		special = map[string]any{}
	}
	return &Template{source: source, tmpl: tmpl, special: special}, nil
}

// Source is the template's Jinja source.
func (t *Template) Source() string { return t.source }

// Options are the variables besides messages that a render passes to the template.
type Options struct {
	Tools               []Tool
	AddGenerationPrompt bool
	// EnableThinking is Qwen3's switch; nil leaves it undefined, which Qwen3 treats as true.
	EnableThinking *bool
	// Vars are further template variables (transformers' extra keyword arguments).
	Vars map[string]any
}

// Render renders messages with the options, as transformers' apply_chat_template(messages,
// tools=..., add_generation_prompt=..., tokenize=False, **vars) does.
func (t *Template) Render(messages []Message, opts Options) (string, error) {
	conv := Conversation{Messages: messages, Tools: opts.Tools, AddGenerationPrompt: opts.AddGenerationPrompt, EnableThinking: opts.EnableThinking}
	data, err := json.Marshal(conv)
	if err != nil {
		return "", fmt.Errorf("chat: %w", err)
	}
	return t.render(data, opts.Vars)
}

// RenderJSON renders a conversation given as JSON: an object with "messages" (a list of message
// dicts), optionally "tools", "add_generation_prompt", "enable_thinking" and any other template
// variables. Dicts keep their key order, and a key that is absent stays undefined in the template
// while null is None.
func (t *Template) RenderJSON(conversation []byte) (string, error) {
	return t.render(conversation, nil)
}

func (t *Template) render(conversation []byte, vars map[string]any) (string, error) {
	v, err := decodeOrdered(conversation)
	if err != nil {
		return "", fmt.Errorf("chat: parse conversation: %w", err)
	}
	d, ok := v.(*exec.Dict)
	if !ok {
		return "", errors.New("chat: the conversation must be a JSON object with a \"messages\" list")
	}
	ctx := map[string]any{}
	for k, tok := range t.special {
		ctx[k] = tok
	}
	// transformers always passes these three, as None when not given.
	ctx["tools"] = nil
	ctx["documents"] = nil
	ctx["add_generation_prompt"] = false
	for _, p := range d.Pairs {
		ctx[p.Key.String()] = p.Value.Interface()
	}
	for k, v := range vars {
		ctx[k] = v
	}
	messages, err := checkMessages(ctx["messages"])
	if err != nil {
		return "", fmt.Errorf("chat: %w", err)
	}
	tmpl := t.tmpl
	if t.toolUse != nil && ctx["tools"] != nil {
		tmpl = t.toolUse.tmpl
	}
	out, err := tmpl.ExecuteToString(exec.NewContext(ctx))
	if err != nil {
		return "", fmt.Errorf("chat: render: %s", failingMessage(tmpl, ctx, messages, err))
	}
	return out, nil
}

// roles are the message roles chat templates know (see Message).
var roles = map[string]bool{"system": true, "user": true, "assistant": true, "tool": true}

// checkMessages returns the conversation's messages, or an error naming the first one that is
// not a dict with a known role, or lacks a content it needs: templates skip unknown roles silently, and fail on
// a missing field with an error that names only a template line.
func checkMessages(v any) (list, error) {
	if v == nil {
		return nil, errors.New("the conversation has no \"messages\"")
	}
	messages, ok := v.(list)
	if !ok {
		return nil, errors.New("\"messages\" must be a list of message objects")
	}
	for i, m := range messages {
		d, ok := m.(*exec.Dict)
		if !ok {
			return nil, fmt.Errorf("messages[%d] is not an object", i)
		}
		role, _ := d.Get(exec.AsValue("role")).Interface().(string)
		if !roles[role] {
			return nil, fmt.Errorf("messages[%d] has role %q: want \"system\", \"user\", \"assistant\" or \"tool\"", i, role)
		}
		// An assistant message that only calls tools may leave its content out (templates
		// render it as empty); every other message has one.
		if role != "assistant" && !slices.ContainsFunc(d.Pairs, func(p *exec.Pair) bool { return p.Key.String() == "content" }) {
			return nil, fmt.Errorf("messages[%d] (role %q) has no \"content\"", i, role)
		}
		// A null content fails inside the template, with an error about adding None to a string.
		if role != "assistant" && d.Get(exec.AsValue("content")).IsNil() {
			return nil, fmt.Errorf("messages[%d] (role %q) has \"content\": null: want its text", i, role)
		}
	}
	return messages, nil
}

// failingMessage turns a template error into one that names the message it failed on: the first
// whose prefix of the conversation fails to render. Only the engine's innermost cause is kept;
// the chain of template lines above it says nothing about the input.
func failingMessage(tmpl *exec.Template, ctx map[string]any, messages list, err error) string {
	cause := err.Error()
	if i := strings.LastIndex(cause, "Unable to "); i >= 0 {
		if j := strings.Index(cause[i:], ": "); j >= 0 {
			cause = cause[i+j+2:]
		}
	}
	if len(messages) == 0 {
		return "with no messages: " + cause
	}
	prefix := maps.Clone(ctx)
	for k := range messages {
		prefix["messages"] = messages[:k+1]
		if _, err := tmpl.ExecuteToString(exec.NewContext(prefix)); err != nil {
			role := messages[k].(*exec.Dict).Get(exec.AsValue("role")).Interface()
			return fmt.Sprintf("messages[%d] (role %q): %s", k, role, cause)
		}
	}
	return cause
}
