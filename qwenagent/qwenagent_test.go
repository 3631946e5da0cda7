package qwenagent

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/checkout"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
	"github.com/agenticrl/course/qwen3/chat"
	"github.com/agenticrl/course/qwen3/model"
)

// tiny is Qwen3's vocabulary with small layers: the real tokenizer's ids are all valid.
var tinyOpts = model.TinyOptions{Seed: 3, Tied: true, HiddenSize: 32, IntermediateSize: 64, HeadDim: 8}

func tinyAgent(t *testing.T) (*Agent, string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := model.WriteTiny(dir, tinyOpts); err != nil {
		t.Fatal(err)
	}
	a, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, dir
}

var fixture = sync.OnceValues(func() (*sandbox.Pool, error) { return sandbox.New(sandbox.Options{Workers: 1}) })

func taskAndPool(t *testing.T) (*gym.Task, *sandbox.Pool) {
	t.Helper()
	root, err := checkout.Root()
	if err != nil {
		t.Skip("no checkout:", err)
	}
	tasks, err := gym.LoadTasks(filepath.Join(root, "datasets", "bugfix"))
	if err != nil {
		t.Fatal(err)
	}
	pool, err := fixture()
	if err != nil {
		t.Skip("no sandbox:", err)
	}
	return gym.Filter(tasks, gym.Train, "")[0], pool
}

const turns = 4

func env(pool *sandbox.Pool) *gym.Env {
	return gym.NewEnv(pool, gym.Config{Reward: gym.Hidden, MaxTurns: turns})
}

// TestCallTextIsTheTemplates checks CallText against the template's own rendering of a call.
func TestCallTextIsTheTemplates(t *testing.T) {
	a, _ := tinyAgent(t)
	args := schema(`{"path": "m.py", "start": 2}`)
	text, err := a.Template.Render([]chat.Message{{Role: "user", Content: "u"},
		{Role: "assistant", ToolCalls: []chat.ToolCall{{Name: "edit", Arguments: args}}}}, chat.Options{EnableThinking: thinkingOff})
	if err != nil {
		t.Fatal(err)
	}
	if want := CallText("edit", args) + "<|im_end|>"; !strings.Contains(text, want) {
		t.Errorf("the template writes\n%s\nwhich does not hold\n%s", text, want)
	}
}

