// Package spec writes the Jupyter kernel spec of the course: GoNB, with an environment that carries
// the Go toolchain settings GoMLX needs and makes every notebook's module resolve the course's own
// packages to one checkout (see kernel/go.sh).
package spec

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/gym/sandbox"
)

// Name is the kernel's name, as notebooks' metadata refers to it.
const Name = "agentrl-go"

// Env is the environment every Go build of the course needs: Go 1.27 (GoMLX v0.28 requires it)
// with SIMD (its fast CPU kernels), and GoMLX's pure-Go backend, never a plugin download, without
// AVX-512, in its kernels or in the Go runtime (the same numbers on every machine: see
// backend.NoAVX512Env and backend.NoAVX512Godebug).
var Env = map[string]string{
	"GOTOOLCHAIN":           "go1.27.3",
	"GOEXPERIMENT":          "simd",
	"GOMLX_NO_AUTO_INSTALL": "1",
	"GOMLX_BACKEND":         "go",
	"GOMLX_GO_SIMD_AVX512":  "false",           // backend.NoAVX512Env
	"GODEBUG":               "cpu.avx512f=off", // backend.NoAVX512Godebug
}

// Spec returns the kernel.json for the checkout at root, whose set-up put GoNB in root/.cache/bin.
func Spec(root string) ([]byte, error) {
	realGo, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("go is not on PATH: %w", err)
	}
	if realGo, err = filepath.EvalSymlinks(realGo); err != nil {
		return nil, err
	}
	if strings.HasPrefix(realGo, root) {
		return nil, fmt.Errorf("the go on PATH is the kernel's wrapper (%s): run from a shell, not a notebook", realGo)
	}
	bin := filepath.Join(root, ".cache", "bin")
	gonb := filepath.Join(bin, "gonb")
	if _, err := os.Stat(gonb); err != nil {
		return nil, fmt.Errorf("GoNB is not built (%v): run `make setup`", err)
	}
	home, _ := os.UserHomeDir()
	path := []string{filepath.Join(root, ".cache", "kernel", "bin"), bin, filepath.Dir(realGo), filepath.Join(home, "go", "bin"),
		"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}
	env := map[string]string{"PATH": strings.Join(path, ":"), "AGENTRL_ROOT": root, "AGENTRL_REAL_GO": realGo,
		sandbox.MemoDirEnv: checkout.SandboxMemo(root)}
	for k, v := range Env {
		env[k] = v
	}
	if err := gpuEnv(env); err != nil {
		return nil, err
	}
	spec := map[string]any{
		"argv":         []string{gonb, "--kernel", "{connection_file}", "--raw_error"},
		"display_name": "Go (agentrl course)",
		"language":     "go",
		"env":          env,
	}
	data, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// GPUEnv, set to 1 when the kernel is installed, makes the notebooks run on the XLA backend that
// the environment names (eval "$(bash backend/gpu.sh)" first): the kernel builds every cell with
// the xla tag and cgo, and gets the plugin's variables.
const GPUEnv = "AGENTRL_GPU"

// gpuVars are the variables backend/gpu.sh exports that a cell's process needs.
var gpuVars = []string{"GOMLX_BACKEND", "LD_LIBRARY_PATH", "XLA_FLAGS", "GOPJRT_CUDA_CHECKS"}

// gpuEnv adds to env what running the notebooks on XLA takes, when GPUEnv asks for it: the book's
// recorded outputs come from the pure-Go backend, so this is for a reader's own runs.
func gpuEnv(env map[string]string) error {
	if os.Getenv(GPUEnv) != "1" {
		return nil
	}
	if !strings.HasPrefix(os.Getenv("GOMLX_BACKEND"), "xla:") {
		return fmt.Errorf("%s=1 but GOMLX_BACKEND is %q, not an XLA plugin: run eval \"$(bash backend/gpu.sh)\" first (README, \"Using a GPU\")",
			GPUEnv, os.Getenv("GOMLX_BACKEND"))
	}
	for _, k := range gpuVars {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	env["GOFLAGS"], env["CGO_ENABLED"] = "-tags=xla", "1"
	return nil
}

// Install writes the kernel spec for root under dataDir/kernels/Name, and the `go` wrapper link
// its PATH starts with.
func Install(root, dataDir string) (string, error) {
	link := filepath.Join(root, ".cache", "kernel", "bin", "go")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return "", err
	}
	_ = os.Remove(link)
	if err := os.Symlink(filepath.Join(root, "kernel", "go.sh"), link); err != nil {
		return "", err
	}
	data, err := Spec(root)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(dataDir, "kernels", Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "kernel.json")
	return path, os.WriteFile(path, data, 0o644)
}

// UserDataDir is where Jupyter looks for a user's kernels: $JUPYTER_DATA_DIR, else
// ~/.local/share/jupyter.
func UserDataDir() string {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".local", "share", "jupyter")
}
