package checkout

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
)

// Module is the course's module path, the first line of the checkout's go.mod.
const Module = "github.com/agenticrl/course"

// Root is $AGENTRL_ROOT when set (the course's kernel sets it, so notebooks find the checkout
// wherever they run), else the nearest folder at or above the working directory whose go.mod
// declares Module.
func Root() (string, error) {
	if r := os.Getenv("AGENTRL_ROOT"); r != "" {
		return r, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(data, []byte("module "+Module+"\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the course's checkout (no go.mod of " + Module + " above the working directory); run from the checkout or set AGENTRL_ROOT")
		}
		dir = parent
	}
}

// SandboxMemo is the folder under root's local caches (.cache, never committed) where the gym's
// sandbox keeps test-run results for later processes: the course's kernel and `agentrl train`
// give it to sandbox.Options.MemoDir, so a chapter answers the runs an earlier one made.
func SandboxMemo(root string) string {
	return filepath.Join(root, ".cache", "sandbox-memo")
}

// BaselineCache is the folder under root's local caches where `agentrl train tinyagent` keeps the
// baselines' solve rates for later runs of the same tasks, settings, seed and binary.
func BaselineCache(root string) string {
	return filepath.Join(root, ".cache", "baselines")
}
