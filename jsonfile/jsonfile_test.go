package jsonfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file whole, mode 0644, leaves no temporary file, and fails on a missing folder.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	os.WriteFile(p, []byte("old and longer than the new content"), 0o600)
	if err := Write(p, map[string]int{"x": 1}, ""); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	entries, _ := os.ReadDir(dir)
	if string(b) != "{\"x\":1}\n" || st.Mode().Perm() != 0o644 || len(entries) != 1 {
		t.Fatalf("got %q, mode %v, %d files", b, st.Mode().Perm(), len(entries))
	}
	if err := Write(p, []int{1}, " "); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "[\n 1\n]\n" {
		t.Fatalf("indented: %q", b)
	}
	if err := Write(filepath.Join(dir, "no", "b.json"), 1, ""); err == nil {
		t.Error("a missing folder gave no error")
	}
}
