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
var Default = sync.OnceValues(func() (compute.Backend, error) {
	config, set := os.LookupEnv(compute.ConfigEnvVar)
	if !set {
		return compute.NewWithConfig(GoConfig())
	}
	// compute panics on a backend that is not compiled in; say what to do instead.
	name, _, _ := strings.Cut(config, ":")
	if name != "" && !slices.Contains(compute.List(), name) {
		return nil, fmt.Errorf("$%s=%q names backend %q, but this program only has %v",
			compute.ConfigEnvVar, config, name, compute.List())
	}
	return compute.New()
})

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
