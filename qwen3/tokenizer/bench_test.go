package tokenizer_test

import (
	"os"
	"testing"

	"github.com/agenticrl/course/qwen3/parity"
)

// BenchmarkEncode measures Encode on the local parity corpus (bytes per second of input).
func BenchmarkEncode(b *testing.B) {
	tok, _ := loadQwen(b)
	c, err := parity.LocalCorpus(corpusBytes)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(c.Bytes))
	for b.Loop() {
		for _, d := range c.Docs {
			tok.Encode(d)
		}
	}
}

// BenchmarkEncodeBatch measures EncodeBatch on the same corpus, on every core.
func BenchmarkEncodeBatch(b *testing.B) {
	tok, _ := loadQwen(b)
	c, err := parity.LocalCorpus(corpusBytes)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(c.Bytes))
	for b.Loop() {
		tok.EncodeBatch(c.Docs)
	}
}

// BenchmarkVersusHF times Hugging Face's tokenizer on the same corpus in the same run and prints
// the ratio; it is a benchmark, so `go test` never runs it as a pass/fail check.
func BenchmarkVersusHF(b *testing.B) {
	tok, path := loadQwen(b)
	c, err := parity.LocalCorpus(corpusBytes)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		t, err := parity.CompareThroughput(reference(b), tok, path, c.Docs, 5)
		if err != nil {
			b.Fatal(err)
		}
		t.Report(os.Stdout)
		b.ReportMetric(t.Ratio(), "x-HF-seq")
		b.ReportMetric(t.BatchRatio(), "x-HF-batch")
	}
}

// BenchmarkEncodeChunks measures Encode on the corpus cut into prompt-sized pieces.
func BenchmarkEncodeChunks(b *testing.B) {
	tok, _ := loadQwen(b)
	c, err := parity.LocalCorpus(corpusBytes)
	if err != nil {
		b.Fatal(err)
	}
	chunks := parity.Chunks(c.Docs, 2048)
	b.SetBytes(int64(c.Bytes))
	for b.Loop() {
		for _, d := range chunks {
			tok.Encode(d)
		}
	}
}
