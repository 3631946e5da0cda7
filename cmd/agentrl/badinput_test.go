package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badInput is one wrong invocation of a command and what its error must say.
type badInput struct {
	name  string
	args  []string
	usage bool   // the error must be a usage error (exit 2), or else must not be one (exit 1)
	msg   string // the error's first line must contain this: the input at fault
}

// checkBadInputs runs each case and checks that it fails with one line naming the input.
func checkBadInputs(t *testing.T, run func([]string) error, cases []badInput) {
	t.Helper()
	old := stderr
	stderr = io.Discard // usage listings
	defer func() { stderr = old }()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := run(c.args)
			if err == nil {
				t.Fatalf("%q succeeded; want an error", c.args)
			}
			if errors.Is(err, errUsage) != c.usage {
				t.Errorf("%q: %q is a usage error: %v, want %v", c.args, err, errors.Is(err, errUsage), c.usage)
			}
			first, _, _ := strings.Cut(report("cmd", err), "\n")
			if !strings.Contains(first, c.msg) {
				t.Errorf("%q: first line %q lacks %q", c.args, first, c.msg)
			}
		})
	}
}

func TestBookBadInput(t *testing.T) {
	t.Setenv("AGENTRL_ROOT", "../..")
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, []byte("x"), 0o644)
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "mine.txt"), []byte("x"), 0o644)
	checkBadInputs(t, bookMain, []badInput{
		{"no subcommand", nil, true, "a subcommand is required"},
		{"unknown subcommand", []string{"publish"}, true, `unknown subcommand "publish"`},
		{"no such chapter", []string{"check", "ch99"}, true, `no notebook matches "ch99"`},
		{"bad timeout", []string{"check", "--timeout", "soon"}, true, `invalid value "soon" for flag -timeout`},
		{"negative slowest", []string{"check", "--slowest", "-1"}, true, "-slowest -1"},
		{"notebooks folder missing", []string{"check", "--notebooks", "/no/such/folder"}, false, "/no/such/folder"},
		{"library with arguments", []string{"build-library", "ch01"}, true, "takes no arguments"},
		{"site over a folder of other files", []string{"site", "--out", full}, false, full + " is not empty and holds no earlier site export"},
		{"site under a file", []string{"site", "--out", filepath.Join(notADir, "site")}, false, notADir},
		{"kernel with arguments", []string{"kernel", "now"}, true, "kernel"},
		{"zh without a subcommand", []string{"zh"}, true, "a subcommand is required"},
		{"zh with an unknown subcommand", []string{"zh", "translate"}, true, `unknown subcommand "translate"`},
		{"zh apply without a worklist", []string{"zh", "apply", "ch00"}, true, "apply needs a chapter and at least one worklist"},
		{"zh check of no chapter", []string{"zh", "check", "ch99"}, true, `no notebook matches "ch99"`},
		{"zh sync with a flag", []string{"zh", "sync", "--all"}, true, "unknown flag --all"},
		{"sources without a subcommand", []string{"sources"}, true, "book sources takes check or build"},
		{"sources with an unknown subcommand", []string{"sources", "fix"}, true, "book sources takes check or build"},
	})
}

func TestCourseBadInput(t *testing.T) {
	checkBadInputs(t, courseMain, []badInput{
		{"port zero", []string{"--port", "0"}, true, "--port 0 is out of range"},
		{"port too large", []string{"--port", "70000"}, true, "--port 70000 is out of range"},
		{"port not a number", []string{"--port", "http"}, true, `invalid value "http" for flag -port`},
		{"unknown flag", []string{"--browser"}, true, "-browser"},
		{"unknown edition", []string{"--edition", "fr"}, true, `--edition "fr": want en or zh`},
	})
}

func TestQwen3BadInput(t *testing.T) {
	dir := t.TempDir()
	conv := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	// Template errors need the tokenizer's template: the checkout's copy, made by set-up.
	model := filepath.Join("..", "..", ".cache", "qwen3")
	checkBadInputs(t, qwen3Main, []badInput{
		{"no subcommand", nil, true, "a subcommand is required"},
		{"unknown subcommand", []string{"train"}, true, `unknown subcommand "train"`},
		{"unknown flag", []string{"tokenize", "--vocab", "x"}, true, "-vocab"},
		{"conversation missing", []string{"chat", "--render", "/no/such.json"}, false, "/no/such.json"},
		{"conversation not JSON", []string{"chat", "--model-dir", model, "--render", conv("a.json", "hello")}, false, "parse conversation"},
		{"conversation a list", []string{"chat", "--model-dir", model, "--render", conv("b.json", `[{"role":"user","content":"hi"}]`)}, false, `"messages" list`},
		{"no messages", []string{"chat", "--model-dir", model, "--render", conv("c.json", `{"messages":[]}`)}, false, "with no messages"},
		{"unknown role", []string{"chat", "--model-dir", model, "--render", conv("d.json", `{"messages":[{"role":"user","content":"a"},{"role":"robot","content":"b"}]}`)}, false, `messages[1] has role "robot"`},
		{"no content", []string{"chat", "--model-dir", model, "--render", conv("e.json", `{"messages":[{"role":"user"}]}`)}, false, `messages[0] (role "user") has no "content"`},
		{"content not text", []string{"chat", "--model-dir", model, "--render", conv("f.json", `{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":5}]}`)}, false, `messages[2] (role "user")`},
		{"ids not numbers", []string{"logprobs", "--model-dir", dir, "--ids", "1,x"}, true, `--ids: "x" is not a token id`},
		{"negative id", []string{"logprobs", "--model-dir", dir, "--ids", "1,-2"}, true, `--ids: "-2" is not a token id`},
		{"model folder missing", []string{"logprobs", "--model-dir", "/no/such/model", "--ids", "1,2"}, true, "--model-dir /no/such/model is not a folder: want a folder holding config.json"},
		{"model folder without config", []string{"logprobs", "--model-dir", dir, "--ids", "1,2"}, true, "has no config.json"},
		{"generate without a model folder", []string{"generate", "--model-dir", "/no/such/model", "--prompt-file", conv("g.json", `{"messages":[{"role":"user","content":"a"}]}`)}, true, "--model-dir /no/such/model is not a folder"},
		{"temperature NaN", []string{"generate", "--model-dir", dir, "--prompt-file", "x.json", "--temperature", "NaN"}, true, "--temperature NaN is out of range"},
		{"temperature negative", []string{"generate", "--model-dir", dir, "--prompt-file", "x.json", "--temperature", "-1"}, true, "--temperature -1 is out of range"},
		{"no new tokens", []string{"generate", "--model-dir", dir, "--prompt-file", "x.json", "--max-new", "0"}, true, "--max-new 0 is out of range"},
		{"init-tiny without a folder", []string{"init-tiny"}, true, "give the directory once"},
	})
}
