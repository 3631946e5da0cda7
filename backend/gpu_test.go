package backend

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSite lays out what pip installs for JAX's CUDA plugin: the plugin, two nvidia-* library
// folders, one folder without libraries, and libdevice with ptxas.
func fakeSite(t *testing.T) string {
	t.Helper()
	sp := filepath.Join(t.TempDir(), "site-packages")
	for _, f := range []string{
		"jax_plugins/xla_cuda13/xla_cuda_plugin.so", "nvidia/cublas/lib/libcublas.so.13",
		"nvidia/cudnn/lib/libcudnn.so.9", "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc",
		"nvidia/cuda_nvcc/bin/ptxas", "nvidia/headers_only/lib/README",
	} {
		p := filepath.Join(sp, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return sp
}

// runGPUScript runs gpu.sh with the given environment additions and returns its standard output
// and error output.
func runGPUScript(t *testing.T, env ...string) (string, string, error) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("gpu.sh needs python3:", err)
	}
	cmd := exec.Command("bash", "gpu.sh")
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return string(out), stderr.String(), err
}

// TestGPUScriptFindsPipCUDA: against a fake site-packages, gpu.sh prints the exports that the
// GPU run needs, each pointing into that tree, and a shell that evals them has them set.
func TestGPUScriptFindsPipCUDA(t *testing.T) {
	sp := fakeSite(t)
	plugin := filepath.Join(sp, "jax_plugins/xla_cuda13/xla_cuda_plugin.so")
	for name, env := range map[string][]string{
		"search":   {"AGENTRL_PYTHON_SITE=" + sp},
		"override": {"AGENTRL_PYTHON_SITE=" + t.TempDir(), "AGENTRL_PJRT_PLUGIN=" + plugin},
	} {
		t.Run(name, func(t *testing.T) {
			out, stderr, err := runGPUScript(t, env...)
			if err != nil {
				t.Fatalf("gpu.sh: %v\n%s", err, stderr)
			}
			check := exec.Command("bash", "-c", `eval "$1"; echo "$GOMLX_BACKEND|$LD_LIBRARY_PATH|$XLA_FLAGS|$GOPJRT_CUDA_CHECKS|$(command -v ptxas)"`, "-", out)
			check.Env = append(os.Environ(), "LD_LIBRARY_PATH=/before")
			got, err := check.Output()
			if err != nil {
				t.Fatalf("eval of\n%s: %v", out, err)
			}
			want := strings.Join([]string{"xla:" + plugin,
				sp + "/nvidia/cublas/lib:" + sp + "/nvidia/cudnn/lib:/before",
				"--xla_gpu_cuda_data_dir=" + sp + "/nvidia/cuda_nvcc", "0", sp + "/nvidia/cuda_nvcc/bin/ptxas"}, "|")
			if strings.TrimSpace(string(got)) != want {
				t.Errorf("after eval:\n got %s\nwant %s\nscript printed:\n%s", got, want, out)
			}
		})
	}
}

// TestGPUScriptNamesThePackage: without a plugin, gpu.sh prints no exports and says which pip
// package to install; a wrong override is named too.
func TestGPUScriptNamesThePackage(t *testing.T) {
	for name, c := range map[string]struct{ env, want string }{
		"no plugin":      {"AGENTRL_PYTHON_SITE=" + t.TempDir(), "jax-cuda13-pjrt"},
		"wrong override": {"AGENTRL_PJRT_PLUGIN=/nonexistent/xla_cuda_plugin.so", "/nonexistent/xla_cuda_plugin.so is not a file"},
	} {
		out, stderr, err := runGPUScript(t, c.env)
		if err == nil || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: want a failure naming %q and no exports; got %v, stdout %q, stderr %q", name, c.want, err, out, stderr)
		}
	}
}
