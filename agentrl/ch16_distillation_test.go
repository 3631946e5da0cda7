package agentrl

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/study"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// Two calls of three token slots; the second has two real tokens and one of padding, whose
// values must not count.
var (
	distillStudent = [][]float32{{-0.1, -2.0, -0.5}, {-1.2, -0.3, 7}}
	distillTeacher = [][]float32{{-0.2, -0.4, -0.5}, {-3.0, -0.1, -9}}
	distillMask    = [][]float32{{1, 1, 1}, {1, 1, 0}}
)

func TestReverseKLAdvantage(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	got := tensors.MustCopyFlatData[float32](graph.MustExecOnce(be, ReverseKLAdvantage, distillStudent, distillTeacher, distillMask))
	want := []float64{-0.1, 1.6, 0, -1.8, 0.2, 0} // log π_T − log π_S, 0 in padding
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > 1e-6 {
			t.Errorf("token %d: advantage %g, want %g", i, got[i], want[i])
		}
	}
}

func TestWithDistillation(t *testing.T) {
	be, err := backend.Default()
	if err != nil {
		t.Fatal(err)
	}
	adv := [][]float32{{1, 1, 1}, {0, 0, 5}}
	res := graph.MustExecOnceN(be, func(in []*graph.Node) []*graph.Node {
		loss, metrics := WithDistillation(PGLoss(0), 0.5)(LossInputs{LogProbs: in[0], SamplingLogProbs: in[0],
			Advantages: in[2], Mask: in[3], Entropy: graph.ZerosLike(in[0]), Named: map[string]*graph.Node{TeacherInput: in[1]}})
		out := []*graph.Node{loss}
		for _, m := range metrics {
			out = append(out, m.Value)
		}
		return out
	}, distillStudent, distillTeacher, adv, distillMask)
	// At the sampling weights the ratio is 1 and the loss is −mean(A + 0.5·(log π_T − log π_S)) over
	// the 5 real tokens: −(3 + 0.5·(−0.1))/5. reverse_kl is the mean of log π_S − log π_T: 0.1/5.
	want := []float64{-2.95 / 5, 1, 0.02} // loss, ratio, reverse_kl
	for i, r := range res {
		if got := float64(tensors.ToScalar[float32](r)); math.Abs(got-want[i]) > 1e-5 {
			t.Errorf("value %d (loss, ratio, reverse_kl) = %g, want %g", i, got, want[i])
		}
	}
}

func TestNoReward(t *testing.T) {
	ep := &TinyEpisode{Calls: []TinySample{{Tokens: []int{1, 2}}, {Tokens: []int{3}}},
		Advantages: [][]float64{{4, 4}, {4}}}
	NoReward()([][]*TinyEpisode{{ep}})
	if len(ep.Advantages) != 2 || len(ep.Advantages[0]) != 2 || len(ep.Advantages[1]) != 1 {
		t.Fatalf("advantages %v do not have the calls' shape", ep.Advantages)
	}
	for _, row := range ep.Advantages {
		for _, a := range row {
			if a != 0 {
				t.Errorf("advantages %v, want zeros", ep.Advantages)
			}
		}
	}
}

// distillAgents is a student of the default configuration and a teacher of the next seed.
func distillAgents(t *testing.T) (student, teacher *TinyAgent) {
	t.Helper()
	student, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTinyAgentConfig()
	cfg.Seed++
	if teacher, err = NewTinyAgent(cfg); err != nil {
		t.Fatal(err)
	}
	return student, teacher
}

