package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

func TestQwen3Generate(t *testing.T) {
	d, err := files.Find("")
	if err != nil {
		t.Fatalf("Qwen3 tokenizer files missing: run `make setup`: %v", err)
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	modelDir := filepath.Join(dir, "tiny")
	if err := runQwen3Sub("init-tiny", "--hidden", "16", "--dtype", "f32", modelDir); err != nil {
		t.Fatal(err)
	}
	chatFile := filepath.Join(dir, "chat.json")
	conv := `{"messages": [{"role": "user", "content": "Which file fails?"}], "add_generation_prompt": true, "enable_thinking": false}`
	if err := os.WriteFile(chatFile, []byte(conv), 0o644); err != nil {
		t.Fatal(err)
	}

	var out, summary bytes.Buffer
	saved := stderr
	defer func() { stderr = saved }()
	stderr = &summary
	args := generateArgs{modelDir: modelDir, promptFile: chatFile, logProbs: true}
	args.opts.MaxNew = 6
	args.opts.Temperature = 0.9
	args.opts.Seed = 4
	if err := runGenerate(&out, args); err != nil {
		t.Fatal(err)
	}
	t.Logf("output:\n%s%s", out.String(), summary.String())
	// A header, one row per generated token, then the decoded reply on one line per line of text.
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "  pos") || !strings.Contains(lines[0], "sampled") {
		t.Fatalf("header %q", lines[0])
	}
	var ids []int
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) < 4 || f[0] != strconv.Itoa(len(ids)+1) {
			break
		}
		id, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("row %q: %v", l, err)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 || len(ids) > args.opts.MaxNew {
		t.Fatalf("%d token rows, want 1..%d", len(ids), args.opts.MaxNew)
	}
	reply := ids
	if !strings.Contains(summary.String(), "reached --max-new") {
		reply = ids[:len(ids)-1]
	}
	if got, want := strings.Join(lines[1+len(ids):], "\n"), tok.Decode(reply)+"\n"; got != want {
		t.Errorf("reply %q, want the decoded tokens %q", got, want)
	}
	if !strings.Contains(summary.String(), strconv.Itoa(len(ids))+" generated") {
		t.Errorf("summary %q does not count %d generated tokens", summary.String(), len(ids))
	}

	if err := runQwen3Sub("logprobs", "--model-dir", modelDir, "--text", "<|im_start|>user\nhi<|im_end|>"); err != nil {
		t.Error(err)
	}
	bad := [][]string{
		{"generate", "--model-dir", modelDir},
		{"generate", "--prompt-file", chatFile},
		{"generate", "--model-dir", modelDir, "--prompt-file", chatFile, "--max-new", "0"},
		{"generate", "--model-dir", modelDir, "--prompt-file", chatFile, "--temperature", "-1"},
		{"generate", "--model-dir", modelDir, "--prompt-file", chatFile, "--temperature", "NaN"},
		{"generate", "--model-dir", modelDir, "--prompt-file", chatFile, "--temperature", "Inf"},
		{"logprobs", "--model-dir", modelDir, "--text", "hi", "--ids", "1,2"},
		{"logprobs", "--model-dir", modelDir, "--text", "x"}, // one token
	}
	for _, a := range bad {
		if err := runQwen3Sub(a...); !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error", a, err)
		}
	}
}
