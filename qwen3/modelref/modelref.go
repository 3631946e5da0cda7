package modelref

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agenticrl/course/qwen3/safetensors"
)

//go:embed reference.py
var script []byte

// Python is the interpreter the reference runs under: Debian's, which has python3-torch.
const Python = "/usr/bin/python3"

// Available reports why the reference cannot run, or nil when it can.
func Available() error {
	out, err := exec.Command(Python, "-c", "import torch, numpy").CombinedOutput()
	if err != nil {
		return fmt.Errorf("PyTorch reference: %s with torch and numpy missing: run `make test` (or `AGENTRL_TEST_DEPS=1 make setup`) (%v: %s)",
			Python, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Logits computes the next-token logits of ids with reference.py on the checkpoint in modelDir:
// row t scores the token after ids[:t+1].
func Logits(modelDir string, ids []int) ([][]float32, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "qwen3ref")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	outPath := filepath.Join(tmp, "logits.f32")
	strs := make([]string, len(ids))
	for i, id := range ids {
		strs[i] = strconv.Itoa(id)
	}
	// The script arrives on stdin so the package works wherever it is built.
	cmd := exec.Command(Python, "-", "--model-dir", modelDir, "--ids", strings.Join(strs, ","), "--out", outPath)
	cmd.Stdin = bytes.NewReader(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("PyTorch reference on %s: %v: %s", modelDir, err, strings.TrimSpace(stderr.String()))
	}
	raw, err := os.ReadFile(outPath)
	if err != nil {
		return nil, err
	}
	flat, err := safetensors.Decode(raw, safetensors.F32)
	if err != nil {
		return nil, fmt.Errorf("PyTorch reference output: %w", err)
	}
	if len(flat)%len(ids) != 0 {
		return nil, fmt.Errorf("PyTorch reference returned %d values for %d tokens", len(flat), len(ids))
	}
	vocab := len(flat) / len(ids)
	rows := make([][]float32, len(ids))
	for t := range rows {
		rows[t] = flat[t*vocab : (t+1)*vocab]
	}
	return rows, nil
}

// MaxRelError is max |got - want| over all entries divided by max |want|: an error relative to
// the scale of the logits, which unlike a per-entry ratio stays meaningful for entries near zero.
// Shapes must match.
func MaxRelError(got, want [][]float32) (float64, error) {
	if len(got) != len(want) {
		return 0, fmt.Errorf("%d rows vs %d", len(got), len(want))
	}
	var maxDiff, maxRef float64
	for t := range got {
		if len(got[t]) != len(want[t]) {
			return 0, fmt.Errorf("row %d: %d values vs %d", t, len(got[t]), len(want[t]))
		}
		for i, w := range want[t] {
			d := math.Abs(float64(got[t][i]) - float64(w))
			if math.IsNaN(d) {
				return math.Inf(1), nil
			}
			maxDiff = max(maxDiff, d)
			maxRef = max(maxRef, math.Abs(float64(w)))
		}
	}
	if maxRef == 0 {
		return 0, fmt.Errorf("reference logits are all zero")
	}
	return maxDiff / maxRef, nil
}
