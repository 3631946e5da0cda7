package parity

import (
	"fmt"
	"io"
	"time"
)

// Encoder is the part of a tokenizer the throughput comparison drives (tokenizer.Tokenizer).
type Encoder interface {
	Encode(text string) []int
	EncodeBatch(texts []string) [][]int
}

// Throughput compares the Go tokenizer with Hugging Face's on the same documents in the same run.
type Throughput struct {
	Bytes, Docs, Tokens int
	GoSeconds           float64 // Encode, one document after another, on one core
	GoBatchSeconds      float64 // EncodeBatch over all documents, on every core
	HF                  BenchResult
}

// Ratio is the Go tokenizer's throughput over Hugging Face's, one document at a time.
func (t Throughput) Ratio() float64 { return t.HF.Seconds / t.GoSeconds }

// BatchRatio is the same for batch encoding (both use every core).
func (t Throughput) BatchRatio() float64 { return t.HF.BatchSeconds / t.GoBatchSeconds }

// Report writes the comparison as a small table.
func (t Throughput) Report(w io.Writer) {
	mb := float64(t.Bytes) / 1e6
	fmt.Fprintf(w, "text: %d documents, %.2f MB, %d tokens\n", t.Docs, mb, t.Tokens)
	fmt.Fprintf(w, "%-34s %8s %9s\n", "", "seconds", "MB/s")
	fmt.Fprintf(w, "%-34s %8.3f %9.2f\n", "Go Encode, sequential", t.GoSeconds, mb/t.GoSeconds)
	fmt.Fprintf(w, "%-34s %8.3f %9.2f\n", "HF tokenizers encode, sequential", t.HF.Seconds, mb/t.HF.Seconds)
	fmt.Fprintf(w, "%-34s %8.3f %9.2f\n", "Go EncodeBatch", t.GoBatchSeconds, mb/t.GoBatchSeconds)
	fmt.Fprintf(w, "%-34s %8.3f %9.2f\n", "HF tokenizers encodeBatch", t.HF.BatchSeconds, mb/t.HF.BatchSeconds)
	fmt.Fprintf(w, "ratio Go/HF: %.2fx sequential, %.2fx batch\n", t.Ratio(), t.BatchRatio())
}

// CompareThroughput times tok and the reference tokenizer at tokenizerPath on docs, best of
// rounds after one warm-up pass each (both libraries cache the BPE of frequent words).
func CompareThroughput(ref *Reference, tok Encoder, tokenizerPath string, docs []string, rounds int) (Throughput, error) {
	var t Throughput
	t.Docs = len(docs)
	for _, d := range docs {
		t.Bytes += len(d)
		t.Tokens += len(tok.Encode(d)) // warm-up
	}
	t.GoSeconds = best(rounds, func() {
		for _, d := range docs {
			tok.Encode(d)
		}
	})
	t.GoBatchSeconds = best(rounds, func() { tok.EncodeBatch(docs) })
	hf, err := ref.Bench(tokenizerPath, docs, rounds)
	if err != nil {
		return t, err
	}
	if hf.Tokens != t.Tokens {
		return t, fmt.Errorf("the reference produced %d tokens and the Go tokenizer %d: fix parity before comparing speed", hf.Tokens, t.Tokens)
	}
	t.HF = hf
	return t, nil
}

func best(rounds int, f func()) float64 {
	b := 0.0
	for r := range rounds {
		start := time.Now()
		f()
		if s := time.Since(start).Seconds(); r == 0 || s < b {
			b = s
		}
	}
	return b
}
