//go:build xla

package backend

import (
	"slices"
	"testing"

	"github.com/gomlx/compute"
)

// TestXLACompiledIn: the tagged build registers GoMLX's XLA backend, so GOMLX_BACKEND=xla:...
// can open a PJRT plugin.
func TestXLACompiledIn(t *testing.T) {
	if !slices.Contains(compute.List(), xlaName) {
		t.Fatalf("built with -tags xla, but the backends are %v", compute.List())
	}
}
