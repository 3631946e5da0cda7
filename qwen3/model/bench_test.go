package model

import (
	"testing"
)

// BenchmarkGenerate compares decoding with the key/value cache against recomputing the whole
// sequence each step, on the default tiny checkpoint (Qwen3's 151936-token vocabulary, hidden 64,
// 2 layers): 16 prompt tokens, 48 new ones.
func BenchmarkGenerate(b *testing.B) {
	dir := b.TempDir()
	if _, err := WriteTiny(dir, TinyOptions{Seed: 1}); err != nil {
		b.Fatal(err)
	}
	m, err := Load(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	prompt := make([]int, 16)
	for i := range prompt {
		prompt[i] = 1000 + 37*i
	}
	for _, bc := range []struct {
		name    string
		noCache bool
	}{{"cache", false}, {"no-cache", true}} {
		b.Run(bc.name, func(b *testing.B) {
			o := GenerateOptions{MaxNew: 48, Temperature: 1, Seed: 1, NoCache: bc.noCache}
			if _, err := m.Generate(prompt, o); err != nil { // compile outside the timing
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := m.Generate(prompt, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*o.MaxNew), "ms/token")
		})
	}
}
