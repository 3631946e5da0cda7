package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/safetensors"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

func init() {
	qwen3Commands["init-tiny"] = command{name: "init-tiny",
		summary: "write a small random Qwen3-architecture checkpoint (config.json + safetensors)", run: qwen3InitTiny}
	qwen3Commands["logprobs"] = command{name: "logprobs",
		summary: "print the log-probability of each token of --ids or --text given the ones before it", run: qwen3LogProbs}
}

// newQwen3ModelFlags makes a flag set that reports bad usage as errUsage instead of exiting.
func newQwen3ModelFlags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("agentrl qwen3 "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: agentrl qwen3 %s %s\n", name, usage)
		fs.SetOutput(os.Stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

func parseQwen3ModelFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	return nil
}

func qwen3InitTiny(args []string) error {
	fs := newQwen3ModelFlags("init-tiny", "[flags] [DIR]")
	dir := fs.String("model-dir", "", "directory to write (or give it as the argument)")
	seed := fs.Uint64("seed", 1, "random seed")
	vocab := fs.Int("vocab", 151936, "vocabulary size (Qwen3's by default, so real tokenizer ids are valid)")
	dtype := fs.String("dtype", "bf16", "weight precision: bf16 or f32")
	tied := fs.Bool("tied", true, "tie the output matrix to the embeddings (as Qwen3-0.6B does)")
	shards := fs.Int("shards", 1, "number of safetensors files (>1 writes model.safetensors.index.json)")
	hidden := fs.Int("hidden", 64, "hidden size")
	layers := fs.Int("layers", 2, "number of layers")
	overwrite := fs.Bool("overwrite", false, "replace the checkpoint files of a directory that is not empty")
	if err := parseQwen3ModelFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *dir == "" && fs.NArg() == 1:
		*dir = fs.Arg(0)
	case *dir == "" || fs.NArg() > 0:
		return fmt.Errorf("%w: give the directory once, as --model-dir DIR or DIR", errUsage)
	}
	if err := checkBounds(
		bound{flag: "--vocab", value: float64(*vocab), lo: 1, hi: 1 << 20},
		bound{flag: "--shards", value: float64(*shards), lo: 1, hi: 64},
		bound{flag: "--hidden", value: float64(*hidden), lo: 1, hi: 16384},
		bound{flag: "--layers", value: float64(*layers), lo: 1, hi: 256},
	); err != nil {
		return err
	}
	st := map[string]string{"bf16": safetensors.BF16, "f32": safetensors.F32}[strings.ToLower(*dtype)]
	if st == "" {
		return fmt.Errorf("%w: --dtype %q: want bf16 or f32", errUsage, *dtype)
	}
	if entries, err := os.ReadDir(*dir); err == nil && len(entries) > 0 && !*overwrite {
		return fmt.Errorf("%w: %s is not empty: pass --overwrite to replace its checkpoint files, or give a new directory", errUsage, *dir)
	}
	// The checkpoint is written beside the directory first and its files moved in once all are
	// complete: a failure or an interrupt leaves the directory as it was.
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(*dir)), 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(filepath.Dir(filepath.Clean(*dir)), "."+filepath.Base(filepath.Clean(*dir))+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	cfg, err := model.WriteTiny(stage, model.TinyOptions{Seed: *seed, VocabSize: *vocab, DType: st, Tied: *tied,
		Shards: *shards, HiddenSize: *hidden, IntermediateSize: 2 * *hidden, NumHiddenLayers: *layers})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	files, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Rename(filepath.Join(stage, f.Name()), filepath.Join(*dir, f.Name())); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %s: Qwen3 architecture, %d layers, hidden %d, vocab %d, %s, tied=%v, %d parameters (random, seed %d)\n",
		*dir, cfg.NumHiddenLayers, cfg.HiddenSize, cfg.VocabSize, cfg.TorchDType, cfg.TieWordEmbeddings, cfg.NumParameters(), *seed)
	return nil
}

// checkModelDir refuses a --model-dir that is missing or holds no config.json, saying what it
// must hold: loading it would fail with a bare "no such file", and generate would first look for
// the tokenizer elsewhere and report that instead.
func checkModelDir(dir string) error {
	const want = "want a folder holding config.json and model.safetensors (a download of " + files.Repo + "; `agentrl qwen3 init-tiny DIR` writes a small random one)"
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%w: --model-dir %s is not a folder: %s", errUsage, dir, want)
	}
	if _, err := os.Stat(filepath.Join(dir, model.ConfigFile)); err != nil {
		return fmt.Errorf("%w: --model-dir %s has no %s: %s", errUsage, dir, model.ConfigFile, want)
	}
	return nil
}

func qwen3LogProbs(args []string) error {
	const usage = "--model-dir DIR (--ids ID,ID,... | --text TEXT)"
	fs := newQwen3ModelFlags("logprobs", usage)
	dir := fs.String("model-dir", "", "model directory (config.json + safetensors)")
	idList := fs.String("ids", "", "comma-separated token ids, at least two")
	text := fs.String("text", "", "text to tokenize with the Qwen3 tokenizer instead of --ids (special tokens such as <|im_start|> are recognized)")
	tokDir := fs.String("tokenizer-dir", "", "with --text: directory with tokenizer.json "+
		"(default: the model directory when it holds it, else the usual search)")
	if err := parseQwen3ModelFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" || (*idList == "") == (*text == "") || fs.NArg() > 0 {
		return fmt.Errorf("%w: agentrl qwen3 logprobs %s", errUsage, usage)
	}
	var ids []int
	var tok *tokenizer.Tokenizer
	if *text != "" {
		d, err := tokenizerFiles(*tokDir, *dir)
		if err != nil {
			return err
		}
		if tok, err = tokenizer.Load(d.Path); err != nil {
			return err
		}
		ids = tok.Encode(*text)
	} else {
		for _, s := range strings.Split(*idList, ",") {
			id, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || id < 0 {
				return fmt.Errorf("%w: --ids: %q is not a token id (want comma-separated integers from 0)", errUsage, s)
			}
			ids = append(ids, id)
		}
	}
	if len(ids) < 2 {
		return fmt.Errorf("%w: %d token(s): at least two are needed (the first is only context)", errUsage, len(ids))
	}
	if err := checkModelDir(*dir); err != nil {
		return err
	}
	m, err := model.Load(*dir, nil)
	if err != nil {
		return err
	}
	lps, err := m.LogProbs(ids[:len(ids)-1], ids[1:])
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d layers, hidden %d, vocab %d, %d parameters; computed in float32\n",
		*dir, m.Config.NumHiddenLayers, m.Config.HiddenSize, m.Config.VocabSize, m.Config.NumParameters())
	fmt.Printf("%5s %8s %10s", "pos", "token", "logprob")
	if tok != nil {
		fmt.Printf("  %s", "text")
	}
	fmt.Println()
	total := 0.0
	for i, lp := range lps {
		fmt.Printf("%5d %8d %10.4f", i+1, ids[i+1], lp)
		if tok != nil {
			fmt.Printf("  %q", tok.TokenBytes(ids[i+1]))
		}
		fmt.Println()
		total += float64(lp)
	}
	fmt.Printf("total %.4f over %d tokens (mean %.4f)\n", total, len(lps), total/float64(len(lps)))
	return nil
}
