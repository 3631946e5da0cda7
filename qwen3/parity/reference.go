package parity

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenticrl/course/checkout"
)

// Reference runs Hugging Face's implementations through qwen3/testdata/reference.mjs.
type Reference struct {
	dir  string // qwen3/testdata of the checkout
	node string // the node executable
}

// ErrMissing is wrapped by FindReference when node or the npm packages are not installed.
var ErrMissing = errors.New("the Hugging Face reference implementations are missing: run `make setup` (or qwen3/setup.sh)")

// FindReference locates the reference script in the checkout that contains the working
// directory and checks that node and the npm packages are installed.
func FindReference() (*Reference, error) {
	root, err := checkout.Root()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "qwen3", "testdata")
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node not found on PATH: %w", ErrMissing)
	}
	for _, pkg := range []string{"tokenizers", "@huggingface/jinja"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			return nil, fmt.Errorf("npm package %s not installed in %s: %w", pkg, dir, ErrMissing)
		}
	}
	return &Reference{dir: dir, node: node}, nil
}

// run feeds one JSON value per input to the script and decodes its output, one JSON value per
// line; it expects want outputs.
func run[In, Out any](r *Reference, inputs []In, want int, args ...string) ([]Out, error) {
	var stdin bytes.Buffer
	enc := json.NewEncoder(&stdin)
	enc.SetEscapeHTML(false)
	for _, in := range inputs {
		if err := enc.Encode(in); err != nil {
			return nil, fmt.Errorf("encode reference input: %w", err)
		}
	}
	cmd := exec.Command(r.node, append([]string{"reference.mjs"}, args...)...)
	cmd.Dir = r.dir
	cmd.Stdin = &stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node reference.mjs %s: %w", args[0], err)
	}
	var outs []Out
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var decodeErr error
	for sc.Scan() {
		var o Out
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil && decodeErr == nil {
			decodeErr = fmt.Errorf("reference output line %d: %w", len(outs)+1, err)
		}
		outs = append(outs, o)
	}
	if err := sc.Err(); err != nil && decodeErr == nil {
		decodeErr = fmt.Errorf("read reference output: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("node reference.mjs %s: %w\n%s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	if decodeErr != nil {
		return nil, decodeErr
	}
	if len(outs) != want {
		return nil, fmt.Errorf("node reference.mjs %s: %d outputs, want %d", args[0], len(outs), want)
	}
	return outs, nil
}

// Encoding is Hugging Face's encoding of one text. Offsets count Unicode code points.
type Encoding struct {
	IDs     []int    `json:"ids"`
	Offsets [][2]int `json:"offsets"`
}

// Encode encodes each text with the tokenizer.json at tokenizerPath, without adding special
// tokens.
func (r *Reference) Encode(tokenizerPath string, texts []string) ([]Encoding, error) {
	return run[string, Encoding](r, texts, len(texts), "encode", tokenizerPath)
}

// DecodeRequest is one sequence of ids to decode.
type DecodeRequest struct {
	IDs         []int `json:"ids"`
	SkipSpecial bool  `json:"skip_special"`
}

// Decode decodes each request with the tokenizer.json at tokenizerPath.
func (r *Reference) Decode(tokenizerPath string, reqs []DecodeRequest) ([]string, error) {
	return run[DecodeRequest, string](r, reqs, len(reqs), "decode", tokenizerPath)
}

// RenderRequest is one chat-template rendering: the template source and the variables it sees.
// Context is JSON so that key order and the difference between a missing key and null survive.
type RenderRequest struct {
	Template string          `json:"template"`
	Context  json.RawMessage `json:"context"`
}

// RenderResult is the rendered text, or the error message the engine raised.
type RenderResult struct {
	Text  string `json:"text"`
	Error string `json:"error"`
}

// Render renders each request with @huggingface/jinja.
func (r *Reference) Render(reqs []RenderRequest) ([]RenderResult, error) {
	return run[RenderRequest, RenderResult](r, reqs, len(reqs), "render")
}

// BenchResult is the reference tokenizer's best time over several rounds of encoding documents.
type BenchResult struct {
	Bytes        int     `json:"bytes"`
	Tokens       int     `json:"tokens"`
	Docs         int     `json:"docs"`
	Seconds      float64 `json:"seconds"`       // one encode call per document, in sequence
	BatchSeconds float64 `json:"batch_seconds"` // one encodeBatch call over all documents
}

// Bench times Hugging Face's tokenizer on docs (best of rounds).
func (r *Reference) Bench(tokenizerPath string, docs []string, rounds int) (BenchResult, error) {
	f, err := os.CreateTemp("", "qwen3-bench-*.json")
	if err != nil {
		return BenchResult{}, err
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(docs); err != nil {
		f.Close()
		return BenchResult{}, err
	}
	if err := f.Close(); err != nil {
		return BenchResult{}, err
	}
	out, err := run[struct{}, BenchResult](r, nil, 1, "bench", tokenizerPath, f.Name(), fmt.Sprint(rounds))
	if err != nil {
		return BenchResult{}, err
	}
	return out[0], nil
}
