package model

import (
	"testing"

	"github.com/agenticrl/course/qwen3/safetensors"
)

// BenchmarkGenerate compares decoding with the key/value cache against recomputing the whole
// sequence each step, one sequence against a group of 8 decoded together, and that group against
// the same 8 rows through a Decoder, on the default tiny checkpoint (Qwen3's 151936-token
// vocabulary, hidden 64, 2 layers): 16 prompt tokens, 48 new ones per sequence. ms/token counts
// every generated token of every row.
func BenchmarkGenerate(b *testing.B) {
	m := benchModel(b, TinyOptions{Seed: 1})
	prompt := make([]int, 16)
	for i := range prompt {
		prompt[i] = 1000 + 37*i
	}
	for _, bc := range []struct {
		name    string
		rows    int
		noCache bool
	}{{"cache", 1, false}, {"no-cache", 1, true}, {"group-8", 8, false}} {
		b.Run(bc.name, func(b *testing.B) {
			o := GenerateOptions{MaxNew: 48, Temperature: 1, Seed: 1, NoCache: bc.noCache}
			if _, err := m.GenerateGroup(prompt, bc.rows, o); err != nil { // compile outside the timing
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := m.GenerateGroup(prompt, bc.rows, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*bc.rows*o.MaxNew), "ms/token")
		})
	}
	// The same 8 rows through a Decoder: its cache stays on the backend and it samples there.
	b.Run("decoder-8", func(b *testing.B) {
		const rows = 8
		o := GenerateOptions{MaxNew: 48, Temperature: 1}
		feed, seeds := make([][]int, rows), make([]uint64, rows)
		for i := range feed {
			feed[i], seeds[i] = prompt, uint64(i)
		}
		decode := func() {
			d, err := m.NewDecoder(rows, len(prompt)+o.MaxNew)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.Generate(feed, o, seeds); err != nil {
				b.Fatal(err)
			}
		}
		decode() // compile outside the timing
		b.ResetTimer()
		for range b.N {
			decode()
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*rows*o.MaxNew), "ms/token")
	})
}

// BenchmarkQwen3_06BShape runs a random checkpoint with exactly Qwen3-0.6B's shapes (596M
// parameters, bf16 on disk, float32 in memory: about 2.4 GB): scoring 64 tokens, and a 64-token
// prompt plus 4 tokens decoded with the cache. Random weights, so it measures speed only; it
// writes a 1.2 GB checkpoint and takes minutes.
func BenchmarkQwen3_06BShape(b *testing.B) {
	m := benchModel(b, TinyOptions{Seed: 1, DType: safetensors.BF16, Tied: true, HiddenSize: 1024,
		IntermediateSize: 3072, NumHiddenLayers: 28, NumAttentionHeads: 16, NumKeyValueHeads: 8, HeadDim: 128})
	ids := make([]int, 65)
	for i := range ids {
		ids[i] = 1000 + 997*i
	}
	b.Run("logprobs-64", func(b *testing.B) {
		for range b.N {
			if _, err := m.LogProbs(ids[:64], ids[1:]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("generate-64+4", func(b *testing.B) {
		o := GenerateOptions{MaxNew: 4, Temperature: 1, Seed: 1}
		for range b.N {
			if _, err := m.Generate(ids[:64], o); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchModel writes a random checkpoint and loads it.
func benchModel(b *testing.B, o TinyOptions) *Model {
	b.Helper()
	dir := b.TempDir()
	if _, err := WriteTiny(dir, o); err != nil {
		b.Fatal(err)
	}
	m, err := Load(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	return m
}
