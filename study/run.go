package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Partial is a finished job kept until the study's data file is written: it makes a run
// resumable, and lets shards of a study run on different machines.
type Partial struct {
	DefinitionHash string    `json:"definition_hash"`
	CodeHash       string    `json:"code_hash"`
	Commit         string    `json:"commit"`
	Finished       string    `json:"finished"`
	Record         JobRecord `json:"record"`
}

// PartialPath is where job j of s is kept under dir (a run's work folder).
func (s *Study) PartialPath(dir string, j Job) string {
	return filepath.Join(dir, s.Chapter, s.Name, fmt.Sprintf("%s-seed%d.json", j.Arm, j.Seed))
}

// RunJob runs job j of s and returns its record.
func RunJob(s *Study, j Job) (JobRecord, error) {
	start := time.Now()
	res, err := s.Run(j)
	if err != nil {
		return JobRecord{}, fmt.Errorf("study %s, job %s: %w", s.ID(), j.Key(), err)
	}
	return JobRecord{Arm: j.Arm, Seed: j.Seed, WallSec: time.Since(start).Seconds(), Result: res}, nil
}

// ReadPartial returns the partial of job j under dir when it was run under the current
// declaration and code (hashes def and code), and nil when there is none or it is stale.
func (s *Study) ReadPartial(dir string, j Job, def, code string) (*Partial, error) {
	b, err := os.ReadFile(s.PartialPath(dir, j))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p Partial
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to run the job again)", s.PartialPath(dir, j), err)
	}
	if p.DefinitionHash != def || p.CodeHash != code || p.Record.Arm != j.Arm || p.Record.Seed != j.Seed {
		return nil, nil
	}
	return &p, nil
}

// Merge builds the data file from the partials of every job under dir; it fails, naming them,
// when jobs are missing.
func (s *Study) Merge(dir, def, code string, prov Provenance) (*Data, error) {
	d := &Data{Study: s, DefinitionHash: def, CodeHash: code, Provenance: prov}
	var missing []string
	var last string
	for _, j := range s.Jobs() {
		p, err := s.ReadPartial(dir, j, def, code)
		if err != nil {
			return nil, err
		}
		if p == nil {
			missing = append(missing, j.Key())
			continue
		}
		d.Jobs = append(d.Jobs, p.Record)
		d.Provenance.WallSec += p.Record.WallSec
		last = max(last, p.Finished)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("study %s: %d of %d jobs not run yet (%s)", s.ID(), len(missing), len(s.Jobs()), strings.Join(missing, ", "))
	}
	d.Provenance.Date = last
	return d, nil
}

// Machine describes this machine for provenance: OS, architecture, CPU model and count.
func Machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s/%s, %s, %d CPUs", runtime.GOOS, runtime.GOARCH, model, runtime.NumCPU())
}
