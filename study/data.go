package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Data is a study's committed data file.
type Data struct {
	Study          *Study      `json:"study"` // the declaration the data was run under
	DefinitionHash string      `json:"definition_hash"`
	CodeHash       string      `json:"code_hash"`
	Provenance     Provenance  `json:"provenance"`
	Jobs           []JobRecord `json:"jobs"`
}

// Provenance says how the data was made.
type Provenance struct {
	Command string   `json:"command"`
	Commit  string   `json:"commit"`  // the checkout's commit, "+dirty" when it had changes
	Machine string   `json:"machine"` // OS, architecture, CPU model and count
	Go      string   `json:"go"`
	Date    string   `json:"date"`   // when the last job finished, UTC
	WallSec float64  `json:"wall_s"` // the jobs' wall time, added up
	Workers int      `json:"workers"`
	Files   []string `json:"code_files"` // what CodeHash covered
}

// JobRecord is one job's result and cost.
type JobRecord struct {
	Arm     string  `json:"arm"`
	Seed    uint64  `json:"seed"`
	WallSec float64 `json:"wall_s"`
	Result  *Result `json:"result"`
}

// Path is where the study's data is committed: notebooks/studies/CHAPTER/NAME.json under root.
func (s *Study) Path(root string) string {
	return filepath.Join(root, "notebooks", "studies", s.Chapter, s.Name+".json")
}

// Load reads the committed data of the study with that ID ("ch09/length") under root.
func Load(root, id string) (*Data, error) {
	s, ok := Lookup(id)
	if !ok {
		return nil, fmt.Errorf("study %s is not declared", id)
	}
	b, err := os.ReadFile(s.Path(root))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("study %s has no data: run `agentrl study run %s`", id, id)
	}
	if err != nil {
		return nil, err
	}
	var d Data
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Path(root), err)
	}
	d.Study.Run = s.Run
	return &d, nil
}

// Job returns the record of arm from seed, or nil.
func (d *Data) Job(arm string, seed uint64) *JobRecord {
	for i := range d.Jobs {
		if d.Jobs[i].Arm == arm && d.Jobs[i].Seed == seed {
			return &d.Jobs[i]
		}
	}
	return nil
}

// Freshness is a study's state against its committed data.
type Freshness struct {
	Study  *Study
	Fresh  bool
	Reason string // why not: no data, the declaration changed, the code changed, jobs missing
	Data   *Data  // nil without data
}

// Check compares s with its committed data under root.
func Check(root string, s *Study) Freshness {
	f := Freshness{Study: s}
	d, err := Load(root, s.ID())
	if err != nil {
		f.Reason = err.Error()
		return f
	}
	f.Data = d
	code, err := s.CodeHash(root)
	switch {
	case err != nil:
		f.Reason = err.Error()
	case d.DefinitionHash != s.DefinitionHash():
		f.Reason = "its declaration changed since the data was run"
	case d.CodeHash != code:
		f.Reason = "the code it runs changed since the data was run"
	default:
		for _, j := range s.Jobs() {
			if r := d.Job(j.Arm, j.Seed); r == nil || r.Result == nil {
				f.Reason = "job " + j.Key() + " is missing"
				return f
			}
		}
		f.Fresh = true
	}
	return f
}

// Stamp returns the date as the data files write it.
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }
