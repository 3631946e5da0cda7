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

// NoAVX512Env is the variable that keeps GoMLX's pure-Go backend off its AVX-512 kernels when set
// to "false". Their results differ from its AVX2 kernels' in the last bits, which is enough to flip
// a sample: a run, and the outputs recorded in the notebooks, would depend on the machine. The
// backend reads it once, when the program starts: the course sets it in the Makefile and the
// kernel spec, and the agentrl command restarts itself with it (EnsureNoAVX512).
const NoAVX512Env = "GOMLX_GO_SIMD_AVX512"

// EnsureNoAVX512 restarts the program with NoAVX512Env=false when the variable is unset, so that
// it computes what a notebook computes on any machine. It returns only when the variable was
// set, or when the restart failed (the program then runs on the machine's fastest kernels).
func EnsureNoAVX512() error {
	if _, set := os.LookupEnv(NoAVX512Env); set {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return syscall.Exec(exe, os.Args, append(os.Environ(), NoAVX512Env+"=false"))
}

// GoConfig is the configuration Default gives the pure-Go backend when $GOMLX_BACKEND is unset.
func GoConfig() string {
	return fmt.Sprintf("go:num_executors=%d", min(max(runtime.GOMAXPROCS(0), 1), 8))
}
