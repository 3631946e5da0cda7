package qwenagent

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/gym/sandbox"
)

// RoundOptions are the settings of one round: a group of episodes of one task, then an update.
type RoundOptions struct {
	Group       int     // episodes per task
	Turns       int     // tool calls per episode at most
	MaxNew      int     // tokens per reply at most
	Temperature float64 // sampling temperature
	Seed        uint64  // seeds the task drawn and every sample
	// Teacher makes the group's first episode the scripted solution (SolveScript), so that the
	// group's rewards differ even while the model cannot solve the task: a warm start that
	// pushes the model toward the call format, as SFT on demonstrations would.
	Teacher bool
	// Batch is how many of the sampled episodes decode together (PlayGroup's batch); 0: all of
	// them. It trades memory for speed and leaves the episodes as they are.
	Batch int
}

// Round is what one round measured.
type Round struct {
	Update        int       `json:"updates"` // the trainer's update count after the round
	Task          string    `json:"task"`
	Rewards       []float64 `json:"rewards"`
	Advantages    []float64 `json:"advantages"`
	Replies       int       `json:"replies"`        // sampled replies (the teacher's not counted)
	Parsed        int       `json:"parsed"`         // sampled replies that held one well-formed tool call
	PromptTokens  int       `json:"prompt_tokens"`  // the first prompt under the chat template
	EpisodeTokens float64   `json:"episode_tokens"` // mean tokens per episode, prompt included
	AgentTokens   int       `json:"agent_tokens"`   // tokens the loss counted
	GenTokens     int       `json:"gen_tokens"`     // tokens sampled (the teacher's not counted)
	// Compilations is the number of step shapes the model's Decoder has compiled so far in the
	// run: it should settle at a handful (model.DecodeCompilations).
	Compilations int     `json:"compilations"`
	Loss         float64 `json:"loss"`
	// GainUp and GainDown are the mean change of the per-token log-probability of the agent's
	// tokens over the update, in episodes with a positive and a negative advantage.
	GainUp         float64 `json:"gain_up"`
	GainDown       float64 `json:"gain_down"`
	RolloutSeconds float64 `json:"rollout_s"`
	UpdateSeconds  float64 `json:"update_s"`
}

// PlayRound plays a group of episodes of one task drawn from tasks and applies one update.
func (t *Trainer) PlayRound(a *Agent, pool *sandbox.Pool, tasks []*gym.Task, o RoundOptions) (Round, error) {
	if len(tasks) == 0 || o.Group < 1 || o.Turns < 1 || o.MaxNew < 1 {
		return Round{}, fmt.Errorf("qwenagent: a round needs tasks (%d), and Group (%d), Turns (%d) and MaxNew (%d) of at least 1",
			len(tasks), o.Group, o.Turns, o.MaxNew)
	}
	r := Round{Update: t.Updates + 1}
	rng := rand.New(rand.NewPCG(o.Seed, uint64(r.Update)))
	task := tasks[rng.IntN(len(tasks))]
	r.Task = task.ID
	start := time.Now()
	group, err := playGroup(a, pool, task, o, r.Update)
	if err != nil {
		return Round{}, err
	}
	for i, ep := range group {
		r.Rewards = append(r.Rewards, ep.Reward())
		r.EpisodeTokens += float64(ep.Trajectory.Len()) / float64(o.Group)
		r.PromptTokens = len(ep.Trajectory.Segments[0].IDs)
		if o.Teacher && i == 0 {
			continue
		}
		r.Replies += len(ep.Replies)
		r.Parsed += ep.Parsed
		for _, s := range ep.Trajectory.Segments {
			if s.Role == agentrl.RoleAgent {
				r.GenTokens += len(s.IDs)
			}
		}
	}
	r.Compilations = a.Model.DecodeCompilations()
	r.RolloutSeconds = time.Since(start).Seconds()
	start = time.Now()
	step, err := t.Update(group)
	if err != nil {
		return Round{}, err
	}
	r.UpdateSeconds = time.Since(start).Seconds()
	r.Advantages, r.AgentTokens, r.Loss = step.Advantages, step.AgentTokens, step.Loss
	trs := make([]agentrl.Trajectory, len(group))
	for i, ep := range group {
		trs[i] = ep.Trajectory
	}
	after, err := t.LogProbs(trs)
	if err != nil {
		return Round{}, err
	}
	var up, down, nUp, nDown float64
	for i := range after {
		d := mean(after[i]) - mean(step.Before[i])
		switch {
		case step.Advantages[i] > 0:
			up, nUp = up+d, nUp+1
		case step.Advantages[i] < 0:
			down, nDown = down+d, nDown+1
		}
	}
	if nUp > 0 {
		r.GainUp = up / nUp
	}
	if nDown > 0 {
		r.GainDown = down / nDown
	}
	return r, nil
}

// playGroup plays a round's group of episodes of task: the teacher's scripted one first when
// o.Teacher asks for it (with Play), then the sampled ones, decoded together (PlayGroup).
func playGroup(a *Agent, pool *sandbox.Pool, task *gym.Task, o RoundOptions, update int) ([]*Episode, error) {
	newEnv := func() *gym.Env { return gym.NewEnv(pool, gym.Config{Reward: gym.Hidden, MaxTurns: o.Turns}) }
	var group, teacher []*Episode
	var envs []*gym.Env
	var opts []EpisodeOptions
	for i := range o.Group {
		eo := EpisodeOptions{Turns: o.Turns, MaxNew: o.MaxNew, Temperature: o.Temperature,
			Seed: o.Seed*1_000_003 + uint64(update)*1009 + uint64(i)}
		if o.Teacher && i == 0 {
			script, err := SolveScript(task)
			if err != nil {
				return nil, err
			}
			eo.Script = script
			ep, err := a.Play(newEnv(), task, eo)
			if err != nil {
				return nil, err
			}
			teacher = append(teacher, ep)
			continue
		}
		envs, opts = append(envs, newEnv()), append(opts, eo)
	}
	if len(envs) > 0 {
		var err error
		if group, err = a.PlayGroup(envs, task, opts, o.Batch); err != nil {
			return nil, err
		}
	}
	return append(teacher, group...), nil
}

func mean(xs []float32) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

// ReadRounds reads the rounds of a run's metrics.jsonl as `agentrl train qwen3` writes it: one
// JSON object per line, each update's Round under "update" (the schema of every run folder's
// metrics); lines without one are skipped.
func ReadRounds(path string) ([]Round, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rounds []Round
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var l struct {
			Update *Round `json:"update"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if l.Update != nil {
			rounds = append(rounds, *l.Update)
		}
	}
	return rounds, nil
}
