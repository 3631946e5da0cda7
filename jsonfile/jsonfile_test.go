package jsonfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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

// WriteData's layout: keys a line each, arrays without objects on one line, strings left alone
// (brackets, commas and escaped quotes inside them), and the same value when read back.
func TestWriteData(t *testing.T) {
	v := map[string]any{
		"a": []any{[]float64{1, 2.5}, []float64{}},
		"b": []any{map[string]any{"s": `x,[{"]}`}, 3},
		"c": map[string]any{},
		"d": "q\"uote",
	}
	p := filepath.Join(t.TempDir(), "d.json")
	if err := WriteData(p, v); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	want := "{\n \"a\": [[1,2.5],[]],\n \"b\": [\n  {\n   \"s\": \"x,[{\\\"]}\"\n  },\n  3\n ],\n \"c\": {},\n \"d\": \"q\\\"uote\"\n}\n"
	if string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
	var back, orig any
	ob, _ := json.Marshal(v)
	json.Unmarshal(ob, &orig)
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, orig) {
		t.Fatalf("read back %v (%v), want %v", back, err, orig)
	}
}
