package backend

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // registers the pure-Go backend, "go"
)

// Default returns the backend named by $GOMLX_BACKEND, or else the pure-Go backend with one
// executor per CPU the Go runtime uses. The Go backend's default of 8 executors was measured
// slower on 2 cores (sampling 0.76–0.81 of the time with 2). Its "parallelism" option is left
// alone: it announces itself on standard output, which would pollute command and notebook
// output. Every caller shares the one backend.
var Default = sync.OnceValues(func() (compute.Backend, error) { return Open(Config()) })

// Config is the backend configuration Default opens: $GOMLX_BACKEND when set, else GoConfig().
func Config() string {
	if config, set := os.LookupEnv(compute.ConfigEnvVar); set {
		return config
	}
	return GoConfig()
}

// Open opens the backend a configuration names ("go:num_executors=2", "xla:/path/plugin.so,notf32").
// compute panics on a backend that is not compiled in; Open says what to do instead.
func Open(config string) (compute.Backend, error) {
	name, _, _ := strings.Cut(config, ":")
	if name != "" && !slices.Contains(compute.List(), name) {
		hint := ""
		if name == xlaName {
			hint = " (XLA needs a build with -tags xla and cgo: make agentrl-xla)"
		}
		return nil, fmt.Errorf("backend configuration %q names backend %q, but this program only has %v%s",
			config, name, compute.List(), hint)
	}
	return compute.NewWithConfig(config)
}

// xlaName is the name go-xla registers its backend under.
const xlaName = "xla"

// IsCUDA reports whether config opens XLA on a CUDA PJRT plugin. go-xla decides the same way,
// from the plugin's name or path, when it turns TF32 matrix products on by default.
func IsCUDA(config string) bool {
	name, plugin, _ := strings.Cut(config, ":")
	plugin, _, _ = strings.Cut(strings.ToUpper(plugin), ",")
	return name == xlaName && (strings.Contains(plugin, "CUDA") || strings.Contains(plugin, "NVIDIA"))
}

// WithTF32 returns config with XLA's TF32 matrix products turned on or off, replacing any tf32
// option it had. TF32 rounds float32 inputs of matrix products to 10 mantissa bits: faster on
// NVIDIA tensor cores, and no longer the exact float32 a comparison with PyTorch needs; go-xla
// turns it on by default on CUDA. Off is a no-op on other backends, whose float32 is exact; on
// is an error there, since nothing else has TF32.
func WithTF32(config string, on bool) (string, error) {
	name, _, _ := strings.Cut(config, ":")
	if on && !IsCUDA(config) {
		return "", fmt.Errorf("backend %q has no TF32 matrix products: that needs XLA on a CUDA plugin (GOMLX_BACKEND=xla:/path/xla_cuda_plugin.so)", config)
	}
	if name != xlaName {
		return config, nil
	}
	parts := strings.Split(config, ",")
	kept := parts[:1]
	for _, p := range parts[1:] {
		if key, _, _ := strings.Cut(p, "="); key != "tf32" && key != "notf32" {
			kept = append(kept, p)
		}
	}
	if on {
		return strings.Join(append(kept, "tf32"), ","), nil
	}
	return strings.Join(append(kept, "notf32"), ","), nil
}

// NoAVX512Env is the variable that keeps GoMLX's pure-Go backend off its AVX-512 matrix kernels
// when set to "false". Their results differ from its AVX2 kernels' in the last bits, which is
// enough to flip a sample: a run, and the outputs recorded in the notebooks, would depend on the
// machine. The backend reads it once, when the program starts: the course sets it in the Makefile
// and the kernel spec, and the agentrl command restarts itself with it (EnsureNoAVX512).
const NoAVX512Env = "GOMLX_GO_SIMD_AVX512"

// NoAVX512Godebug is the GODEBUG setting that hides AVX-512 from the Go runtime. The variable
// above does not reach the rest of GoMLX's vector code, which Go's simd package runs 16 lanes wide
// where the CPU has AVX-512 and 8 lanes wide where it has AVX2: its fused softmax sums a row in as
// many partial sums as there are lanes, so on a CPU with AVX-512 the same weights gave other
// gradients and Chapter 6 recorded other results (0.420 malformed calls after pretraining instead
// of 0.365). The runtime reads GODEBUG when the program starts.
const NoAVX512Godebug = "cpu.avx512f=off"

// EnsureNoAVX512 restarts the program with NoAVX512Env=false and NoAVX512Godebug in GODEBUG when
// either is missing, so that it computes what a notebook computes on any machine. It returns only
// when both were set, or when the restart failed (the program then runs on the machine's fastest
// kernels).
func EnsureNoAVX512() error {
	_, set := os.LookupEnv(NoAVX512Env)
	godebug := os.Getenv("GODEBUG")
	if set && HasNoAVX512Godebug(godebug) {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// Replace, not append: with a variable twice in the environment, the first one counts.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	if !set {
		env = append(env, NoAVX512Env+"=false")
	}
	env = append(env, "GODEBUG="+WithNoAVX512Godebug(godebug))
	return syscall.Exec(exe, os.Args, env)
}

// HasNoAVX512Godebug reports whether a GODEBUG value holds NoAVX512Godebug; a later setting of
// the same key wins, as in the runtime.
func HasNoAVX512Godebug(godebug string) bool {
	key, _, _ := strings.Cut(NoAVX512Godebug, "=")
	on := false
	for _, kv := range strings.Split(godebug, ",") {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			on = kv == NoAVX512Godebug
		}
	}
	return on
}

// WithNoAVX512Godebug returns godebug with NoAVX512Godebug in effect: unchanged if it already
// is, else with the setting added last.
func WithNoAVX512Godebug(godebug string) string {
	switch {
	case HasNoAVX512Godebug(godebug):
		return godebug
	case godebug == "":
		return NoAVX512Godebug
	}
	return godebug + "," + NoAVX512Godebug
}

// GoConfig is the configuration Default gives the pure-Go backend when $GOMLX_BACKEND is unset.
func GoConfig() string {
	return fmt.Sprintf("go:num_executors=%d", min(max(runtime.GOMAXPROCS(0), 1), 8))
}
