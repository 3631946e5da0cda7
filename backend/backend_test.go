package backend

import (
	"fmt"
	"os"
	"os/exec"
	"simd/archsimd"
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

// TestEnsureNoAVX512Restarts: a program started without the variable, or without the GODEBUG
// setting, restarts itself with both, keeps the GODEBUG settings it had, and then sees no
// AVX-512.
func TestEnsureNoAVX512Restarts(t *testing.T) {
	if os.Getenv("BACKEND_TEST_CHILD") == "1" {
		if err := EnsureNoAVX512(); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("variable=%s godebug=%s avx512=%v\n", os.Getenv(NoAVX512Env), os.Getenv("GODEBUG"), archsimd.X86.AVX512())
		return
	}
	for _, c := range []struct {
		name, variable, godebug, want string
	}{
		{"neither", "", "", "variable=false godebug=cpu.avx512f=off avx512=false"},
		{"only the variable", "false", "", "variable=false godebug=cpu.avx512f=off avx512=false"},
		{"other GODEBUG settings", "false", "madvdontneed=1", "variable=false godebug=madvdontneed=1,cpu.avx512f=off avx512=false"},
		{"AVX-512 asked for", "", "cpu.avx512f=on", "variable=false godebug=cpu.avx512f=on,cpu.avx512f=off avx512=false"},
		{"both", "false", "cpu.avx512f=off", "variable=false godebug=cpu.avx512f=off avx512=false"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnsureNoAVX512Restarts$", "-test.v")
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, NoAVX512Env+"=") && !strings.HasPrefix(kv, "GODEBUG=") {
				env = append(env, kv)
			}
		}
		if c.variable != "" {
			env = append(env, NoAVX512Env+"="+c.variable)
		}
		if c.godebug != "" {
			env = append(env, "GODEBUG="+c.godebug)
		}
		cmd.Env = append(env, "BACKEND_TEST_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), c.want+"\n") {
			t.Errorf("%s: want %q: %v\n%s", c.name, c.want, err, out)
		}
	}
}

// TestHasNoAVX512Godebug: the setting counts wherever it stands, and only if no later setting of
// the same key undoes it.
func TestHasNoAVX512Godebug(t *testing.T) {
	for godebug, want := range map[string]bool{
		"": false, "cpu.avx512f=off": true, "gctrace=1,cpu.avx512f=off": true,
		"cpu.avx512f=off,cpu.avx512f=on": false, "cpu.avx512f=on,cpu.avx512f=off": true, "cpu.avx2=off": false,
	} {
		if got := HasNoAVX512Godebug(godebug); got != want {
			t.Errorf("HasNoAVX512Godebug(%q) = %v, want %v", godebug, got, want)
		}
	}
}

// TestWithTF32: the option replaces any tf32 setting of the configuration, exact float32 is
// asked of XLA alone, and TF32 is refused where no CUDA plugin provides it.
func TestWithTF32(t *testing.T) {
	const cuda = "xla:/sp/jax_plugins/xla_cuda13/xla_cuda_plugin.so"
	for _, c := range []struct {
		config string
		on     bool
		want   string // "" for an error
	}{
		{cuda, false, cuda + ",notf32"},
		{cuda, true, cuda + ",tf32"},
		{cuda + ",tf32=true,preallocate=false", false, cuda + ",preallocate=false,notf32"},
		{cuda + ",notf32", true, cuda + ",tf32"},
		{"go:num_executors=2", false, "go:num_executors=2"},
		{"go:num_executors=2", true, ""},
		{"xla:cpu", false, "xla:cpu,notf32"},
		{"xla:cpu", true, ""},
	} {
		got, err := WithTF32(c.config, c.on)
		if (err != nil) != (c.want == "") || got != c.want {
			t.Errorf("WithTF32(%q, %v) = %q, %v; want %q", c.config, c.on, got, err, c.want)
		}
	}
}

func TestIsCUDA(t *testing.T) {
	for config, want := range map[string]bool{
		"xla:/x/xla_cuda_plugin.so": true, "xla:cuda": true, "xla:/x/pjrt_c_api_nvidia.so,notf32": true,
		"xla:cpu": false, "go": false, "go:cuda": false, "xla:cpu,allocator=cuda_async": false,
	} {
		if got := IsCUDA(config); got != want {
			t.Errorf("IsCUDA(%q) = %v, want %v", config, got, want)
		}
	}
}

// TestOpenNamesWhatIsMissing: a backend this program lacks is an error that says how to get
// it, not compute's panic.
func TestOpenNamesWhatIsMissing(t *testing.T) {
	_, err := Open("nosuch:x")
	if err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("Open(nosuch): want an error naming the backend, got %v", err)
	}
	b, err := Open("go:num_executors=1")
	if err != nil || b.String() != "go" {
		t.Errorf("Open(go): %v, %v", b, err)
	}
}
