package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/agenticrl/course/qwen3/chat"
	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/parity"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

func init() {
	register(command{name: "qwen3", summary: "the Qwen3 tokenizer, chat template and model tools", run: qwen3Main})
}

// qwen3Commands are the `agentrl qwen3 NAME` subcommands. Other files of this package add theirs
// in an init function, as top-level commands do with register.
var qwen3Commands = map[string]command{
	"tokenize":       {name: "tokenize", summary: "encode text into Qwen3 token ids (--jsonl: one JSON string per stdin line)", run: qwen3Tokenize},
	"chat":           {name: "chat", summary: "render a conversation with the chat template (--render FILE.json) or parse tool calls", run: qwen3Chat},
	"bench-tokenize": {name: "bench-tokenize", summary: "time the tokenizer against Hugging Face's on the same local text", run: qwen3BenchTokenize},
}

func qwen3Usage(w io.Writer) {
	fmt.Fprintln(w, "usage: agentrl qwen3 SUBCOMMAND [flags]\n\nsubcommands:")
	names := make([]string, 0, len(qwen3Commands))
	for n := range qwen3Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-15s %s\n", n, qwen3Commands[n].summary)
	}
	fmt.Fprintln(w, "\nThe tokenizer files come from --model-dir, else the Hugging Face cache, else the project\ncache .cache/qwen3 that `make setup` fills. Run 'agentrl qwen3 SUBCOMMAND -h' for flags.")
}

func qwen3Main(args []string) error {
	if isHelp(args) {
		qwen3Usage(stderr)
		return flag.ErrHelp
	}
	if len(args) == 0 {
		qwen3Usage(stderr)
		return fmt.Errorf("%w: a subcommand is required", errUsage)
	}
	c, ok := qwen3Commands[args[0]]
	if !ok {
		qwen3Usage(os.Stderr)
		return fmt.Errorf("%w: unknown subcommand %q", errUsage, args[0])
	}
	if err := c.run(args[1:]); err != nil {
		if strings.HasPrefix(err.Error(), c.name+": ") { // the package named itself already
			return err
		}
		return fmt.Errorf("%s: %w", c.name, err)
	}
	return nil
}

// qwen3Flags is a flag set with --model-dir, returning usage errors instead of exiting.
func qwen3Flags(name string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("agentrl qwen3 "+name, flag.ContinueOnError)
	dir := fs.String("model-dir", "", "directory holding tokenizer.json and tokenizer_config.json")
	return fs, dir
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	return nil
}

func qwen3Tokenize(args []string) error {
	fs, dir := qwen3Flags("tokenize")
	jsonl := fs.Bool("jsonl", false, "read one JSON string per line on stdin, write one JSON array of ids per line")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *jsonl != (fs.NArg() == 0) {
		return fmt.Errorf("%w: give either one TEXT argument or --jsonl", errUsage)
	}
	d, err := files.Find(*dir)
	if err != nil {
		return err
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if !*jsonl {
		text := strings.Join(fs.Args(), " ")
		ids := tok.Encode(text)
		for _, id := range ids {
			fmt.Fprintf(out, "%7d  %q\n", id, tok.TokenBytes(id))
		}
		enc, _ := json.Marshal(ids)
		fmt.Fprintf(out, "%d tokens: %s\n", len(ids), enc)
		return nil
	}
	return tokenizeJSONL(tok, os.Stdin, out)
}

// tokenizeJSONL encodes stdin in batches, so that a large file uses every core.
func tokenizeJSONL(tok *tokenizer.Tokenizer, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	line := 0
	var batch []string
	flush := func() error {
		for _, ids := range tok.EncodeBatch(batch) {
			if ids == nil {
				ids = []int{}
			}
			enc, _ := json.Marshal(ids)
			if _, err := fmt.Fprintf(out, "%s\n", enc); err != nil {
				return err
			}
		}
		batch = batch[:0]
		return nil
	}
	for sc.Scan() {
		line++
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return fmt.Errorf("stdin line %d: not a JSON string: %v", line, err)
		}
		if batch = append(batch, s); len(batch) == 1024 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read stdin: %w", err)
	}
	return flush()
}

func readInput(path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(path)
}

func qwen3Chat(args []string) error {
	fs, dir := qwen3Flags("chat")
	render := fs.String("render", "", "JSON file (- for stdin) with messages, and optionally tools, add_generation_prompt, enable_thinking")
	calls := fs.String("tool-calls", "", "file (- for stdin) of generated text: print its tool calls as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*render == "") == (*calls == "") || fs.NArg() > 0 {
		return fmt.Errorf("%w: give exactly one of --render FILE.json or --tool-calls FILE", errUsage)
	}
	if *calls != "" {
		text, err := readInput(*calls)
		if err != nil {
			return err
		}
		parsed, err := chat.ParseToolCalls(string(text))
		if err != nil {
			return err
		}
		if parsed == nil {
			parsed = []chat.ToolCall{}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(parsed)
	}
	conv, err := readInput(*render)
	if err != nil {
		return err
	}
	d, err := files.Find(*dir)
	if err != nil {
		return err
	}
	tm, err := chat.Load(d.Path)
	if err != nil {
		return err
	}
	text, err := tm.RenderJSON(conv)
	if err != nil {
		return err
	}
	_, err = io.WriteString(os.Stdout, text)
	return err
}

func qwen3BenchTokenize(args []string) error {
	fs, dir := qwen3Flags("bench-tokenize")
	rounds := fs.Int("rounds", 3, "timed rounds per configuration (the best is kept)")
	size := fs.Int("bytes", 1_200_000, "size of the local corpus to assemble")
	chunk := fs.Int("chunk", 2048, "size of the chunks in the second configuration")
	list := fs.Bool("list", false, "print the files the corpus was read from")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkBounds(
		bound{flag: "--rounds", value: float64(*rounds), lo: 1, hi: 1000},
		bound{flag: "--bytes", value: float64(*size), lo: 1, hi: 1 << 30},
		bound{flag: "--chunk", value: float64(*chunk), lo: 1, hi: 1 << 30},
	); err != nil {
		return err
	}
	d, err := files.Find(*dir)
	if err != nil {
		return err
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		return err
	}
	ref, err := parity.FindReference()
	if err != nil {
		return err
	}
	c, err := parity.LocalCorpus(*size)
	if err != nil {
		return err
	}
	if *list {
		for _, f := range c.Files {
			fmt.Println(f)
		}
	}
	fmt.Printf("tokenizer: %s (%s)\n\n", d.Tokenizer(), d.Source)
	for _, cfg := range []struct {
		name string
		docs []string
	}{
		{"whole files (up to 48 KB each)", c.Docs},
		{fmt.Sprintf("chunks of up to %d bytes at line ends", *chunk), parity.Chunks(c.Docs, *chunk)},
	} {
		fmt.Printf("== %s\n", cfg.name)
		t, err := parity.CompareThroughput(ref, tok, d.Tokenizer(), cfg.docs, *rounds)
		if err != nil {
			return err
		}
		t.Report(os.Stdout)
		fmt.Println()
	}
	return nil
}
