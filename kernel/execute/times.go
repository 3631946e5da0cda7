package execute

import (
	"encoding/json"
	"sort"

	"github.com/agenticrl/course/kernel/notebook"
)

// CellTime is how long one code cell of an executed notebook ran.
type CellTime struct {
	Cell    int    // 1-based position among all cells, as Jupyter shows them
	ID      string // the cell's id
	Seconds float64
}

// CellTimes lists the code cells that Run executed, slowest first, each with the time the runner
// measured around it (cell metadata "agentrl": {"seconds": S}; the kernel's own timestamps,
// which Jupyter records, have whole seconds only). Cells that did not run are left out.
func CellTimes(nb *notebook.Notebook) []CellTime {
	var out []CellTime
	for i, c := range nb.Cells {
		if c.Type != "code" || len(c.Metadata) == 0 {
			continue
		}
		var meta struct {
			Agentrl *struct {
				Seconds float64 `json:"seconds"`
			} `json:"agentrl"`
		}
		if json.Unmarshal(c.Metadata, &meta) != nil || meta.Agentrl == nil {
			continue
		}
		out = append(out, CellTime{Cell: i + 1, ID: c.ID, Seconds: meta.Agentrl.Seconds})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Seconds > out[b].Seconds })
	return out
}