// TestTeacherLogProbs: the input holds the teacher's log-probs of the student's tokens, not the
// student's own.
func TestTeacherLogProbs(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	student, teacher := distillAgents(t)
	eps, err := TinyRollout(student, pool, gym.Filter(tasks, gym.Train, "")[:2],
		TinyRolloutConfig{Env: gym.Config{MaxTurns: 2}, Temperature: 1, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	var samples []TinySample
	for _, ep := range eps {
		samples = append(samples, ep.Calls...)
	}
	in := TeacherLogProbs(teacher)
	if in.Name != TeacherInput {
		t.Fatalf("input named %q, want %q", in.Name, TeacherInput)
	}
	m, err := in.Build(TinyInputBatch{Samples: samples, Rows: len(samples)})
	if err != nil {
		t.Fatal(err)
	}
	want, err := teacher.LogProbs(samples)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for r, s := range samples {
		for j := range s.Tokens {
			if math.Abs(float64(m[r][j])-want[r][j]) > 1e-4 {
				t.Errorf("call %d, token %d: %g, want the teacher's %g", r, j, m[r][j], want[r][j])
			}
			differs = differs || math.Abs(want[r][j]-s.LogProbs[j]) > 1e-3
		}
	}
	if !differs {
		t.Error("the teacher's log-probs equal the student's: the test cannot tell them apart")
	}
}

// TestDistillOutcomes: each call's gap is the mean of log π_S − log π_T over its tokens, the flags
// say which calls were made, and a student scored by itself is 0 away from its teacher.
func TestDistillOutcomes(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	student, teacher := distillAgents(t)
	eps, err := TinyRollout(student, pool, gym.Filter(tasks, gym.Train, "")[:4], TinyRolloutConfig{Env: ShortRecipe().Env(), Temperature: 1, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range eps {
		self, other := distillOutcomes(student)(ep), distillOutcomes(teacher)(ep)
		lps, err := teacher.LogProbs(ep.Calls)
		if err != nil {
			t.Fatal(err)
		}
		for c := range distillCalls {
			key := fmt.Sprint("gap", c+1)
			if has := other[fmt.Sprint("has", c+1)]; has != study.Bool(c < len(ep.Calls)) {
				t.Errorf("%d calls: has%d = %g", len(ep.Calls), c+1, has)
			}
			if math.Abs(self[key]) > 1e-4 {
				t.Errorf("scored by itself, %s = %g, want 0", key, self[key])
			}
			if c >= len(ep.Calls) {
				continue
			}
			want := 0.0
			for j, lp := range ep.Calls[c].LogProbs {
				want += (lp - lps[c][j]) / float64(len(lps[c]))
			}
			if math.Abs(other[key]-want) > 1e-9 {
				t.Errorf("%s = %g, want %g", key, other[key], want)
			}
		}
		if math.Abs(self["rise"]) > 1e-4 || math.Abs(self["fail"]) > 1e-4 {
			t.Errorf("scored by itself: rise %g, fail %g, want 0", self["rise"], self["fail"])
		}
	}
}

// TestTeacherEpisodes: with the hook, an update trains on the teacher's episodes of the tasks the
// student was given, every token a demonstration, while the log counts the student's episodes.
func TestTeacherEpisodes(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	student, teacher := distillAgents(t)
	cfg, err := ShortRecipe().Config(DefaultTinyAgentConfig(), gym.Filter(tasks, gym.Train, ""))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Loss, cfg.DropUniform, cfg.Hooks = SFT(), false, []TinyHook{TeacherEpisodes(teacher, pool)}
	tr, err := NewTinyTrainer(student, pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, err := tr.Update()
	if err != nil {
		t.Fatal(err)
	}
	want := DrawTasks(cfg, TaskStream(cfg.Seed, 0), cfg.Groups)
	if len(u.Kept) != len(want) || u.Log.Episodes != len(want) {
		t.Fatalf("kept %d episodes, logged %d, want %d", len(u.Kept), u.Log.Episodes, len(want))
	}
	for i, ep := range u.Kept {
		if ep.Task != want[i] {
			t.Errorf("episode %d plays %s, want %s", i, ep.Task.ID, want[i].ID)
		}
		lps, err := teacher.LogProbs(ep.Calls)
		if err != nil {
			t.Fatal(err)
		}
		for c, call := range ep.Calls {
			for j, lp := range call.LogProbs {
				if math.Abs(lp-lps[c][j]) > 1e-4 || ep.Advantages[c][j] != 1 {
					t.Fatalf("episode %d call %d token %d: log-prob %g (teacher's %g), advantage %g", i, c, j, lp, lps[c][j], ep.Advantages[c][j])
				}
			}
		}
	}
}
