package tinyrt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomDecoder builds a decoder over random weights of a small model.
func randomDecoder(t *testing.T, cfg Config) *Decoder {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	d, err := New(cfg, func(name string) ([]float32, error) {
		n := map[string]int{"tok_emb": cfg.Vocab * cfg.Dim, "pos_emb": cfg.Context * cfg.Dim, "lnf_g": cfg.Dim, "lnf_b": cfg.Dim, "head": cfg.Dim * cfg.Vocab}[name]
		if n == 0 {
			base := name[strings.Index(name, "/")+1:]
			n = map[string]int{"ln1_g": cfg.Dim, "ln1_b": cfg.Dim, "qkv": 3 * cfg.Dim * cfg.Dim, "qkv_b": 3 * cfg.Dim, "out": cfg.Dim * cfg.Dim,
				"out_b": cfg.Dim, "ln2_g": cfg.Dim, "ln2_b": cfg.Dim, "mlp1": 4 * cfg.Dim * cfg.Dim, "mlp1_b": 4 * cfg.Dim,
				"mlp2": 4 * cfg.Dim * cfg.Dim, "mlp2_b": cfg.Dim}[base]
		}
		w := make([]float32, n)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * 0.5)
		}
		return w, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var small = Config{Dim: 32, Layers: 2, Heads: 2, Context: 40, Vocab: 11}

// TestCachedEqualsRecomputed: a row fed token by token has the logits of a prompt pass over
// the same tokens, and rows that share a prompt pass stay independent afterwards.
func TestCachedEqualsRecomputed(t *testing.T) {
	for _, cfg := range []Config{small, {Dim: 64, Layers: 1, Heads: 4, Context: 30, Vocab: 7}} {
		d := randomDecoder(t, cfg)
		prompt := []int{1, 4, 2, 2, 9 % cfg.Vocab, 0}
		rows, err := d.Start([][]int{prompt, prompt, {3}}, 4)
		if err != nil {
			t.Fatal(err)
		}
		if rows[0] == rows[1] || rows[0].Len() != len(prompt) || rows[2].Len() != 1 {
			t.Fatalf("rows share state or have wrong lengths: %d %d", rows[0].Len(), rows[2].Len())
		}
		feeds := [][]int{{5, 3, 1}, {6, 6, 2}, {1, 2, 3}}
		for step := range 3 {
			if err := d.Feed(rows, []int{feeds[0][step], feeds[1][step], feeds[2][step]}); err != nil {
				t.Fatal(err)
			}
		}
		for i, start := range [][]int{prompt, prompt, {3}} {
			full, err := d.Start([][]int{append(slices.Clone(start), feeds[i]...)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			for v := range cfg.Vocab {
				if diff := math.Abs(float64(full[0].Logits[v] - rows[i].Logits[v])); diff > 1e-4 {
					t.Fatalf("%+v row %d logit %d: cached %g, recomputed %g", cfg, i, v, rows[i].Logits[v], full[0].Logits[v])
				}
			}
		}
	}
}

// TestBadInput: every misuse is an error that says what was wrong.
func TestBadInput(t *testing.T) {
	d := randomDecoder(t, small)
	for _, c := range []struct {
		prompts [][]int
		extra   int
		want    string
	}{
		{[][]int{{}}, 1, "empty"},
		{[][]int{{1, 11}}, 1, "outside the vocabulary"},
		{[][]int{{1, -1}}, 1, "outside the vocabulary"},
		{[][]int{make([]int, 38)}, 3, "exceeds the context"},
	} {
		if _, err := d.Start(c.prompts, c.extra); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Start(%v, %d): %v, want an error about %q", c.prompts, c.extra, err, c.want)
		}
	}
	rows, err := d.Start([][]int{{1, 2}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Feed(rows, []int{11}); err == nil || !strings.Contains(err.Error(), "outside the vocabulary") {
		t.Errorf("Feed of token 11: %v", err)
	}
	if err := d.Feed(rows, []int{1, 2}); err == nil {
		t.Error("Feed with more tokens than rows: no error")
	}
	if err := d.Feed(rows, []int{3}); err != nil {
		t.Fatal(err)
	}
	if err := d.Feed(rows, []int{3}); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("Feed past the room: %v", err)
	}
	d.Free()
	if err := d.Feed(rows, []int{3}); err == nil || !strings.Contains(err.Error(), "freed") {
		t.Errorf("Feed after Free: %v", err)
	}
	_, err = New(small, func(name string) ([]float32, error) {
		if name == "head" {
			return nil, fmt.Errorf("missing")
		}
		return make([]float32, 1), nil
	})
	if err == nil || !strings.Contains(err.Error(), "tok_emb has 1 values") {
		t.Errorf("New with wrong sizes: %v", err)
	}
	if _, err := New(Config{Dim: 30, Layers: 1, Heads: 4, Context: 8, Vocab: 5}, nil); err == nil {
		t.Error("New with Dim not a multiple of Heads: no error")
	}
}

// TestFreedMemoryGivesTheSameLogits: rows built on memory that earlier rows used and freed give
// the logits of rows built on fresh memory, bit for bit.
func TestFreedMemoryGivesTheSameLogits(t *testing.T) {
	d := randomDecoder(t, small)
	run := func(prompts [][]int) [][]float32 {
		rows, err := d.Start(prompts, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Feed(rows, make([]int, len(rows))); err != nil {
			t.Fatal(err)
		}
		var logits [][]float32
		for _, r := range rows {
			logits = append(logits, slices.Clone(r.Logits))
		}
		d.Free()
		return logits
	}
	prompts := [][]int{{1, 2, 3}, {4, 5, 6, 7, 8}, {1, 2, 3}}
	fresh := run(prompts)
	run([][]int{{9, 9, 9, 9, 9, 9, 9}, {10, 10, 10}, {3}}) // leaves other values in the pool
	again := run(prompts)
	for i := range fresh {
		if !slices.Equal(fresh[i], again[i]) {
			t.Fatalf("row %d: %v on fresh memory, %v on reused memory", i, fresh[i], again[i])
		}
	}
}
