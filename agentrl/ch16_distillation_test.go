package agentrl

import (
	"math"
	"testing"
	"time"

	"github.com/agenticrl/course/backend"
	"github.com/agenticrl/course/gym"
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

// TestTeacherLogProbs: the input holds the teacher's log-probs of the student's tokens, not the
// student's own.
func TestTeacherLogProbs(t *testing.T) {
	tasks, pool := gymFixture(t, 200*time.Millisecond)
	student, err := NewTinyAgent(DefaultTinyAgentConfig())
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTinyAgentConfig()
	cfg.Seed++
	teacher, err := NewTinyAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
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
