package qwenbench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/gomlx/compute"
)

// Side is one side's figures for one part.
type Side struct {
	MedianMS   float64   `json:"median_ms"`
	RunsMS     []float64 `json:"runs_ms"`
	FirstS     float64   `json:"first_s"` // the first call, XLA's compilation included
	TokensPerS float64   `json:"tokens_per_s"`
	Error      string    `json:"error,omitempty"` // the PyTorch side's part failed; the rest ran
}

// Part is one part on both sides; Torch is nil without the PyTorch side.
type Part struct {
	Tokens int   `json:"tokens"` // tokens one run processes (forward, update) or draws (generate)
	Go     *Side `json:"go"`
	Torch  *Side `json:"pytorch,omitempty"`
}

// Ratio is Go's median time over PyTorch's (below 1: Go is faster), or 0 when either is missing.
func (p Part) Ratio() float64 {
	if p.Go == nil || p.Torch == nil || p.Torch.MedianMS == 0 {
		return 0
	}
	return p.Go.MedianMS / p.Torch.MedianMS
}

// Parity is how far PyTorch's forward log-probs are from Go's on the batch.
type Parity struct {
	MaxAbs    float64 `json:"max_abs"`
	MeanAbs   float64 `json:"mean_abs"`
	Tolerance float64 `json:"tolerance"`
}

// Report is what Run measured, with everything needed to read it later.
type Report struct {
	Date  string `json:"date"`
	Error string `json:"error,omitempty"` // why the run stopped early
	// TorchError is why the PyTorch side failed, when it did without failing parity; the Go
	// side was timed all the same (Parity nil: not checked).
	TorchError string  `json:"pytorch_error,omitempty"`
	Precision  string  `json:"precision"`
	Settings   Options `json:"settings"`
	LR         float64 `json:"lr"`   // the update's Adam learning rate
	Clip       float64 `json:"clip"` // and clip range
	Model      struct {
		Dir    string `json:"dir"`
		Random bool   `json:"random"` // written by the benchmark (seeded by Settings.Seed)
		Params int    `json:"params"`
		model.Config
	} `json:"model"`
	GoMLX       string `json:"gomlx"`          // GoMLX's module version
	Backend     string `json:"backend"`        // the Go side's backend configuration
	BackendDesc string `json:"backend_desc"`   // and its description
	GoDevice    string `json:"go_device"`      // its first device
	TorchDevice string `json:"pytorch_device"` // cuda or cpu
	Torch       string `json:"torch,omitempty"`
	// Transformers, GPU and Attention describe the PyTorch side: transformers' version, the CUDA
	// device's name, the attention implementation.
	Transformers string  `json:"transformers,omitempty"`
	GPU          string  `json:"gpu,omitempty"`
	Attention    string  `json:"attention,omitempty"`
	Parity       *Parity `json:"parity,omitempty"` // nil without the PyTorch side
	Forward      Part    `json:"forward"`
	Update       Part    `json:"update"`
	Generate     Part    `json:"generate"`
	// Mismatch is, at precision bf16, a bf16 engine's log-probs of the batch against the float32
	// trainer's (model.Mismatch).
	Mismatch  *model.MismatchStats `json:"mismatch,omitempty"`
	FirstLoss struct {             // the first update's loss on each side: the same number up to rounding
		Go    float64  `json:"go"`
		Torch *float64 `json:"pytorch,omitempty"`
	} `json:"first_loss"`
}

func newReport(o Options, config, dir string) *Report {
	r := &Report{Date: time.Now().UTC().Format(time.RFC3339), Precision: o.Precision, Settings: o, LR: LR, Clip: Clip,
		Backend: config, GoMLX: gomlxVersion(), TorchDevice: "cpu"}
	if backend.IsCUDA(config) {
		r.TorchDevice = "cuda"
	}
	r.Model.Dir, r.Model.Random = dir, o.ModelDir == ""
	r.Forward.Tokens, r.Update.Tokens, r.Generate.Tokens = o.Rows*o.Seq, o.Rows*o.Seq, o.Group*o.New
	return r
}

func (r *Report) setModel(m *model.Model, b compute.Backend) {
	r.Model.Config, r.Model.Params = m.Config, m.Config.NumParameters()
	r.BackendDesc = b.Description()
	if b.NumDevices() > 0 {
		r.GoDevice = b.DeviceDescription(0)
	}
}

func (r *Report) setTorch(python string, res *torchResult) {
	r.Torch = res.Torch + " (" + python + ")"
	r.Transformers, r.GPU, r.Attention = res.Transformers, res.GPU, res.Attention
	r.Forward.Torch, r.Update.Torch, r.Generate.Torch = res.Forward, res.Update, res.Generate
	for part, msg := range res.Errors {
		p := map[string]*Part{"forward": &r.Forward, "update": &r.Update, "generate": &r.Generate}[part]
		if p != nil && p.Torch == nil {
			p.Torch = &Side{Error: msg}
		}
	}
	r.FirstLoss.Torch = res.FirstLoss
}

