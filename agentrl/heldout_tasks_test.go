package agentrl

import (
	"testing"

	"github.com/agenticrl/course/gym"
)

// TestHeldoutTasksFitTinyAgent checks that TinyAgent can play every task of the held-out family
// datasets/bugfix-heldout: at reset, with and without the patch interface, the prompt shows
// every line of the module with no token outside the vocabulary, fits the default context with
// room for a call, and the menu edit that gives the reference fix has tokens (a line and a rank
// within TinyAgent's limits) that decode back to that edit.
func TestHeldoutTasksFitTinyAgent(t *testing.T) {
	tasks, err := gym.LoadTasks("../datasets/bugfix-heldout")
	if err != nil {
		t.Fatal(err)
	}
	context := DefaultTinyAgentConfig().Context
	for _, task := range tasks {
		fix, ok := gym.FixEdit(task)
		if !ok {
			t.Errorf("%s: no menu edit gives the fix", task.ID)
			continue
		}
		a := gym.Action{Tool: gym.ToolEdit, Menu: &fix}
		for _, patches := range []bool{false, true} {
			obs := gym.NewEnv(nil, gym.Config{MaxTurns: 12, TryPatches: patches}).Reset(task).Struct
			if len(obs.Code) > TinyMaxLines {
				t.Errorf("%s: %d lines, TinyAgent shows %d", task.ID, len(obs.Code), TinyMaxLines)
			}
			prompt := EncodeObservation(obs)
			if len(prompt)+TinyMaxCall > context {
				t.Errorf("%s: a prompt of %d tokens leaves no room for a call in %d", task.ID, len(prompt), context)
			}
			for _, id := range prompt {
				if name := tinyName(id); name == "code:<unk>" || name == "code:<name>" {
					t.Errorf("%s: the prompt holds %s", task.ID, name)
				}
			}
			toks, err := ActionTokens(obs, a)
			if err != nil {
				t.Errorf("%s (patches %v): the fix %s: %v", task.ID, patches, a, err)
				continue
			}
			if back, err := DecodeAction(obs, toks); err != nil || back.String() != a.String() {
				t.Errorf("%s (patches %v): %s -> %s -> %s (%v)", task.ID, patches, a, names(toks), back, err)
			}
		}
	}
}
