package agentrl

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenticrl/course/checkpoint"
	"github.com/agenticrl/course/gym"
)

// TestTinyTrainerCheckpointRefusals: a trainer's save that stops part way leaves the previous
// checkpoint loadable, and a checkpoint made for another agent configuration or another
// vocabulary is refused by name instead of being loaded into the wrong network.
func TestTinyTrainerCheckpointRefusals(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	trainer := func(cfg TinyAgentConfig) *TinyTrainer {
		agent, err := NewTinyAgent(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTinyTrainer(agent, pool, TinyTrainConfig{Tasks: gym.Filter(tasks, gym.Train, "")[:2],
			Env: gym.Config{MaxTurns: 2}, Groups: 1, GroupSize: 2, LR: 1e-2, Advantage: GroupBaseline(false), Loss: PGLoss(0), Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	path := filepath.Join(t.TempDir(), "checkpoint")
	if err := trainer(DefaultTinyAgentConfig()).Save(path); err != nil {
		t.Fatal(err)
	}
	// A save killed after writing its weights, before it committed.
	w, err := checkpoint.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(checkpoint.ModelFile, nil); err != nil {
		t.Fatal(err)
	}
	if err := trainer(DefaultTinyAgentConfig()).Load(path); err != nil {
		t.Fatalf("the checkpoint before an interrupted save: %v", err)
	}
	other := DefaultTinyAgentConfig()
	other.Seed++
	if err := trainer(other).Load(path); err == nil || !strings.Contains(err.Error(), "another agent configuration or vocabulary") {
		t.Errorf("a checkpoint of another configuration: %v", err)
	}
	exploit := DefaultTinyAgentConfig()
	exploit.Exploit = true // one token more
	if err := trainer(exploit).Load(path); err == nil || !strings.Contains(err.Error(), "another agent configuration or vocabulary") {
		t.Errorf("a checkpoint of another vocabulary: %v", err)
	}
}
