package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/agenticrl/course/checkout"
)

// The baselines of `train tinyagent` are scripted: their solve rates are a function of the tasks,
// the gym's settings, the seed, the episodes per task and the code that plays and judges them, so
// an identical earlier run's rates can be read back instead of played again (about half of a cold
// run's time is the baselines' test runs). The cache key hashes all of them, the code as the
// running executable's bytes: a rebuilt binary never reads another binary's results.

// defaultBaselineCache is the checkout's baseline cache, or "" (no cache) outside a checkout.
func defaultBaselineCache() string {
	if root, err := checkout.Root(); err == nil {
		return checkout.BaselineCache(root)
	}
	return ""
}

var executableHash = sync.OnceValues(func() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", err
	}
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})

// baselineKey names the cache file of the baselines' rates for this run's settings, or returns
// an error when the executable cannot be read (then nothing is cached).
func baselineKey(f *trainFlags, run *tinyRun, splits []evalSplit, names []string) (string, error) {
	exe, err := executableHash()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	env := run.env
	env.CountTokens = nil // a function: the default one is part of the executable
	fmt.Fprintf(h, "exe %s\nseed %d\ntimeout %v\nenv %+v\nbaselines %q\n", exe, f.seed, f.timeout, env, names)
	for _, s := range splits {
		fmt.Fprintf(h, "split %s reps %d tasks %d\n", s.name, s.reps, len(s.tasks))
		for _, t := range s.tasks {
			meta, err := json.Marshal(t)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s\n%q\n%q\n%q\n%q\n", meta, t.Buggy, t.Fix, t.VisibleTests, t.HiddenTests)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// storedRow is a rateRow in a cache file: a baseline's name and its rates on train, dev and test.
type storedRow struct {
	Name  string
	Rates []string
}

// cachedBaselines reads the rows stored under key, if any.
func cachedBaselines(dir, key string) ([]rateRow, bool) {
	raw, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil {
		return nil, false
	}
	var stored []storedRow
	var rows []rateRow
	if err := json.Unmarshal(raw, &stored); err != nil {
		return nil, false // a damaged file is played again and rewritten
	}
	for _, s := range stored {
		if s.Name == "" || len(s.Rates) != 3 {
			return nil, false
		}
		rows = append(rows, rateRow{name: s.Name, rates: s.Rates})
	}
	return rows, len(rows) > 0
}

// storeBaselines writes rows under key (writeJSON: atomically).
func storeBaselines(dir, key string, rows []rateRow) error {
	stored := make([]storedRow, len(rows))
	for i, r := range rows {
		stored[i] = storedRow{Name: r.name, Rates: r.rates}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, key+".json"), stored)
}
