package tinybench

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/qwen3/safetensors"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
)

//go:embed tinyagent_torch.py
var torchScript []byte

// Python is the interpreter the PyTorch side runs under: Debian's, which has python3-torch.
const Python = "/usr/bin/python3"

// setupHint is what to run when PyTorch or OpenBLAS is missing.
const setupHint = "run `AGENTRL_TEST_DEPS=1 make setup` (make setup-test)"

// Available reports why the PyTorch side cannot run, or nil when it can.
func Available() error {
	out, err := exec.Command(Python, "-c", "import torch, numpy").CombinedOutput()
	if err != nil {
		return fmt.Errorf("tinybench: PyTorch missing (%s cannot import torch and numpy): %s (%v: %s)",
			Python, setupHint, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// TorchTuning is the environment the PyTorch process gets, unless Options.TorchDefaults is set
// or the caller's environment sets these variables itself: the settings under which PyTorch did
// best on a shared 2-CPU machine, so that GoMLX is compared with PyTorch at its best rather than
// with its defaults. GoMLX's backend keeps freed buffers in pools for reuse; glibc's malloc
// instead hands large tensors back to the kernel and pays page faults to get them again on the
// next step (several times the step time at 128 rows there) unless told to keep them, as
// jemalloc or tcmalloc would. OpenMP threads that spin while they wait take the CPU from the
// threads they wait for whenever another process competes for the cores (5x there); passive
// waiting sleeps instead.
var TorchTuning = []string{
	"MALLOC_MMAP_THRESHOLD_=4294967296",
	"MALLOC_TRIM_THRESHOLD_=68719476736",
	"OMP_WAIT_POLICY=PASSIVE",
}

// torchRun is one invocation of the script.
type torchRun struct {
	Bench   bool // after the parity check, time steps on request (else: parity only)
	Tuned   bool // apply TorchTuning
	Threads int
	Seed    uint64
}

// torchHead is the first line the script prints, once parity is checked.
type torchHead struct {
	Torch  string `json:"torch"`
	BLAS   string `json:"blas"`
	Env    string `json:"env"` // the thread, allocator and OpenMP variables the process runs with
	Parity Parity `json:"parity"`
}

// torchProc is the running script. In bench mode it reads requests "STEP N" on its standard
// input and answers each with one JSON line: the N times in milliseconds and, for sample, the
// cached steps of the last call.
type torchProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr bytes.Buffer
	done   bool
	err    error
}

// startTorch starts the script on the files write put in dir and returns once it has reported
// parity. The script itself fails when parity is off or, in bench mode, when PyTorch runs on the
// reference BLAS; its message comes back in the error.
func startTorch(dir string, r torchRun) (*torchProc, torchHead, error) {
	var head torchHead
	script := filepath.Join(dir, "tinyagent_torch.py")
	if err := os.WriteFile(script, torchScript, 0o644); err != nil {
		return nil, head, err
	}
	args := []string{script, "--dir", dir, "--threads", strconv.Itoa(r.Threads), "--seed", strconv.FormatUint(r.Seed, 10),
		"--max-logprob-diff", fmt.Sprint(MaxLogProbDiff), "--max-grad-rel-diff", fmt.Sprint(MaxGradRelDiff)}
	if r.Bench {
		args = append(args, "--bench")
	}
	p := &torchProc{cmd: exec.Command(Python, args...)}
	// The process ends with this one, even when this one is killed.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// OpenMP (PyTorch's own kernels) and OpenBLAS size their thread pools from these at start-up.
	n := strconv.Itoa(r.Threads)
	p.cmd.Env = append(os.Environ(), "OMP_NUM_THREADS="+n, "OPENBLAS_NUM_THREADS="+n, "MKL_NUM_THREADS="+n)
	for _, kv := range TorchTuning {
		if k, _, _ := strings.Cut(kv, "="); r.Tuned && os.Getenv(k) == "" {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Stderr = &p.stderr
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, head, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, head, err
	}
	p.out = bufio.NewScanner(stdout)
	if err := p.cmd.Start(); err != nil {
		return nil, head, fmt.Errorf("PyTorch side: %w", err)
	}
	if err := p.read(&head); err != nil {
		return nil, head, err
	}
	return p, head, nil
}

// read decodes the script's next line into v.
func (p *torchProc) read(v any) error {
	if !p.out.Scan() {
		return p.close()
	}
	if err := json.Unmarshal(p.out.Bytes(), v); err != nil {
		p.close()
		return fmt.Errorf("PyTorch side printed %q: %w", p.out.Text(), err)
	}
	return nil
}

// times runs n timed runs of step ("sample" or "train").
func (p *torchProc) times(step string, n int) ([]time.Duration, int, error) {
	if _, err := fmt.Fprintf(p.in, "%s %d\n", step, n); err != nil {
		return nil, 0, fmt.Errorf("PyTorch side: %w (%v)", err, p.close())
	}
	var res struct {
		MS    []float64 `json:"ms"`
		Steps int       `json:"steps"`
	}
	if err := p.read(&res); err != nil {
		return nil, 0, err
	}
	if len(res.MS) != n {
		return nil, 0, fmt.Errorf("PyTorch side: asked for %d %s runs, got %d", n, step, len(res.MS))
	}
	out := make([]time.Duration, n)
	for i, ms := range res.MS {
		out[i] = time.Duration(ms * float64(time.Millisecond))
	}
	return out, res.Steps, nil
}

// close ends the script (closing its input ends its request loop) and reports how it ended.
func (p *torchProc) close() error {
	if p.done {
		return p.err
	}
	p.done = true
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		p.err = fmt.Errorf("PyTorch side: %v: %s", err, strings.TrimSpace(p.stderr.String()))
	}
	return p.err
}

// torchConfig is config.json: the network's sizes and the token ids the sampler's grammar
// needs (the vocabulary keeps the edit classes, L1..L16 and M0..M39 contiguous; Tokens["class0"]
// is the first class, gym.Classes[0]).
type torchConfig struct {
	Dim, Layers, Heads, Context, Vocab int
	Rows                               int // real rows of the batch; the rest are padding
	CallSlots                          int // cache slots the prompt pass adds for the call
	MaxCall, MaxLines, MaxMenu         int
	Classes                            int // how many edit classes
	LR                                 float64
	Prune                              bool // the last layer only where log-probs are read (TinyAgent.FastGraph)
	Tokens                             map[string]int
}

// write stores the weights (weights.safetensors), the batch with GoMLX's results
// (batch.safetensors) and config.json in dir.
func (b *batch) write(dir string) error {
	cfg := b.agent.Config
	tc := torchConfig{Dim: cfg.Dim, Layers: cfg.Layers, Heads: cfg.Heads, Context: cfg.Context,
		Vocab: len(agentrl.TinyVocab), Rows: len(b.samples),
		CallSlots: 8, // agentrl's tinyCallSlots: more than the 5 cached steps a call needs
		MaxCall:   agentrl.TinyMaxCall, MaxLines: agentrl.TinyMaxLines, MaxMenu: agentrl.TinyMaxMenu,
		Classes: len(gym.Classes), LR: LearningRate, Prune: b.agent.FastGraph, Tokens: map[string]int{"class0": agentrl.TinyToken(gym.Classes[0])}}
	for _, name := range []string{"<pad>", "<bos>", "CALL", "READ", "TEST", "SUBMIT", "EDIT", "END", "L1", "M0"} {
		tc.Tokens[name] = agentrl.TinyToken(name)
	}
	raw, err := json.MarshalIndent(tc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), raw, 0o644); err != nil {
		return err
	}

	var weights []safetensors.Tensor
	for i, v := range b.weights() {
		t, err := v.Value()
		if err != nil {
			return fmt.Errorf("weight %s: %w", b.names[i], err)
		}
		weights = append(weights, f32Tensor(b.names[i], t))
	}
	if err := safetensors.Write(filepath.Join(dir, "weights.safetensors"), weights, nil); err != nil {
		return err
	}

	data := []safetensors.Tensor{
		f32Tensor("ids", b.train.IDs), f32Tensor("at", b.train.At), f32Tensor("targets", b.train.Targets),
		f32Tensor("allowed", b.train.Allowed), f32Tensor("adv", b.adv), f32Tensor("mask", b.mask),
		f32Tensor("go_logprobs", b.lp),
	}
	for i, g := range b.grads {
		data = append(data, f32Tensor("grad/"+b.names[i], g))
	}
	data = append(data, b.samplerTensors()...)
	return safetensors.Write(filepath.Join(dir, "batch.safetensors"), data, nil)
}

// samplerTensors are the sampler's inputs, padded as agentrl's Sample pads them (extra rows
// hold <bos> alone and decode nothing), and the calls GoMLX drew with their log-probs:
// prompt_ids [R,W], prompt_len [R], class_count [R,TinyMaxLines,classes] (how many edits of each
// class each line's menu has, at most TinyMaxMenu: what the grammar needs), go_tokens and
// go_token_logprobs [R,TinyMaxCall] (−1 and 0 after a call's end).
func (b *batch) samplerTensors() []safetensors.Tensor {
	rows, w, a := b.train.IDs.Shape().Dimensions[0], b.promptWidth, agentrl.TinyMaxCall
	ids, lens := make([]float32, rows*w), make([]float32, rows)
	nc := len(gym.Classes)
	classOf := map[string]int{}
	for k, c := range gym.Classes {
		classOf[c] = k
	}
	counts := make([]float32, rows*agentrl.TinyMaxLines*nc)
	toks, lps := make([]float32, rows*a), make([]float32, rows*a)
	for i := range rows {
		lens[i] = 1
		ids[i*w] = float32(agentrl.TinyToken("<bos>"))
		for j := range a {
			toks[i*a+j] = -1
		}
		if i >= len(b.samples) {
			continue
		}
		s, st := b.samples[i], b.states[i]
		lens[i] = float32(len(s.Prompt))
		for j, t := range s.Prompt {
			ids[i*w+j] = float32(t)
		}
		for l := range min(len(st.Menu), agentrl.TinyMaxLines) {
			for _, e := range st.Menu[l] {
				at := (i*agentrl.TinyMaxLines+l)*nc + classOf[e.Class]
				counts[at] = min(counts[at]+1, agentrl.TinyMaxMenu)
			}
		}
		for j, t := range s.Tokens {
			toks[i*a+j], lps[i*a+j] = float32(t), float32(s.LogProbs[j])
		}
	}
	return []safetensors.Tensor{
		{Name: "prompt_ids", DType: safetensors.F32, Shape: []int{rows, w}, Data: ids},
		{Name: "prompt_len", DType: safetensors.F32, Shape: []int{rows}, Data: lens},
		{Name: "class_count", DType: safetensors.F32, Shape: []int{rows, agentrl.TinyMaxLines, nc}, Data: counts},
		{Name: "go_tokens", DType: safetensors.F32, Shape: []int{rows, a}, Data: toks},
		{Name: "go_token_logprobs", DType: safetensors.F32, Shape: []int{rows, a}, Data: lps},
	}
}

// f32Tensor converts a float32 or int32 tensor for safetensors (as F32: exact below 2^24).
func f32Tensor(name string, t *tensors.Tensor) safetensors.Tensor {
	var data []float32
	switch t.DType() {
	case dtypes.Int32:
		for _, x := range tensors.MustCopyFlatData[int32](t) {
			data = append(data, float32(x))
		}
	default:
		data = tensors.MustCopyFlatData[float32](t)
	}
	return safetensors.Tensor{Name: name, DType: safetensors.F32, Shape: t.Shape().Dimensions, Data: data}
}