// TestPlay runs a sampled episode and the scripted solution through the template, the parser
// and the gym, and checks the token stream: a prompt holding the tool schema, agent replies
// that end the turn, tool responses between them.
func TestPlay(t *testing.T) {
	a, _ := tinyAgent(t)
	task, pool := taskAndPool(t)
	ep, err := a.Play(env(pool), task, EpisodeOptions{Turns: 2, MaxNew: 8, Temperature: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	segs := ep.Trajectory.Segments
	if len(segs) != 4 || segs[0].Role != agentrl.RolePrompt || segs[1].Role != agentrl.RoleAgent ||
		segs[2].Role != agentrl.RoleEnv || segs[3].Role != agentrl.RoleAgent {
		t.Fatalf("a 2-turn episode that never submits: %d segments", len(segs))
	}
	if prompt := a.Tok.Decode(segs[0].IDs); !strings.Contains(prompt, `"name": "submit"`) || !strings.HasSuffix(prompt, "<|im_start|>assistant\n<think>\n\n</think>\n\n") {
		t.Errorf("prompt:\n%s", prompt)
	}
	if env := a.Tok.Decode(segs[2].IDs); !strings.HasPrefix(env, "<|im_end|>\n<|im_start|>user\n<tool_response>\nerror") {
		t.Errorf("tool response of a reply cut at 8 tokens: %q", env)
	}
	if len(segs[1].IDs) != 8 || len(segs[1].LogProbs) != 8 || ep.Parsed != 0 || ep.Reward() != 0 {
		t.Errorf("random reply: %d ids, %d log-probs, %d parsed, reward %g", len(segs[1].IDs), len(segs[1].LogProbs), ep.Parsed, ep.Reward())
	}
	script, err := SolveScript(task)
	if err != nil {
		t.Fatal(err)
	}
	ep, err = a.Play(env(pool), task, EpisodeOptions{Turns: turns, Script: script})
	if err != nil {
		t.Fatal(err)
	}
	if ep.Parsed != 4 || ep.Reward() != 1 || ep.Outcome == nil || !ep.Outcome.HiddenAll {
		t.Errorf("the scripted solution: %d of 4 calls parsed, reward %g", ep.Parsed, ep.Reward())
	}
	if _, err := a.Play(env(pool), task, EpisodeOptions{}); err == nil {
		t.Error("Play without a call budget: no error")
	}
}

// TestPlayGroupBatchIndependent plays 8 sampled episodes with batches of 1, 3 and 8 rows: every
// episode must come out the same (a row's draws depend on its own seed alone), with the layout
// Play gives (prompt, then agent and env segments in turn), and with a bounded number of step
// shapes compiled for the three batchings.
//
// Same up to rounding: the backend picks its matrix-product kernel by size, so a batch of 8
// rows sums in another order than a batch of 1 and log-probs move by about 1e-6; the tolerance
// is 1e-5. At temperature 1 this untrained model spreads its probability over Qwen3's whole
// vocabulary, so a draw often lands within that rounding of a token boundary and flips;
// temperature 0.5 keeps the draws clear of it.
func TestPlayGroupBatchIndependent(t *testing.T) {
	a, _ := tinyAgent(t)
	task, pool := taskAndPool(t)
	const n = 8
	play := func(batch int) []*Episode {
		envs, opts := make([]*gym.Env, n), make([]EpisodeOptions, n)
		for i := range envs {
			envs[i] = env(pool)
			opts[i] = EpisodeOptions{Turns: 2 + i%2, MaxNew: 8, Temperature: 0.5, Seed: uint64(40 + i)}
		}
		eps, err := a.PlayGroup(envs, task, opts, batch)
		if err != nil {
			t.Fatal(err)
		}
		return eps
	}
	want := play(1)
	for i, ep := range want {
		segs := ep.Trajectory.Segments
		if len(segs) != 2*(2+i%2) || segs[0].Role != agentrl.RolePrompt || len(ep.Replies) != 2+i%2 {
			t.Fatalf("episode %d: %d segments, %d replies", i, len(segs), len(ep.Replies))
		}
		for j, s := range segs[1:] {
			if role := []agentrl.Role{agentrl.RoleAgent, agentrl.RoleEnv}[j%2]; s.Role != role || len(s.IDs) == 0 {
				t.Errorf("episode %d segment %d: %s of %d ids, want %s", i, j+1, s.Role, len(s.IDs), role)
			}
		}
	}
	// The recorded log-probs are the model's own on the recorded stream: the trainer's scoring
	// of the trajectories finds them again, which it would not if the decoder's context and the
	// trajectory's segments had parted ways.
	trs := make([]agentrl.Trajectory, n)
	for i, ep := range want {
		trs[i] = ep.Trajectory
	}
	scored, err := newTrainer(t, a).LogProbs(trs)
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range trs {
		var recorded []float32
		for _, s := range tr.Segments {
			recorded = append(recorded, s.LogProbs...)
		}
		for k := range recorded {
			if d := math.Abs(float64(recorded[k] - scored[i][k])); d > 1e-4 {
				t.Errorf("episode %d, agent token %d: log-prob %g recorded, %g scored", i, k, recorded[k], scored[i][k])
			}
		}
	}
	if want[0].Replies[0] == want[1].Replies[0] {
		t.Errorf("episodes 0 and 1 replied the same %q: the seeds do not reach the rows", want[0].Replies[0])
	}
	for _, batch := range []int{3, 0} {
		sameEpisodes(t, batch, play(batch), want)
	}
	// Batches of 1, 3 (and the last of 2) and 8 rows; per batch size a prompt width, a reply
	// width, a tool response width or two, one capacity.
	c := a.Model.DecodeCompilations()
	t.Logf("%d step shapes compiled", c)
	if c > 4*4 {
		t.Errorf("%d step shapes compiled for 4 batch sizes", c)
	}
	if _, err := a.PlayGroup([]*gym.Env{env(pool)}, task, []EpisodeOptions{{Turns: 1, Script: []string{"x"}}}, 0); err == nil {
		t.Error("PlayGroup of a scripted episode: no error")
	}
}

// sameEpisodes compares episodes played with a batch of rows with those played one by one.
func sameEpisodes(t *testing.T, batch int, got, want []*Episode) {
	t.Helper()
	for i, ep := range got {
		w := want[i]
		if !slices.Equal(ep.Replies, w.Replies) || ep.Reward() != w.Reward() || ep.Parsed != w.Parsed ||
			len(ep.Trajectory.Segments) != len(w.Trajectory.Segments) {
			t.Fatalf("batch %d, episode %d: replies %q, batch 1: %q", batch, i, ep.Replies, w.Replies)
		}
		for j, s := range ep.Trajectory.Segments {
			ws := w.Trajectory.Segments[j]
			if !slices.Equal(s.IDs, ws.IDs) || len(s.LogProbs) != len(ws.LogProbs) {
				t.Fatalf("batch %d, episode %d, segment %d: ids %v, batch 1: %v", batch, i, j, s.IDs, ws.IDs)
			}
			for k := range s.LogProbs {
				if d := math.Abs(float64(s.LogProbs[k] - ws.LogProbs[k])); d > 1e-5 {
					t.Errorf("batch %d, episode %d, segment %d, token %d: log-prob %g, batch 1: %g", batch, i, j, k, s.LogProbs[k], ws.LogProbs[k])
				}
			}
		}
	}
}

// group is a group of one task: the scripted solution (reward 1) and two sampled episodes
// (reward 0).
func group(t *testing.T, a *Agent) []*Episode {
	task, pool := taskAndPool(t)
	script, err := SolveScript(task)
	if err != nil {
		t.Fatal(err)
	}
	var eps []*Episode
	for _, o := range []EpisodeOptions{{Turns: turns, Script: script}, {Turns: 2, MaxNew: 8, Temperature: 1, Seed: 2},
		{Turns: 2, MaxNew: 8, Temperature: 1, Seed: 3}} {
		ep, err := a.Play(env(pool), task, o)
		if err != nil {
			t.Fatal(err)
		}
		eps = append(eps, ep)
	}
	return eps
}

// TestUpdateFollowsAdvantages checks the sign of an update: the solved episode's agent tokens
// become more likely, the unsolved ones' less.
func TestUpdateFollowsAdvantages(t *testing.T) {
	a, _ := tinyAgent(t)
	eps := group(t, a)
	tr := newTrainer(t, a)
	step, err := tr.Update(eps)
	if err != nil {
		t.Fatal(err)
	}
	// Dr. GRPO: rewards 1, 0, 0 have mean 1/3.
	for i, want := range []float64{2.0 / 3, -1.0 / 3, -1.0 / 3} {
		if math.Abs(step.Advantages[i]-want) > 1e-9 {
			t.Errorf("advantage %d: %g, want %g", i, step.Advantages[i], want)
		}
	}
	trs := []agentrl.Trajectory{eps[0].Trajectory, eps[1].Trajectory, eps[2].Trajectory}
	after, err := tr.LogProbs(trs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range eps {
		d := mean(after[i]) - mean(step.Before[i])
		t.Logf("episode %d: advantage %+.3f, mean agent log-prob %.4f -> %.4f", i, step.Advantages[i], mean(step.Before[i]), mean(after[i]))
		if d*step.Advantages[i] <= 0 {
			t.Errorf("episode %d: advantage %+.3f, mean log-prob moved by %+.4f", i, step.Advantages[i], d)
		}
	}
	if step.AgentTokens != len(after[0])+len(after[1])+len(after[2]) || tr.Updates != 1 {
		t.Errorf("%d agent tokens counted, %d updates", step.AgentTokens, tr.Updates)
	}
	if _, err := NewTrainer(a.Model, TrainOptions{}); err == nil {
		t.Error("a trainer with learning rate 0: no error")
	}
}

// TestCheckpointResumes saves after one update, loads the folder back, and checks that the
// loaded model has exactly the same log-probs and that a second update from the restored
// trainer (Adam's moments included) lands exactly where the uninterrupted one does.
func TestCheckpointResumes(t *testing.T) {
	a, _ := tinyAgent(t)
	eps := group(t, a)
	tr := newTrainer(t, a)
	if _, err := tr.Update(eps); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ckpt")
	if err := tr.Save(dir); err != nil {
		t.Fatal(err)
	}
	b, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr2 := newTrainer(t, b)
	if err := tr2.Restore(dir); err != nil {
		t.Fatal(err)
	}
	if tr2.Updates != 1 {
		t.Errorf("restored %d updates, want 1", tr2.Updates)
	}
	trs := []agentrl.Trajectory{eps[0].Trajectory, eps[1].Trajectory, eps[2].Trajectory}
	same := func(what string) {
		x, err := tr.LogProbs(trs)
		if err != nil {
			t.Fatal(err)
		}
		y, err := tr2.LogProbs(trs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range x {
			for j := range x[i] {
				if x[i][j] != y[i][j] {
					t.Fatalf("%s: episode %d token %d: %g, loaded back %g", what, i, j, x[i][j], y[i][j])
				}
			}
		}
	}
	same("after the save")
	if _, err := tr.Update(eps); err != nil {
		t.Fatal(err)
	}
	if _, err := tr2.Update(eps); err != nil {
		t.Fatal(err)
	}
	same("after a second update")
	if _, err := Load(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "config.json") {
		t.Errorf("Load of an empty folder: %v", err)
	}
}

func newTrainer(t *testing.T, a *Agent) *Trainer {
	t.Helper()
	tr, err := NewTrainer(a.Model, TrainOptions{LR: 1e-2, Clip: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPlayRound runs two rounds with the teacher and checks what they report.
func TestPlayRound(t *testing.T) {
	a, _ := tinyAgent(t)
	task, pool := taskAndPool(t)
	tr := newTrainer(t, a)
	o := RoundOptions{Group: 3, Turns: 2, MaxNew: 8, Temperature: 1, Seed: 5, Teacher: true}
	for u := 1; u <= 2; u++ {
		r, err := tr.PlayRound(a, pool, []*gym.Task{task}, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v", r)
		// With 2 calls the teacher reads and tests: no submission, so every reward is 0 and
		// nothing moves.
		if r.Update != u || r.Task != task.ID || r.Replies != 4 || len(r.Rewards) != 3 || r.GainUp != 0 || r.GainDown != 0 || r.PromptTokens < 300 {
			t.Errorf("round %d: %+v", u, r)
		}
		// 4 sampled replies of at most 8 tokens; a prompt width, a reply width and a tool
		// response width or two, for the one batch size.
		if r.GenTokens < 4 || r.GenTokens > 4*8 || r.Compilations < 2 || r.Compilations > 4 {
			t.Errorf("round %d: %d tokens generated, %d step shapes compiled", u, r.GenTokens, r.Compilations)
		}
	}
	o.Turns = 4
	r, err := tr.PlayRound(a, pool, []*gym.Task{task}, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Rewards[0] != 1 || r.GainUp <= 0 || r.GainDown >= 0 || r.Replies != 8 {
		t.Errorf("round with the teacher's solution: %+v", r)
	}
	if _, err := tr.PlayRound(a, pool, nil, o); err == nil {
		t.Error("a round without tasks: no error")
	}
}

// TestTrainerRefusals checks the defaults and the errors of bad input.
func TestTrainerRefusals(t *testing.T) {
	a, dir := tinyAgent(t)
	tr, err := NewTrainer(a.Model, DefaultTrainOptions())
	if err != nil {
		t.Fatal(err)
	}
	if o := tr.Opts; o.LR != 1e-3 || o.Clip != 0.2 || o.ScaleByStd || o.TrainEmbeddings {
		t.Errorf("default options %+v", o)
	}
	if _, err := tr.Update(nil); err == nil {
		t.Error("an update without episodes: no error")
	}
	if _, err := tr.UpdateWith([]agentrl.Trajectory{{}}, nil); err == nil {
		t.Error("an update with 0 advantages for 1 trajectory: no error")
	}
	// Another architecture is refused by name.
	cfg, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	llama := strings.Replace(strings.Replace(string(cfg), "Qwen3ForCausalLM", "LlamaForCausalLM", 1), `"qwen3"`, `"llama"`, 1)
	if err := os.WriteFile(filepath.Join(other, "config.json"), []byte(llama), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(other, nil); err == nil || !strings.Contains(err.Error(), "llama") {
		t.Errorf("Load of a Llama config: %v", err)
	}
	// A downloaded model's folder holds weights only: training starts there with fresh moments.
	if err := tr.Restore(dir); err != nil || tr.Updates != 0 {
		t.Errorf("Restore from a folder without trainer state: %v, %d updates", err, tr.Updates)
	}
}

// TestReadRounds: rounds written as metrics lines read back field by field, a line without an
// update is skipped, and a broken line is an error that names it.
func TestReadRounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	want := []Round{{Update: 1, Task: "a", Rewards: []float64{1, 0}, GenTokens: 12, RolloutSeconds: 2.5}, {Update: 2, UpdateSeconds: 0.25}}
	var lines []string
	for _, r := range want {
		raw, err := json.Marshal(map[string]Round{"update": r})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(raw))
	}
	if !strings.HasPrefix(lines[0], `{"update":{"updates":1,"task":"a",`) {
		t.Errorf("a round's metrics line: %s", lines[0])
	}
	lines = append(lines[:1], `{"eval":{"agent":"qwen3","split":"dev"}}`, lines[1])
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRounds(path)
	if err != nil || len(got) != 2 || got[0].Task != "a" || got[0].Rewards[0] != 1 || got[0].GenTokens != 12 ||
		got[0].RolloutSeconds != 2.5 || got[1].UpdateSeconds != 0.25 {
		t.Fatalf("read %+v, %v", got, err)
	}
	if err := os.WriteFile(path, []byte(lines[0]+"\n{broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRounds(path); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("a broken second line: %v", err)
	}
}

// TestSharedLossWrapper checks that the update is built from TinyAgent's loss functions: the
// default reports PPOLoss's metrics, and Chapter 13's WithMismatch wrapper measures the gap between
// the trainer's log-probs and the sampling ones it is given: none when they are the trainer's own,
// 0.5 on every token when they are shifted by 0.5 (all outside the [0.8, 1.25] band). A loss that
// reads the entropy this trainer does not compute is an error, not a crash.
func TestSharedLossWrapper(t *testing.T) {
	a, _ := tinyAgent(t)
	eps := group(t, a)
	trs := []agentrl.Trajectory{eps[0].Trajectory, eps[1].Trajectory, eps[2].Trajectory}
	own, err := newTrainer(t, a).LogProbs(trs)
	if err != nil {
		t.Fatal(err)
	}
	// sampled returns the trajectories with own+shift as their agent tokens' sampling log-probs.
	sampled := func(shift float32) []agentrl.Trajectory {
		out := make([]agentrl.Trajectory, len(trs))
		for i, tr := range trs {
			out[i], out[i].Segments = tr, slices.Clone(tr.Segments)
			next := 0
			for s, seg := range out[i].Segments {
				if seg.Role != agentrl.RoleAgent {
					continue
				}
				lps := make([]float32, len(seg.IDs))
				for j := range lps {
					lps[j], next = own[i][next]+shift, next+1
				}
				out[i].Segments[s].LogProbs = lps
			}
		}
		return out
	}
	adv := []float64{1, -0.5, -0.5}
	def, err := newTrainer(t, a).UpdateWith(sampled(0), adv)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := def.Metrics["clip_frac"]; !ok || math.Abs(def.Metrics["approx_kl"]) > 1e-5 {
		t.Errorf("default loss's metrics %v: want PPOLoss's, with no KL before the step", def.Metrics)
	}
	for _, c := range []struct {
		shift            float32
		wantMax, wantOut float64
	}{{0, 0, 0}, {0.5, 0.5, 1}} {
		b, _ := tinyAgent(t) // the same weights, untouched by the updates above
		tr, err := NewTrainer(b.Model, TrainOptions{LR: 1e-2, Clip: 0.2,
			Loss: agentrl.WithMismatch(agentrl.PPOLoss(agentrl.PPOConfig{ClipLow: 0.2, ClipHigh: 0.2}))})
		if err != nil {
			t.Fatal(err)
		}
		s, err := tr.UpdateWith(sampled(c.shift), adv)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s.Metrics["mismatch_max"]-c.wantMax) > 1e-4 || s.Metrics["mismatch_out"] != c.wantOut {
			t.Errorf("shift %g: mismatch_max %g, mismatch_out %g; want %g and %g", c.shift, s.Metrics["mismatch_max"], s.Metrics["mismatch_out"], c.wantMax, c.wantOut)
		}
	}
	tr, err := NewTrainer(a.Model, TrainOptions{LR: 1e-2, Clip: 0.2, Loss: agentrl.WithEntropyBonus(agentrl.PGLoss(0), 0.01)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.UpdateWith(sampled(0), adv); err == nil {
		t.Error("a loss that reads the entropy: no error")
	}
}
