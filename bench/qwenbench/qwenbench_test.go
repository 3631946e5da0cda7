package qwenbench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tiny is a small run on the pure-Go backend without the PyTorch side.
func tiny() Options {
	o := TinyOptions()
	o.Python, o.Backend = "", "go:num_executors=2"
	return o
}

// fakeProgram writes an executable that stands in for python3 or agentrl: body as a shell script.
func fakeProgram(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunErrors: each way a run cannot start says what is wrong, before anything is timed.
func TestRunErrors(t *testing.T) {
	notQwen := t.TempDir()
	if err := os.WriteFile(filepath.Join(notQwen, "config.json"), []byte(`{"model_type": "llama"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		change func(*Options)
		want   string
	}{
		"unknown precision":   {func(o *Options) { o.Precision = "fp8" }, `unknown precision "fp8"`},
		"another model":       {func(o *Options) { o.ModelDir = notQwen }, "is not a Qwen3 model folder"},
		"no model":            {func(o *Options) { o.ModelDir = t.TempDir() }, "is not a Qwen3 model folder"},
		"tf32 without CUDA":   {func(o *Options) { o.Precision = "tf32" }, "no TF32"},
		"no python":           {func(o *Options) { o.Python = "/nonexistent/python3" }, "cannot run /nonexistent/python3"},
		"python without them": {func(o *Options) { o.Python = fakeProgram(t, "echo transformers") }, "lacks the pip package transformers"},
		"backend not built in": {func(o *Options) { o.Backend = "xla:/x/xla_cuda_plugin.so" },
			"-tags xla"},
	} {
		o := tiny()
		c.change(&o)
		if _, err := Run(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error containing %q, got %v", name, c.want, err)
		}
	}
}

// TestParityFailureStopsTiming: when the PyTorch side reports log-probs past the tolerance,
// the run stops with the figure and times nothing on the Go side.
func TestParityFailureStopsTiming(t *testing.T) {
	o := tiny()
	o.Python = fakeProgram(t, `case "$1" in -c) exit 0;; esac
while [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done
echo '{"parity": {"max_abs": 0.5, "mean_abs": 0.1}, "errors": {}}' >"$out"
exit 3`)
	rep, err := Run(o)
	if err == nil || !strings.Contains(err.Error(), "parity") || !strings.Contains(err.Error(), "0.5") {
		t.Fatalf("want a parity error naming 0.5, got %v", err)
	}
	if rep == nil || rep.Parity == nil || rep.Parity.MaxAbs != 0.5 || rep.Update.Go != nil || rep.Error == "" {
		t.Errorf("report after a parity failure: %+v", rep)
	}
}

// TestBrokenPyTorchSideTimesGo: a PyTorch side that crashes without a parity verdict leaves
// the Go side timed, with the crash in the report and no parity claimed.
func TestBrokenPyTorchSideTimesGo(t *testing.T) {
	o := tiny()
	o.Python = fakeProgram(t, `case "$1" in -c) exit 0;; esac
echo "CUDA out of memory" >&2
exit 3`)
	rep, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Parity != nil || !strings.Contains(rep.TorchError, "CUDA out of memory") || rep.Update.Go == nil || rep.Update.Torch != nil {
		t.Errorf("report after a broken PyTorch side: parity %+v, error %q, update %+v", rep.Parity, rep.TorchError, rep.Update)
	}
}

// TestBF16 runs the tiny checkpoint with bf16 autocast: every part is timed, the generation
// draws every token, and the bf16 engine's mismatch against the float32 trainer is measured:
// some difference, all of it rounding-sized.
func TestBF16(t *testing.T) {
	o := tiny()
	o.Precision = "bf16"
	rep, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]Part{"forward": rep.Forward, "update": rep.Update, "generate": rep.Generate} {
		if p.Go == nil || p.Go.MedianMS <= 0 {
			t.Errorf("%s: Go figures %+v", name, p.Go)
		}
	}
	m := rep.Mismatch
	if m == nil || m.Tokens != o.Rows*o.Seq || !(m.Mean > 0) || m.Max > 0.5 || m.P50 > m.P99 || m.P99 > m.Max {
		t.Errorf("mismatch %+v", m)
	}
}

// TestParityWithPyTorch runs both sides on the tiny checkpoint where python3 has torch,
// transformers and safetensors: the log-probs agree to float32 rounding and every PyTorch part
// is timed.
func TestParityWithPyTorch(t *testing.T) {
	o := tiny()
	o.Python = "python3"
	if _, err := exec.LookPath(o.Python); err != nil {
		t.Skip(err)
	}
	if err := torchAvailable(o.Python); err != nil {
		t.Skip(err)
	}
	rep, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Parity == nil || rep.Parity.MaxAbs > Tolerances["f32"] {
		t.Errorf("parity %+v", rep.Parity)
	}
	for name, p := range map[string]Part{"forward": rep.Forward, "update": rep.Update, "generate": rep.Generate} {
		if p.Torch == nil || p.Torch.Error != "" || p.Torch.MedianMS <= 0 {
			t.Errorf("%s: PyTorch figures %+v", name, p.Torch)
		}
	}
}

// TestGPUScriptFailsSoft runs bench/qwenbench/gpu.sh with a stand-in agentrl whose tf32 run
// fails: every precision still runs, the summary gives each outcome and its time, the first run
// writes the checkpoint and the later ones read it, and the training stage trains on it.
func TestGPUScriptFailsSoft(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("backend/gpu.sh needs python3:", err)
	}
	tmp := t.TempDir()
	site := filepath.Join(tmp, "site-packages")
	plugin := filepath.Join(site, "jax_plugins/xla_cuda13/xla_cuda_plugin.so")
	if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugin, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	calls := filepath.Join(tmp, "calls")
	agentrl := fakeProgram(t, `echo "$GOMLX_BACKEND $*" >>`+calls+`
[ "$2" = qwen3 ] && [ "$1" = train ] && { echo "after this process's first update: rollouts 1 s"; exit 0; }
while [ $# -gt 0 ]; do
	case $1 in --keep-model) mkdir -p "$2" && touch "$2/config.json" ;; --precision) p=$2 ;; esac
	shift
done
[ "$p" = tf32 ] && { echo "tf32 broke" >&2; exit 1; }
printf 'part  Go ms\nforward  1.0\ngenerate  2.0\n'`)
	out := filepath.Join(tmp, "out")
	cmd := exec.Command("bash", "bench/qwenbench/gpu.sh")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "AGENTRL_BIN="+agentrl, "OUT="+out, "QWENBENCH_MODEL="+filepath.Join(tmp, "model"),
		"AGENTRL_PYTHON_SITE="+site, "QWENBENCH_TRAIN=-steps 2")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gpu.sh: %v\n%s", err, msg)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"qwen3-f32: ok in ", "qwen3-tf32: FAILED (exit 1) in ", "tf32 broke", "qwen3-bf16: ok in ", "forward  1.0",
		"train-qwen3-tf32: ok in ", "after this process's first update"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	raw, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "xla:"+plugin+" ") || !strings.Contains(lines[0], "--keep-model") ||
		!strings.Contains(lines[1], "--model-dir") || !strings.Contains(lines[2], "--model-dir") ||
		!strings.Contains(lines[3], "train qwen3 -model-dir ") || !strings.HasSuffix(lines[3], " -steps 2") {
		t.Errorf("agentrl was called as:\n%s", raw)
	}
}
