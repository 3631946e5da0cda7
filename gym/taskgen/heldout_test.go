package taskgen

import (
	"slices"
	"strings"
	"testing"

	"github.com/agenticrl/course/gym"
)

const heldoutDir = "../../datasets/bugfix-heldout"

// TestHeldoutReproducesCommitted regenerates the heldout family with the default seed and
// compares it, file by file, with datasets/bugfix-heldout.
func TestHeldoutReproducesCommitted(t *testing.T) {
	reproduces(t, Options{Family: "heldout"}, heldoutDir, "agentrl gym generate -family heldout -tasks datasets/bugfix-heldout")
}

// TestHeldoutTemplatesAreNew checks that the heldout family shares no template with bugfix, by
// name or by source, and that every template fits TinyAgent's limits: at most 16 lines (the
// lines an edit can name), at most 16 distinct names (the name slots of gym.Vocab), and no
// token outside gym.Vocab.
func TestHeldoutTemplatesAreNew(t *testing.T) {
	if len(heldoutTemplates) < 16 {
		t.Fatalf("%d heldout templates, want at least 16 (8 for dev, 8 for test)", len(heldoutTemplates))
	}
	bugfix := map[string]bool{}
	for _, tpl := range templates {
		bugfix[tpl.name], bugfix[tpl.entry], bugfix[tpl.source] = true, true, true
	}
	for _, tpl := range heldoutTemplates {
		if bugfix[tpl.name] || bugfix[tpl.entry] || bugfix[tpl.source] {
			t.Errorf("%s: a template of the bugfix family", tpl.name)
		}
		code := gym.EncodeCode(tpl.source)
		if len(code) > 16 {
			t.Errorf("%s: %d lines, want at most 16", tpl.name, len(code))
		}
		names := map[string]bool{}
		for _, line := range code {
			for _, id := range line.Tokens {
				switch c := gym.Vocab[id]; {
				case c == "<unk>" || c == "<name>":
					t.Errorf("%s: a token outside the vocabulary (%s)", tpl.name, c)
				case strings.HasPrefix(c, "name"):
					names[c] = true
				}
			}
		}
		if len(names) > 16 {
			t.Errorf("%s: %d names, want at most 16", tpl.name, len(names))
		}
	}
}

// TestHeldoutSplits checks the committed heldout family: dev and test only, on disjoint
// templates, each split at least 300 tasks from at least 8 templates and every kind of bug.
func TestHeldoutSplits(t *testing.T) {
	tasks, err := gym.LoadTasks(heldoutDir)
	if err != nil {
		t.Fatal(err)
	}
	heldout := HeldoutTemplates()
	splitOf := map[string]gym.Split{}
	templatesOf := map[gym.Split]map[string]int{gym.Dev: {}, gym.Test: {}}
	for _, x := range tasks {
		if s, ok := splitOf[x.Template]; ok && s != x.Split {
			t.Errorf("template %s is in both %s and %s", x.Template, s, x.Split)
		}
		splitOf[x.Template] = x.Split
		if x.Split == gym.Train {
			t.Errorf("%s: the heldout family has no train split", x.ID)
			continue
		}
		if !slices.Contains(heldout, x.Template) {
			t.Errorf("%s: template %s is not a heldout template", x.ID, x.Template)
		}
		templatesOf[x.Split][x.Template]++
	}
	counts := gym.Counts(tasks)
	for _, s := range []gym.Split{gym.Dev, gym.Test} {
		if n := counts[s][""]; n < 300 {
			t.Errorf("%s: %d tasks, want at least 300", s, n)
		}
		if n := len(templatesOf[s]); n < 8 {
			t.Errorf("%s: %d templates, want at least 8", s, n)
		}
		for _, k := range gym.Kinds {
			if counts[s][k] == 0 {
				t.Errorf("%s: no task of kind %s", s, k)
			}
		}
		for name, n := range templatesOf[s] {
			if n < 15 {
				t.Errorf("%s: template %s gives %d tasks, want at least 15", s, name, n)
			}
		}
	}
	if len(splitOf) != len(heldout) {
		t.Errorf("%d templates have tasks, want all %d", len(splitOf), len(heldout))
	}
}

func TestUnknownFamily(t *testing.T) {
	if _, err := Generate(Options{Family: "easy"}); err == nil || !strings.Contains(err.Error(), `unknown family "easy"`) {
		t.Errorf("Generate of an unknown family: %v", err)
	}
}
