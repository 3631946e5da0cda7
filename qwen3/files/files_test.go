package files

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tokenizer.json", "tokenizer_config.json"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFind(t *testing.T) {
	tmp := t.TempDir()
	model := filepath.Join(tmp, "model")
	writeFiles(t, model)
	hub := filepath.Join(tmp, "hub")
	repo := filepath.Join(hub, "models--Qwen--Qwen3-0.6B")
	writeFiles(t, filepath.Join(repo, "snapshots", "aaa"))
	writeFiles(t, filepath.Join(repo, "snapshots", "bbb"))
	emptyHub := filepath.Join(tmp, "empty")

	for _, c := range []struct {
		name, modelDir, hub, refMain string
		wantPath, wantSource         string
		wantErr                      string
	}{
		{name: "model dir", modelDir: model, hub: hub, wantPath: model, wantSource: FromModelDir},
		{name: "model dir without files", modelDir: tmp, hub: hub, wantErr: "--model-dir"},
		{name: "cache with refs/main", hub: hub, refMain: "bbb\n", wantPath: filepath.Join(repo, "snapshots", "bbb"), wantSource: FromHFCache},
		{name: "cache, two snapshots, no ref", hub: hub, wantSource: FromProjectCache},
		{name: "no cache", hub: emptyHub, wantSource: FromProjectCache},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HF_HUB_CACHE", c.hub)
			ref := filepath.Join(repo, "refs", "main")
			os.RemoveAll(filepath.Dir(ref))
			if c.refMain != "" {
				os.MkdirAll(filepath.Dir(ref), 0o755)
				if err := os.WriteFile(ref, []byte(c.refMain), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Find(c.modelDir)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, ErrNotFound) {
					t.Fatalf("error %v, want ErrNotFound mentioning %q", err, c.wantErr)
				}
				return
			}
			if c.wantSource == FromProjectCache {
				// The project cache exists only after set-up; either way the cache was skipped.
				if err == nil && d.Source != FromProjectCache || err != nil && !errors.Is(err, ErrNotFound) {
					t.Fatalf("got %+v, %v; want the project cache or ErrNotFound", d, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Path != c.wantPath || d.Source != c.wantSource {
				t.Errorf("got %+v, want %s from %s", d, c.wantPath, c.wantSource)
			}
			if d.Tokenizer() != filepath.Join(c.wantPath, "tokenizer.json") {
				t.Errorf("Tokenizer() = %s", d.Tokenizer())
			}
		})
	}
}
