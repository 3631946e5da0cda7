package backend

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gomlx/compute/support/envutil"
)

// TestNoAVX512EnvIsGoMLXs: the variable is the one GoMLX's pure-Go backend reads, so an upgrade
// that renames it fails here instead of silently bringing the AVX-512 kernels back.
func TestNoAVX512EnvIsGoMLXs(t *testing.T) {
	if NoAVX512Env != envutil.GoBackendSIMD_AVX512 {
		t.Errorf("NoAVX512Env = %q, GoMLX reads %q", NoAVX512Env, envutil.GoBackendSIMD_AVX512)
	}
}

// TestEnsureNoAVX512Restarts: a program started without the variable restarts itself with it.
func TestEnsureNoAVX512Restarts(t *testing.T) {
	if os.Getenv("BACKEND_TEST_CHILD") == "1" {
		if err := EnsureNoAVX512(); err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("variable=" + os.Getenv(NoAVX512Env) + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnsureNoAVX512Restarts$", "-test.v")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, NoAVX512Env+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "BACKEND_TEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "variable=false") {
		t.Errorf("child without the variable: %v\n%s", err, out)
	}
}
