package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agenticrl/course/qwen3/chat"
	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

func init() {
	qwen3Commands["generate"] = command{name: "generate",
		summary: "render a conversation (--prompt-file chat.json), generate the assistant's reply and print it", run: qwen3Generate}
}

// generateArgs are the settings of `agentrl qwen3 generate`.
type generateArgs struct {
	modelDir, tokenizerDir, promptFile string
	opts                               model.GenerateOptions
	logProbs                           bool
}

func qwen3Generate(args []string) error {
	fs := newQwen3ModelFlags("generate", "--model-dir DIR --prompt-file chat.json [flags]")
	var g generateArgs
	fs.StringVar(&g.modelDir, "model-dir", "", "model directory (config.json + safetensors)")
	fs.StringVar(&g.tokenizerDir, "tokenizer-dir", "", "directory with tokenizer.json and tokenizer_config.json "+
		"(default: the model directory when it holds them, else the usual search)")
	fs.StringVar(&g.promptFile, "prompt-file", "", "conversation JSON as `qwen3 chat --render` reads it (- for stdin); "+
		"set add_generation_prompt to have the model answer as the assistant")
	fs.IntVar(&g.opts.MaxNew, "max-new", 256, "generate at most this many tokens")
	fs.Float64Var(&g.opts.Temperature, "temperature", 0, "0: greedy; > 0: sample from softmax(logits / T)")
	fs.Uint64Var(&g.opts.Seed, "seed", 1, "sampling seed")
	fs.BoolVar(&g.logProbs, "logprobs", false, "first print each generated token with its log-probability")
	if err := parseQwen3ModelFlags(fs, args); err != nil {
		return err
	}
	if g.modelDir == "" || g.promptFile == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: agentrl qwen3 generate --model-dir DIR --prompt-file chat.json [flags]", errUsage)
	}
	if err := checkBounds(
		bound{flag: "--max-new", value: float64(g.opts.MaxNew), lo: 1, hi: 1 << 20},
		bound{flag: "--temperature", value: g.opts.Temperature, lo: 0, hi: 100},
	); err != nil {
		return err
	}
	return runGenerate(os.Stdout, g)
}

// runGenerate renders the conversation, generates until an end-of-turn token or MaxNew, and
// writes the decoded reply (without the end-of-turn token) to w; with logProbs, a table of the
// tokens first. A summary line goes to stderr.
func runGenerate(w io.Writer, g generateArgs) error {
	if err := checkModelDir(g.modelDir); err != nil {
		return err
	}
	conv, err := readInput(g.promptFile)
	if err != nil {
		return err
	}
	d, err := tokenizerFiles(g.tokenizerDir, g.modelDir)
	if err != nil {
		return err
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		return err
	}
	tm, err := chat.Load(d.Path)
	if err != nil {
		return err
	}
	prompt, err := tm.RenderJSON(conv)
	if err != nil {
		return fmt.Errorf("%s: %w", g.promptFile, err)
	}
	m, err := model.Load(g.modelDir, nil)
	if err != nil {
		return err
	}
	// Qwen3 ends an assistant turn with <|im_end|> and a document with <|endoftext|>; its
	// generation config stops on either.
	for _, s := range []string{"<|im_end|>", "<|endoftext|>"} {
		if id, ok := tok.ID(s); ok {
			g.opts.StopIDs = append(g.opts.StopIDs, id)
		}
	}
	ids := tok.Encode(prompt)
	gen, err := m.Generate(ids, g.opts)
	if err != nil {
		return err
	}
	if g.logProbs {
		sampled := g.opts.Temperature > 0
		fmt.Fprintf(w, "%5s %8s %-24s %10s", "pos", "id", "token", "logprob")
		if sampled {
			fmt.Fprintf(w, " %10s", "sampled") // under the distribution actually drawn from
		}
		fmt.Fprintln(w)
		for i, id := range gen.Tokens {
			fmt.Fprintf(w, "%5d %8d %-24q %10.4f", i+1, id, tok.TokenBytes(id), gen.LogProbs[i])
			if sampled {
				fmt.Fprintf(w, " %10.4f", gen.SampleLogProbs[i])
			}
			fmt.Fprintln(w)
		}
	}
	reply, end := gen.Tokens, fmt.Sprintf("reached --max-new %d", g.opts.MaxNew)
	if gen.Stopped {
		reply, end = reply[:len(reply)-1], "stopped at "+tok.Token(reply[len(reply)-1])
	}
	if _, err := fmt.Fprintln(w, tok.Decode(reply)); err != nil {
		return err
	}
	total := 0.0
	for _, lp := range gen.LogProbs {
		total += float64(lp)
	}
	fmt.Fprintf(stderr, "%d prompt tokens, %d generated (%s), total log-prob %.4f\n", len(ids), len(gen.Tokens), end, total)
	return nil
}

// tokenizerFiles finds the tokenizer files: dir when given, else the model directory when it
// holds them (a downloaded model does; a checkpoint from init-tiny does not), else the usual
// search (Hugging Face cache, project cache).
func tokenizerFiles(dir, modelDir string) (files.Dir, error) {
	if dir != "" {
		return files.Find(dir)
	}
	d, err := files.Find(modelDir)
	if errors.Is(err, files.ErrNotFound) {
		return files.Find("")
	}
	return d, err
}
