package backend

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

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

// GoConfig is the configuration Default gives the pure-Go backend when $GOMLX_BACKEND is unset.
func GoConfig() string {
	return fmt.Sprintf("go:num_executors=%d", min(max(runtime.GOMAXPROCS(0), 1), 8))
}
