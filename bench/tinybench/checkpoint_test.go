package tinybench

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/qwen3/safetensors"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestCheckpointReadByPyTorch saves a TinyAgent with Save and has the PyTorch reference load
// exactly that checkpoint folder (configuration and vocabulary from checkpoint.json, weights from
// model.safetensors under their own names), then compares its log-probs of a batch of sampled
// calls with those of the agent Go loads back from the same folder. Every weight is first moved
// off its initial value (biases and norms start at 0 and 1), so that a weight saved under another
// name, or transposed, changes the numbers.
func TestCheckpointReadByPyTorch(t *testing.T) {
	if err := Available(); err != nil {
		t.Fatal(err)
	}
	states, err := startStates(tasks, 16)
	if err != nil {
		t.Fatal(err)
	}
	cfg := agentrl.DefaultTinyAgentConfig()
	cfg.Seed = 11
	agent, err := agentrl.NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 0))
	for v := range agent.Store.IterVariables() {
		val := tensors.MustCopyFlatData[float32](v.MustValue())
		for i := range val {
			val[i] += float32(0.05 * rng.NormFloat64())
		}
		if err := v.SetValue(tensors.FromFlatDataAndDimensions(val, v.Shape().Dimensions...)); err != nil {
			t.Fatal(err)
		}
	}
	samples, err := agent.Sample(states, agentrl.TinySampleOptions{Temperature: 1, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "agent")
	if err := agent.Save(ckpt); err != nil {
		t.Fatal(err)
	}
	back, err := agentrl.LoadTinyAgent(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := back.LogProbs(samples)
	if err != nil {
		t.Fatal(err)
	}
	b, err := back.Batch(samples)
	if err != nil {
		t.Fatal(err)
	}
	batch := filepath.Join(dir, "batch.safetensors")
	if err := safetensors.Write(batch, []safetensors.Tensor{f32Tensor("ids", b.IDs), f32Tensor("at", b.At),
		f32Tensor("targets", b.Targets), f32Tensor("allowed", b.Allowed)}, nil); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "tinyagent_torch.py")
	if err := os.WriteFile(script, torchScript, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(Python, script, "--checkpoint", ckpt, "--batch", batch)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		t.Fatalf("PyTorch side: %v: %s", err, msg)
	}
	var got struct {
		Torch    string      `json:"torch"`
		LogProbs [][]float64 `json:"logprobs"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("PyTorch side printed %q: %v", out, err)
	}
	worst, tokens := 0.0, 0
	for i, row := range want {
		if i >= len(got.LogProbs) || len(got.LogProbs[i]) < len(row) {
			t.Fatalf("PyTorch returned %d rows, row %d too short", len(got.LogProbs), i)
		}
		for j, lp := range row {
			worst = math.Max(worst, math.Abs(got.LogProbs[i][j]-lp))
			tokens++
		}
	}
	t.Logf("PyTorch %s: %d tokens of %d calls, max |Δ log-prob| %.2g", got.Torch, tokens, len(want), worst)
	if tokens == 0 || !(worst <= 1e-5) {
		t.Errorf("PyTorch's log-probs of the saved agent differ from Go's by up to %g (tolerance 1e-5)", worst)
	}
}
