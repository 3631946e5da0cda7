package checkout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoot(t *testing.T) {
	t.Setenv("AGENTRL_ROOT", "")
	want, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Root(); err != nil || got != want {
		t.Errorf("from the package folder: got %q, %v; want %q", got, err, want)
	}
	t.Setenv("AGENTRL_ROOT", "/somewhere")
	if got, _ := Root(); got != "/somewhere" {
		t.Errorf("with AGENTRL_ROOT: got %q", got)
	}
	// Outside a checkout, and inside a module that is not the course's.
	t.Setenv("AGENTRL_ROOT", "")
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644)
	t.Chdir(other)
	if _, err := Root(); err == nil || !strings.Contains(err.Error(), "AGENTRL_ROOT") {
		t.Errorf("outside the checkout: got %v, want an error that names AGENTRL_ROOT", err)
	}
}