// finish fills in the throughputs once every median is known.
func (r *Report) finish() {
	for _, p := range []*Part{&r.Forward, &r.Update, &r.Generate} {
		for _, s := range []*Side{p.Go, p.Torch} {
			if s != nil && s.MedianMS > 0 {
				s.TokensPerS = float64(p.Tokens) / (s.MedianMS / 1e3)
			}
		}
	}
}

// WriteJSON writes the report, indented, to path.
func (r *Report) WriteJSON(path string) error {
	r.finish()
	raw, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(raw, '\n'), 0o644)
}

// Write prints the report as a table.
func (r *Report) Write(w io.Writer) error {
	r.finish()
	s, c := r.Settings, r.Model
	var sb strings.Builder
	origin := "random weights at transformers' scale, seed " + fmt.Sprint(s.Seed)
	if !c.Random {
		origin = c.Dir
	}
	fmt.Fprintf(&sb, "Qwen3 (%d parameters: %d layers, hidden %d, vocab %d; %s), precision %s\n",
		c.Params, c.NumHiddenLayers, c.HiddenSize, c.VocabSize, origin, r.Precision)
	fmt.Fprintf(&sb, "Go:      GoMLX %s, backend %s\n         %s; device 0: %s\n", r.GoMLX, r.Backend, r.BackendDesc, r.GoDevice)
	if r.Torch != "" {
		fmt.Fprintf(&sb, "PyTorch: torch %s, transformers %s, %s %s, attention %s\n", r.Torch, r.Transformers, r.TorchDevice, r.GPU, r.Attention)
	} else {
		sb.WriteString("PyTorch: not run (--no-torch): no parity check, Go figures only\n")
	}
	fmt.Fprintf(&sb, "batch:   %d x %d tokens; update: the last %d per row as the agent's, PPO clip %g, Adam lr %g;\n"+
		"         generation: %d rows x %d new tokens after a %d-token prompt, temperature 1\n",
		s.Rows, s.Seq, s.Agent, Clip, LR, s.Group, s.New, s.Prompt)
	fmt.Fprintf(&sb, "runs:    median of %d after %d warm-up runs; %s\n\n", s.Iters, s.Warmup, r.Date)
	fmt.Fprintf(&sb, "%-9s %10s %11s %11s %12s %14s %11s %16s\n", "part", "Go ms", "PyTorch ms", "Go/PyTorch",
		"Go tokens/s", "PyTorch tok/s", "Go first s", "PyTorch first s")
	for _, p := range []struct {
		name string
		part Part
	}{{"forward", r.Forward}, {"update", r.Update}, {"generate", r.Generate}} {
		g, t := p.part.Go, p.part.Torch
		fmt.Fprintf(&sb, "%-9s %10s %11s %11s %12s %14s %11s %16s\n", p.name, num(g, "ms"), num(t, "ms"), ratio(p.part),
			num(g, "tok"), num(t, "tok"), num(g, "first"), num(t, "first"))
		if t != nil && t.Error != "" {
			fmt.Fprintf(&sb, "          PyTorch %s failed: %s\n", p.name, t.Error)
		}
	}
	sb.WriteString("\nforward:  log-probs of every token of the batch (full logits, log-softmax), copied to the host.\n")
	sb.WriteString("update:   qwenagent.Trainer's step (log-probs of the agent tokens, clipped surrogate, backward, Adam).\n")
	sb.WriteString("first s:  the first call, XLA's compilation included (not part of the medians).\n")
	if p := r.Parity; p != nil {
		fmt.Fprintf(&sb, "parity, checked before timing: max |PyTorch - Go| log-prob %.2e (mean %.2e) over %d tokens, tolerance %.0e\n",
			p.MaxAbs, p.MeanAbs, r.Forward.Tokens, p.Tolerance)
	}
	if r.TorchError != "" {
		fmt.Fprintf(&sb, "PyTorch side failed (Go figures only): %s\n", r.TorchError)
	}
	if r.FirstLoss.Torch != nil {
		fmt.Fprintf(&sb, "first update's loss: Go %.6g, PyTorch %.6g\n", r.FirstLoss.Go, *r.FirstLoss.Torch)
	}
	if m := r.Mismatch; m != nil {
		fmt.Fprintf(&sb, "bf16 engine (weights and activations in bf16) against the float32 trainer, %d tokens: |Δ log p| mean %.2e, p50 %.2e, p99 %.2e, max %.3f; above 0.1: %.4f; ratio outside [0.8, 1.25]: %.4f\n",
			m.Tokens, m.Mean, m.P50, m.P99, m.Max, m.Above01, m.OutsideBand)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// num formats one figure of a side: "-" where there is none.
func num(s *Side, what string) string {
	if s == nil || s.Error != "" {
		return "-"
	}
	switch what {
	case "ms":
		return fmt.Sprintf("%.1f", s.MedianMS)
	case "tok":
		return fmt.Sprintf("%.0f", s.TokensPerS)
	}
	return fmt.Sprintf("%.1f", s.FirstS)
}

func ratio(p Part) string {
	if r := p.Ratio(); r > 0 {
		return fmt.Sprintf("%.2f", r)
	}
	return "-"
}

// gomlxVersion is the GoMLX module version this program was built with.
func gomlxVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "github.com/gomlx/gomlx" {
				return m.Version
			}
		}
	}
	return "(version unknown)"
}
