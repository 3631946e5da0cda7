package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/backend"
)

func TestInstall(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".cache", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(root, t.TempDir()); err == nil || !strings.Contains(err.Error(), "make setup") {
		t.Fatalf("without GoNB: err = %v, want one saying to run make setup", err)
	}
	os.WriteFile(filepath.Join(root, ".cache", "bin", "gonb"), nil, 0o755)
	data := t.TempDir()
	path, err := Install(root, data)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(data, "kernels", Name, "kernel.json") {
		t.Errorf("spec written to %s", path)
	}
	raw, _ := os.ReadFile(path)
	var spec struct {
		Argv     []string          `json:"argv"`
		Language string            `json:"language"`
		Env      map[string]string `json:"env"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Argv[0] != filepath.Join(root, ".cache", "bin", "gonb") || spec.Argv[2] != "{connection_file}" || spec.Language != "go" {
		t.Errorf("argv = %v, language = %q", spec.Argv, spec.Language)
	}
	for k, v := range Env {
		if spec.Env[k] != v {
			t.Errorf("env %s = %q, want %q", k, spec.Env[k], v)
		}
	}
	if spec.Env["AGENTRL_ROOT"] != root {
		t.Errorf("AGENTRL_ROOT = %q", spec.Env["AGENTRL_ROOT"])
	}
	// The kernel must find the wrapper first, then a real go.
	path0, _, _ := strings.Cut(spec.Env["PATH"], ":")
	if path0 != filepath.Join(root, ".cache", "kernel", "bin") {
		t.Errorf("PATH starts with %s", path0)
	}
	if target, err := os.Readlink(filepath.Join(path0, "go")); err != nil || target != filepath.Join(root, "kernel", "go.sh") {
		t.Errorf("go wrapper link = %q, %v", target, err)
	}
	if st, err := os.Stat(spec.Env["AGENTRL_REAL_GO"]); err != nil || st.IsDir() {
		t.Errorf("AGENTRL_REAL_GO = %q: %v", spec.Env["AGENTRL_REAL_GO"], err)
	}
}

// TestSpecKeepsGoMLXOffAVX512: notebooks run with the variable the backend package names, so the
// numbers they record do not depend on the machine's instruction set.
func TestSpecKeepsGoMLXOffAVX512(t *testing.T) {
	if Env[backend.NoAVX512Env] != "false" {
		t.Errorf("the kernel's environment sets %s=%q, want false", backend.NoAVX512Env, Env[backend.NoAVX512Env])
	}
	if !backend.HasNoAVX512Godebug(Env["GODEBUG"]) {
		t.Errorf("the kernel's environment sets GODEBUG=%q, want %s in it", Env["GODEBUG"], backend.NoAVX512Godebug)
	}
}

// TestGPUSpec: with AGENTRL_GPU=1 the kernel gets the XLA plugin's variables, the xla build tag
// and cgo; without an XLA backend in the environment the request is refused with what to run.
func TestGPUSpec(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".cache", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".cache", "bin", "gonb"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(GPUEnv, "1")
	t.Setenv("GOMLX_BACKEND", "go")
	if _, err := Spec(root); err == nil || !strings.Contains(err.Error(), "backend/gpu.sh") {
		t.Fatalf("AGENTRL_GPU=1 without an XLA backend: %v", err)
	}
	t.Setenv("GOMLX_BACKEND", "xla:/site/jax_plugins/xla_cuda13/xla_cuda_plugin.so")
	t.Setenv("LD_LIBRARY_PATH", "/site/nvidia/cublas/lib")
	t.Setenv("XLA_FLAGS", "--xla_gpu_cuda_data_dir=/site/nvidia/cuda_nvcc")
	raw, err := Spec(root)
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Env map[string]string `json:"env"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"GOMLX_BACKEND": "xla:/site/jax_plugins/xla_cuda13/xla_cuda_plugin.so",
		"LD_LIBRARY_PATH": "/site/nvidia/cublas/lib", "XLA_FLAGS": "--xla_gpu_cuda_data_dir=/site/nvidia/cuda_nvcc",
		"GOFLAGS": "-tags=xla", "CGO_ENABLED": "1", "GOTOOLCHAIN": Env["GOTOOLCHAIN"]} {
		if spec.Env[k] != v {
			t.Errorf("env %s = %q, want %q", k, spec.Env[k], v)
		}
	}
	t.Setenv(GPUEnv, "")
	if raw, err = Spec(root); err != nil || strings.Contains(string(raw), "xla") {
		t.Errorf("without AGENTRL_GPU the spec names XLA: %v\n%s", err, raw)
	}
}
