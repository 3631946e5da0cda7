// Package qwen3_test runs the Qwen3 packages together: render a conversation with the real chat
// template, encode it with the real tokenizer, generate with a model, decode, and parse the tool
// call back out.
package qwen3_test

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/qwen3/chat"
	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/safetensors"
	"github.com/agenticrl/course/qwen3/tokenizer"
	. "github.com/gomlx/gomlx/core/graph" //nolint:staticcheck
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// The conversation of the round trip: a coding task with one tool, and the call the model is
// taught to make.
var (
	readFile = chat.Tool{
		Name:        "read_file",
		Description: "Read a file of the repository.",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"path": {"type": "string", ` +
			`"description": "Path relative to the repository root."}}, "required": ["path"]}`),
	}
	conversation = []chat.Message{
		{Role: "system", Content: "You fix bugs in Python repositories. Use the tools."},
		{Role: "user", Content: "The tests of solution.py fail. Find the bug."},
	}
	// wantCall is what the model must emit after the generation prompt, in the form Qwen3's
	// template renders an assistant tool call.
	wantCall = "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"solution.py\"}}\n</tool_call><|im_end|>"
)

func TestRoundTrip(t *testing.T) {
	d, err := files.Find("")
	if err != nil {
		t.Fatalf("Qwen3 tokenizer files missing: run `make setup` (%v)", err)
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := chat.Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	off := false
	opts := chat.Options{Tools: []chat.Tool{readFile}, AddGenerationPrompt: true, EnableThinking: &off}
	prompt, err := tmpl.Render(conversation, opts)
	if err != nil {
		t.Fatal(err)
	}
	// With thinking off, Qwen3's template opens the assistant turn with an empty think block.
	if suffix := "<|im_start|>assistant\n<think>\n\n</think>\n\n"; !strings.HasSuffix(prompt, suffix) {
		t.Fatalf("generation prompt does not end with %q:\n%s", suffix, prompt)
	}
	promptIDs := tok.Encode(prompt)
	target := tok.Encode(wantCall)
	imEnd := mustID(t, tok, "<|im_end|>")
	if target[len(target)-1] != imEnd {
		t.Fatalf("target %v does not end with <|im_end|> (id %d)", target, imEnd)
	}
	t.Logf("prompt %d tokens, target %d tokens", len(promptIDs), len(target))

	dir := t.TempDir()
	// Qwen3's vocabulary, tied embeddings as in Qwen3-0.6B, and the default small layers (hidden
	// 64, 2 layers).
	if _, err := model.WriteTiny(dir, model.TinyOptions{Seed: 7, DType: safetensors.F32, Tied: true}); err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Control: the random model does not emit the call, so what follows is the training's doing.
	before, err := m.Generate(promptIDs, model.GenerateOptions{MaxNew: len(target), StopIDs: []int{imEnd}})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(before.Tokens, target) {
		t.Fatal("the untrained model already emits the tool call: the test would prove nothing")
	}
	checkLogProbs(t, "untrained", m, promptIDs, before)

	train(t, m, promptIDs, target)

	gen, err := m.Generate(promptIDs, model.GenerateOptions{MaxNew: len(target) + 8, StopIDs: []int{imEnd}})
	if err != nil {
		t.Fatal(err)
	}
	text := tok.Decode(gen.Tokens)
	t.Logf("generated %d tokens: %q", len(gen.Tokens), text)
	if !gen.Stopped || text != wantCall {
		t.Fatalf("greedy generation after training: %q (stopped at <|im_end|>: %v), want %q", text, gen.Stopped, wantCall)
	}
	// The same text could be spelt with other tokens; the model must reproduce the trained ones.
	if !slices.Equal(gen.Tokens, target) {
		t.Fatalf("generated ids %v, want the trained ids %v", gen.Tokens, target)
	}
	checkLogProbs(t, "trained", m, promptIDs, gen)

	calls, err := chat.ParseToolCalls(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Name != "read_file" {
		t.Fatalf("parsed %+v, want one call of read_file", calls)
	}
	var args map[string]any
	if err := json.Unmarshal(calls[0].Arguments, &args); err != nil {
		t.Fatalf("arguments %s: %v", calls[0].Arguments, err)
	}
	if want := map[string]any{"path": "solution.py"}; !reflect.DeepEqual(args, want) {
		t.Fatalf("arguments %v, want %v", args, want)
	}

	checkPrefix(t, tok, tmpl, promptIDs, gen.Tokens, chat.Message{Role: "assistant", ToolCalls: calls})
}

// checkLogProbs asserts that the log-probabilities Generate reported while decoding are the
// ones the model gives the finished sequence when scoring it in one pass, as a trainer does.
func checkLogProbs(t *testing.T, what string, m *model.Model, prompt []int, gen model.Generation) {
	t.Helper()
	seq := append(slices.Clone(prompt), gen.Tokens...)
	n := len(seq) - 1
	scored, err := m.LogProbs(seq[:n], seq[1:])
	if err != nil {
		t.Fatal(err)
	}
	scored = scored[len(prompt)-1:]
	worst, total := 0.0, 0.0
	for i, lp := range gen.LogProbs {
		worst = max(worst, math.Abs(float64(lp-scored[i])))
		total += float64(lp)
	}
	t.Logf("%s: %d generated tokens, total log-prob %.4f, max |generate - score| %.2g", what, len(gen.Tokens), total, worst)
	if len(scored) != len(gen.LogProbs) || worst > 1e-4 {
		t.Errorf("%s: log-probs while generating %v, scored %v", what, gen.LogProbs, scored)
	}
}

// checkPrefix re-renders the conversation with the model's turn in it and checks what a
// multi-turn trainer relies on: the tokens the model saw and produced are a prefix of the
// re-rendered conversation's tokens, so its log-probabilities can be computed on the rendered
// text. Qwen3's template keeps this only while the model's turn is the last message: as soon as
// anything follows it (a tool response, a new user message), the template renders that turn
// without the empty think block the generation prompt had put before it, since it writes a
// think block only for the final assistant turn or one with reasoning. The rendered
// conversation then differs from what the model saw at the <think> token, and the generated
// ids follow "<|im_start|>assistant\n" directly.
func checkPrefix(t *testing.T, tok *tokenizer.Tokenizer, tmpl *chat.Template, prompt, generated []int, turn chat.Message) {
	t.Helper()
	off := false
	tools := []chat.Tool{readFile}
	withTurn := append(slices.Clone(conversation), turn)
	response := chat.Message{Role: "tool", Content: "def add(a, b):\n    return a - b"}
	think := slices.Index(prompt, mustID(t, tok, "<think>"))
	if think < 0 {
		t.Fatal("the generation prompt has no <think> token")
	}
	tests := []struct {
		name      string
		messages  []chat.Message
		genPrompt bool
		// diverge is where the re-rendered ids first differ from prompt, or -1: the prompt
		// and the generated ids are a prefix.
		diverge int
	}{
		{"the call", withTurn, false, -1},
		{"the call and its response", append(slices.Clone(withTurn), response), true, think},
		{"the call, its response and a new user message",
			append(slices.Clone(withTurn), response, chat.Message{Role: "user", Content: "Now fix it."}), true, think},
	}
	want := append(slices.Clone(prompt), generated...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, err := tmpl.Render(tc.messages, chat.Options{Tools: tools, AddGenerationPrompt: tc.genPrompt, EnableThinking: &off})
			if err != nil {
				t.Fatal(err)
			}
			ids := tok.Encode(text)
			if tc.diverge < 0 {
				if len(ids) < len(want) || !slices.Equal(ids[:len(want)], want) {
					t.Fatalf("re-rendered ids do not start with prompt + generated ids:\n%s", text)
				}
				return
			}
			if len(ids) < tc.diverge+len(generated) || !slices.Equal(ids[:tc.diverge], prompt[:tc.diverge]) ||
				ids[tc.diverge] == prompt[tc.diverge] {
				t.Fatalf("re-rendered ids should first differ from the prompt at %d (%q):\n%s", tc.diverge, tok.Token(prompt[tc.diverge]), text)
			}
			if !slices.Equal(ids[tc.diverge:tc.diverge+len(generated)], generated) {
				t.Fatalf("generated ids do not follow at %d:\n%s", tc.diverge, text)
			}
		})
	}
}

func mustID(t *testing.T, tok *tokenizer.Tokenizer, token string) int {
	t.Helper()
	id, ok := tok.ID(token)
	if !ok {
		t.Fatalf("no token %q", token)
	}
	return id
}

// train fits the model to emit target after prompt with Adam on the summed log-probability of the
// target tokens, until each target token has probability above 1/2 (so it is the greedy choice).
//
// The embedding matrix (also the output matrix: they are tied) stays frozen. Its gradient needs
// the [tokens, vocabulary] gradient of the logits transposed, which made each step about three
// times slower on the pure-Go backend; the layers and norms alone learn the call in as many
// steps (14 either way with this seed).
func train(t *testing.T, m *model.Model, prompt, target []int) {
	seq := append(slices.Clone(prompt), target...)
	n := len(seq) - 1
	ids, targets, mask := make([]int32, n), make([]int32, n), make([]float32, n)
	for i := range n {
		ids[i], targets[i] = int32(seq[i]), int32(seq[i+1])
		if i >= len(prompt)-1 {
			mask[i] = 1
		}
	}
	const maxSteps = 60
	embed := m.Store.GetVariable(model.VariablePath("model.embed_tokens.weight"))
	embed.SetTrainable(false)
	defer embed.SetTrainable(true)
	opt := optimizer.Adam().LearningRate(3e-2).Done()
	// One step returns the target log-probabilities under the weights it starts from, then
	// updates them.
	step, err := mlmodel.NewExec(m.Backend(), m.Store, func(scope *mlmodel.Scope, ids, targets, mask *Node) *Node {
		g := ids.Graph()
		// Keep the weights as graph parameters: the pure-Go backend otherwise compiles them in as
		// constants, and the updates would not be seen.
		m.Store.SetTraining(g, true)
		lp := Mul(m.LogProbsGraph(ids, targets), mask)
		opt.UpdateGraph(scope, g, Neg(ReduceAllSum(lp)))
		return lp
	})
	if err != nil {
		t.Fatal(err)
	}
	idsT := tensors.FromFlatDataAndDimensions(ids, 1, n)
	targetsT := tensors.FromFlatDataAndDimensions(targets, 1, n)
	maskT := tensors.FromFlatDataAndDimensions(mask, 1, n)
	greedy := float32(math.Log(0.5))
	worst := func(lps []float32) (w float32) {
		for _, lp := range lps[len(prompt)-1:] {
			w = min(w, lp)
		}
		return w
	}
	start := time.Now()
	for s := 1; ; s++ {
		if s > maxSteps {
			t.Fatalf("%d training steps did not make every target token the greedy choice", maxSteps)
		}
		out, err := step.Call1(idsT, targetsT, maskT)
		if err != nil {
			t.Fatal(err)
		}
		before := worst(tensors.MustCopyFlatData[float32](out))
		out.FinalizeAll()
		t.Logf("step %d: worst target log-prob before it %.3f", s, before)
		if before <= greedy {
			continue
		}
		// The weights were good before this step; check that they still are after it.
		lps, err := m.LogProbs(seq[:n], seq[1:])
		if err != nil {
			t.Fatal(err)
		}
		if after := worst(lps); after > greedy {
			t.Logf("trained in %d steps, %.1f s: worst target log-prob %.3f", s, time.Since(start).Seconds(), after)
			return
		}
	}
}
