package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

func TestTokenizeJSONL(t *testing.T) {
	d, err := files.Find("")
	if err != nil {
		t.Fatalf("Qwen3 tokenizer files missing: run `make setup`: %v", err)
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"Hello, world!", "", "<|im_start|>user\nhi<|im_end|>\n", "日本語 😀"}
	var in bytes.Buffer
	for i := 0; i < 1500; i++ { // more than one batch
		b, _ := json.Marshal(texts[i%len(texts)])
		in.Write(append(b, '\n'))
	}
	var out bytes.Buffer
	if err := tokenizeJSONL(tok, &in, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1500 {
		t.Fatalf("%d output lines, want 1500", len(lines))
	}
	for i, l := range lines {
		want, _ := json.Marshal(tok.Encode(texts[i%len(texts)]))
		if texts[i%len(texts)] == "" {
			want = []byte("[]")
		}
		if l != string(want) {
			t.Fatalf("line %d = %s, want %s", i+1, l, want)
		}
	}

	err = tokenizeJSONL(tok, strings.NewReader("\"ok\"\nnot json\n"), &out)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad input line: error %v, want one naming line 2", err)
	}
}
