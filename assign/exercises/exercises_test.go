package exercises

import (
	"encoding/json"
	"testing"
)

// TestReferencePasses runs every case against the reference library in this process, the way the
// probe and the grader split it: the reference must earn full marks on any seed.
func TestReferencePasses(t *testing.T) {
	for _, seed := range []uint64{1, 2, 99} {
		for _, name := range Names() {
			e, _ := Find(name)
			for _, c := range e.Cases(seed) {
				out, err := json.Marshal(c.Run())
				if err != nil {
					t.Fatalf("%s/%s: %v", name, c.Name, err)
				}
				if err := c.Check(out); err != nil {
					t.Errorf("seed %d, %s/%s: the reference fails: %v", seed, name, c.Name, err)
				}
			}
		}
	}
}

// TestChecksCatchWrongAnswers feeds each case answers other than the reference's: nothing, a
// refusal that did not happen, a NaN.
func TestChecksCatchWrongAnswers(t *testing.T) {
	for _, name := range Names() {
		e, _ := Find(name)
		for _, c := range e.Cases(1) {
			right, _ := json.Marshal(c.Run())
			for _, wrong := range []string{`[]`, `{"panicked_on_bad": true, "panicked_on_good": true}`, `{"panicked_on_bad": false}`, `["NaN"]`} {
				if wrong != string(right) && c.Check(json.RawMessage(wrong)) == nil {
					t.Errorf("%s/%s accepts %s", name, c.Name, wrong)
				}
			}
		}
	}
}
