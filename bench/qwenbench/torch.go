package qwenbench

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

//go:embed qwen3_torch.py
var torchScript []byte

// torchPackages are the pip packages the PyTorch side imports.
var torchPackages = []string{"torch", "transformers", "safetensors"}

// torchAvailable reports, before anything is computed, which of torchPackages python lacks.
func torchAvailable(python string) error {
	check := fmt.Sprintf("import importlib.util as u; print(' '.join(p for p in %q.split() if u.find_spec(p) is None))",
		strings.Join(torchPackages, " "))
	out, err := exec.Command(python, "-c", check).Output()
	if err != nil {
		return fmt.Errorf("PyTorch side: cannot run %s: %v (--no-torch times the Go side alone)", python, err)
	}
	if missing := strings.Fields(string(out)); len(missing) > 0 {
		what := "package " + missing[0]
		if len(missing) > 1 {
			what = "packages " + strings.Join(missing, ", ")
		}
		return fmt.Errorf("PyTorch side: %s lacks the pip %s (it needs %s; --no-torch times the Go side alone)",
			python, what, strings.Join(torchPackages, ", "))
	}
	return nil
}

// torchBatch is the JSON file the script reads: the batch, Go's log-probs for the parity check,
// the update's inputs and every setting.
type torchBatch struct {
	Precision  string      `json:"precision"`
	Tolerance  float64     `json:"tolerance"`
	IDs        [][]int     `json:"ids"`         // [Rows][Seq+1]
	GoLogProbs [][]float32 `json:"go_logprobs"` // [Rows][Seq]
	Agent      int         `json:"agent"`
	Old        [][]float32 `json:"old"` // [Rows][Agent]: the update's old log-probs
	Adv        []float64   `json:"adv"` // [Rows]
	LR         float64     `json:"lr"`
	Clip       float64     `json:"clip"`
	Group      int         `json:"group"`
	Prompt     int         `json:"prompt"`
	New        int         `json:"new"`
	Warmup     int         `json:"warmup"`
	Iters      int         `json:"iters"`
	Seed       uint64      `json:"seed"`
}

// torchResult is the JSON file the script writes, rewritten after each part.
type torchResult struct {
	Torch        string `json:"torch"`
	Transformers string `json:"transformers"`
	GPU          string `json:"gpu"`
	Attention    string `json:"attention"`
	Parity       *struct {
		MaxAbs  float64 `json:"max_abs"`
		MeanAbs float64 `json:"mean_abs"`
	} `json:"parity"`
	Forward   *Side             `json:"forward"`
	Update    *Side             `json:"update"`
	Generate  *Side             `json:"generate"`
	FirstLoss *float64          `json:"first_loss"`
	Errors    map[string]string `json:"errors"` // a part that failed: its error
}

// errParity marks a run whose two sides do not compute the same model.
var errParity = errors.New("parity")

// runTorch runs the script on the checkpoint and the batch and puts its figures in rep. The
// script checks parity before timing and stops when it fails; so does this function.
func runTorch(o Options, modelDir string, b *batch, rep *Report) error {
	dir, err := os.MkdirTemp("", "qwenbench-torch")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tb := torchBatch{Precision: o.Precision, Tolerance: o.Tolerance, IDs: b.ids, GoLogProbs: b.goLogp, Agent: o.Agent,
		Adv: b.adv, LR: LR, Clip: Clip, Group: o.Group, Prompt: o.Prompt, New: o.New, Warmup: o.Warmup, Iters: o.Iters, Seed: o.Seed}
	for i := range b.ids {
		tb.Old = append(tb.Old, b.old(i, o.Seq-o.Agent, o.Seq))
	}
	raw, err := json.Marshal(tb)
	if err != nil {
		return err
	}
	script, batchFile, out := filepath.Join(dir, "qwen3_torch.py"), filepath.Join(dir, "batch.json"), filepath.Join(dir, "torch.json")
	if err := os.WriteFile(script, torchScript, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(batchFile, raw, 0o644); err != nil {
		return err
	}
	cmd := exec.Command(o.Python, script, "--model-dir", modelDir, "--batch", batchFile, "--out", out, "--device", rep.TorchDevice)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // it ends with this process
	// The checkpoint is local: transformers must not look for anything online.
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=1", "TRANSFORMERS_OFFLINE=1")
	var tail tailWriter
	progress := io.Writer(&tail)
	if o.Progress != nil {
		progress = io.MultiWriter(o.Progress, &tail)
	}
	cmd.Stdout, cmd.Stderr = progress, progress
	runErr := cmd.Run()
	var res torchResult
	if raw, err := os.ReadFile(out); err == nil {
		err = json.Unmarshal(raw, &res)
		if err != nil {
			return fmt.Errorf("PyTorch side: %s: %w", out, err)
		}
	}
	if res.Parity != nil {
		rep.Parity = &Parity{MaxAbs: res.Parity.MaxAbs, MeanAbs: res.Parity.MeanAbs, Tolerance: o.Tolerance}
		if !(res.Parity.MaxAbs <= o.Tolerance) {
			return fmt.Errorf("%w: PyTorch's log-probs differ from Go's by up to %.3g (tolerance %g at %s): not the same model, nothing timed",
				errParity, res.Parity.MaxAbs, o.Tolerance, o.Precision)
		}
	}
	if runErr != nil || res.Parity == nil {
		return fmt.Errorf("PyTorch side: %v: %s", runErr, tail.String())
	}
	rep.setTorch(o.Python, &res)
	return nil
}

// tailWriter keeps the last lines written to it, for an error message.
type tailWriter struct{ buf []byte }

const tailBytes = 2000

func (w *tailWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if len(w.buf) > 2*tailBytes {
		w.buf = append([]byte(nil), w.buf[len(w.buf)-tailBytes:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	s := string(w.buf)
	if len(s) > tailBytes {
		s = s[len(s)-tailBytes:]
		if i := strings.IndexByte(s, '\n'); i >= 0 { // whole lines only
			s = s[i+1:]
		}
	}
	return strings.TrimSpace(s)
}
