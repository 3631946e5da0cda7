package execute

import (
	"encoding/json"
	"testing"

	"github.com/agenticrl/course/kernel/notebook"
)

// CellTimes reads the runner's time of each code cell, slowest first, with its 1-based position
// among all cells, and leaves out cells the runner did not time.
func TestCellTimes(t *testing.T) {
	took := func(s string) json.RawMessage { return json.RawMessage(`{"agentrl": {"seconds": ` + s + `}}`) }
	nb := &notebook.Notebook{Cells: []*notebook.Cell{
		{Type: "code", ID: "a", Metadata: took("1.5")},
		{Type: "markdown", ID: "b", Metadata: took("500")},
		{Type: "code", ID: "c", Metadata: took("4.25")},
		{Type: "code", ID: "d", Metadata: json.RawMessage(`{}`)},
		{Type: "code", ID: "e", Metadata: json.RawMessage(`{"execution": {"iopub.execute_input": "2026-12-02T10:00:06Z"}}`)},
		{Type: "code", ID: "f"},
	}}
	got := CellTimes(nb)
	want := []CellTime{{Cell: 3, ID: "c", Seconds: 4.25}, {Cell: 1, ID: "a", Seconds: 1.5}}
	if len(got) != len(want) {
		t.Fatalf("CellTimes = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("CellTimes[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}
