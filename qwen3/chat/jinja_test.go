package chat

import (
	"encoding/json"
	"testing"

	"github.com/agenticrl/course/qwen3/parity"
)

// jinjaSnippets are small templates that use the parts of Jinja chat templates rely on. Each is
// rendered by gonja (with this package's settings) and by @huggingface/jinja on the same context.
var jinjaSnippets = []struct{ name, src string }{
	{"negative index", `{{ messages[-1].role }}|{{ messages[-2].content }}|{{ "a".split("x")[-1] }}|{{ "a b".split()[-1] }}`},
	{"index out of range", `{{ 'T' if messages[5] is defined else 'F' }}|{{ 'T' if messages[-9] is defined else 'F' }}`},
	{"reverse slice", `{% for m in messages[::-1] %}{{ loop.index0 }}{{ m.role[0] }}{% endfor %}`},
	{"slices", `{{ messages[1:] | length }}|{{ messages[:1][0].role }}|{{ "abcdef"[1:3] }}|{{ "abcdef"[::-1] }}`},
	{"loop", `{% for m in messages %}{{ loop.index }}/{{ loop.length }}{{ 'F' if loop.first }}{{ 'L' if loop.last }}{{ loop.revindex0 }} {% endfor %}`},
	{"namespace", `{% set ns = namespace(n=0, found=false) %}{% for m in messages %}{% if m.role == "user" %}{% set ns.n = ns.n + 1 %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.n }} {{ 'T' if ns.found }}`},
	{"tests", `{% for t in [messages[0].content is string, messages[0].missing is defined, nothing is none, flag is false, flag is true, count is number, tools is iterable, messages[0] is mapping, count is string] %}{{ 'T' if t else 'F' }}{% endfor %}`},
	{"string methods", `{{ text.strip() }}|{{ text.lstrip() }}|{{ text.rstrip("\n ") }}|{{ text.strip("\n").split("\n") | length }}|{{ "a,b,,c".split(",") | length }}|{{ "a b c".split(" ", 1)[1] }}|{{ 'T' if text.startswith("\n") }}|{{ 'T' if text.endswith("! \n") }}|{{ "Hello".upper() }}{{ "Hello".lower() }}|{{ "a-b".replace("-", "+") }}`},
	{"in and not", `{% for t in ["<think>" in text, "x" not in text, "user" in ["user", "tool"], not flag] %}{{ 'T' if t else 'F' }}{% endfor %}`},
	{"concat and arithmetic", `{{ "a" ~ 1 ~ "b" }}|{{ "a" + "b" }}|{{ count + 1 }}|{{ count * 2 }}|{{ count // 2 }}|{{ count % 2 }}|{{ (messages | length) - 1 }}`},
	{"filters", `{{ messages | length }}|{{ text | trim }}|{{ messages | map(attribute="role") | join(",") }}|{{ messages | selectattr("role", "equalto", "user") | list | length }}|{{ "x" | default("d") }}{{ missing | default("d") }}`},
	{"tojson", `{{ tools | tojson }}|{{ messages[0] | tojson(indent=2) }}|{{ "é\"<&>" | tojson }}|{{ [1, none, true] | tojson }}`},
	{"whitespace control", "a  {%- if true %}\n  b\n  {%- endif %}  \n{{- ' c ' -}}\n  d\n{% if true %}\n    e\n{% endif %}\nf"},
	{"set block-less", `{% set x = messages[0] %}{{ x.role }}{% set y = x.content + "!" %}{{ y }}`},
	{"if elif else", `{% for m in messages %}{% if m.role == "user" %}U{% elif m.role == "assistant" %}A{% else %}O{% endif %}{% endfor %}`},
	{"dict access", `{{ messages[0]["role"] }}|{{ messages[0].get("role") }}|{{ messages[0].get("missing", "d") }}|{% for k, v in messages[0].items() %}{{ k }}={{ v }};{% endfor %}`},
	{"raise_exception", `{% if messages | length > 1 %}{{ raise_exception("too many") }}{% endif %}`},
	{"integers", `{{ count }} {{ 7 / 2 }} {{ 6 / 2 }} {{ -count }} {{ 'T' if count > 2 and count < 10 }}`},
	{"special tokens", `{{ eos_token }}|{{ pad_token }}|{{ 'T' if bos_token is defined else 'F' }}`},
	{"lstrip_blocks", "x {% if true %}y{% endif %} z\n  {% if true %}\n  a\n  {% if true %}b{% endif %}\n\t{# c #}\n{% endif %}\n"},
	{"generation markers", "a\n{% generation %}\nb {%- endgeneration %}\nc\n  {%- generation -%}  d {% endgeneration -%}\n e{% generation %}f{% endgeneration %}"},
	{"split forms", `{% for s in ["a b c".split(" ", 1), "a b c".split(" ", 0), "  a  b ".split(), "  a  b ".split(none, 1), "a,,b".split(","), "x".split(",")] %}{{ s | length }}:{% for p in s %}[{{ p }}]{% endfor %} {% endfor %}`},
}

func TestParityJinjaSnippets(t *testing.T) {
	tm := qwenTemplate(t)
	ref, err := parity.FindReference()
	if err != nil {
		t.Fatal(err)
	}
	conv := `{"messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}],
		"tools": [{"name": "f", "parameters": {"b": 1, "a": [2.5, "x"]}}], "text": "\n  Hello! \n", "flag": false, "count": 5, "nothing": null}`
	var reqs []parity.RenderRequest
	for _, s := range jinjaSnippets {
		reqs = append(reqs, parity.RenderRequest{Template: s.src, Context: referenceContext(t, tm, conv)})
	}
	want, err := ref.Render(reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range jinjaSnippets {
		snippet, err := New(s.src, tm.special)
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		got, err := snippet.RenderJSON([]byte(conv))
		switch {
		case want[i].Error != "" && err == nil:
			t.Errorf("%s: the reference fails (%s) but Go rendered %q", s.name, want[i].Error, got)
		case want[i].Error == "" && err != nil:
			t.Errorf("%s: Go fails: %v (the reference renders %q)", s.name, err, want[i].Text)
		case err == nil && got != want[i].Text:
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want[i].Text)
			t.Errorf("%s:\n got %s\nwant %s", s.name, g, w)
		}
	}
}

// TestPythonBehaviour pins what Python's Jinja renders where @huggingface/jinja renders
// something else (booleans, None) or lacks the feature (rsplit); the expected strings are
// Python's.
func TestPythonBehaviour(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{{ true }} {{ false }} {{ 1 == 1 }}`, "True False True"},
		{`{% for s in ["a b c".rsplit(" ", 1), "  a  b ".rsplit(none, 1), "a.b.c".rsplit(".")] %}{% for p in s %}[{{ p }}]{% endfor %} {% endfor %}`, "[a b][c] [  a][b] [a][b][c] "},
		{`{{ "\x1c a \x1f".strip() }}|{{ "a b".split()[-1] }}`, "a|b"},
	} {
		tm, err := New(c.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tm.RenderJSON([]byte(`{"messages": []}`))
		if err != nil || got != c.want {
			t.Errorf("%s = %q, %v; want %q", c.src, got, err, c.want)
		}
	}
}
