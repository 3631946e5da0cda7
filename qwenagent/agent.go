package qwenagent

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gomlx/compute"

	"github.com/agenticrl/course/agentrl"
	"github.com/agenticrl/course/gym"
	"github.com/agenticrl/course/qwen3/chat"
	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/model"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

// System is the system message of every episode.
const System = "You fix bugs in Python code."

func schema(s string) json.RawMessage { return json.RawMessage(s) }

// Tools are the gym's tools as the chat template lists them in the system message.
var Tools = []chat.Tool{
	{Name: "read", Description: "Show a file with line numbers.", Parameters: schema(`{"type": "object", "properties": {"path": {"type": "string"}}}`)},
	{Name: "test", Description: "Run the visible tests.", Parameters: schema(`{"type": "object", "properties": {}}`)},
	{Name: "edit", Description: "Replace lines start..end of a file by text.", Parameters: schema(`{"type": "object", "properties": {"path": {"type": "string"}, "start": {"type": "integer"}, "end": {"type": "integer"}, "text": {"type": "string"}}, "required": ["start", "end", "text"]}`)},
	{Name: "submit", Description: "Submit the fix and end the episode.", Parameters: schema(`{"type": "object", "properties": {}}`)},
}

// Agent is a Qwen3 model with the tokenizer and chat template it is prompted through.
type Agent struct {
	Model    *model.Model
	Tok      *tokenizer.Tokenizer
	Template *chat.Template
	imEnd    int // <|im_end|>: the end of a turn, where generation stops
}

// New puts a model, its tokenizer and its chat template together.
func New(m *model.Model, tok *tokenizer.Tokenizer, tm *chat.Template) (*Agent, error) {
	id, ok := tok.ID("<|im_end|>")
	if !ok {
		return nil, errors.New("qwenagent: the tokenizer has no <|im_end|> token: not a Qwen3 tokenizer")
	}
	if id >= m.Config.VocabSize {
		return nil, fmt.Errorf("qwenagent: the model's vocabulary (%d) is smaller than the tokenizer's (<|im_end|> is %d)", m.Config.VocabSize, id)
	}
	return &Agent{Model: m, Tok: tok, Template: tm, imEnd: id}, nil
}

// Load reads a model folder (config.json and safetensors) onto backend (the course's default
// when nil), with the tokenizer and chat template of that folder when it has them, else those
// package files finds (the Hugging Face cache, then the project cache). A folder written by
// `agentrl qwen3 init-tiny` or by a Trainer holds weights only.
func Load(dir string, backend compute.Backend) (*Agent, error) {
	if _, err := os.Stat(filepath.Join(dir, model.ConfigFile)); err != nil {
		return nil, fmt.Errorf("qwenagent: %s has no %s: not a model folder", dir, model.ConfigFile)
	}
	cfg, err := model.ReadConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("qwenagent: %w", err)
	}
	if len(cfg.Architectures) > 0 && cfg.Architectures[0] != "Qwen3ForCausalLM" {
		return nil, fmt.Errorf("qwenagent: %s holds a %s, not a Qwen3ForCausalLM", dir, cfg.Architectures[0])
	}
	m, err := model.Load(dir, backend)
	if err != nil {
		return nil, fmt.Errorf("qwenagent: %w", err)
	}
	d, err := files.Find(dir)
	if errors.Is(err, files.ErrNotFound) {
		d, err = files.Find("")
	}
	if err != nil {
		return nil, fmt.Errorf("qwenagent: %w", err)
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		return nil, err
	}
	tm, err := chat.Load(d.Path)
	if err != nil {
		return nil, err
	}
	return New(m, tok, tm)
}

var thinkingOff = func() *bool { b := false; return &b }()

// Prompt is the first prompt of an episode as token ids: the system message with the tool
// schema, the task as the user's message, and the generation prompt (thinking off).
func (a *Agent) Prompt(task string) ([]int, error) {
	text, err := a.Template.Render([]chat.Message{{Role: "system", Content: System}, {Role: "user", Content: task}},
		chat.Options{Tools: Tools, AddGenerationPrompt: true, EnableThinking: thinkingOff})
	if err != nil {
		return nil, err
	}
	return a.Tok.Encode(text), nil
}

// responseIDs is what the template writes after an assistant turn's <|im_end|>: obs as a tool
// response, then the next generation prompt.
func (a *Agent) responseIDs(obs string) ([]int, error) {
	full, err := a.Template.Render([]chat.Message{{Role: "user", Content: "u"}, {Role: "assistant", Content: "a"}, {Role: "tool", Content: obs}},
		chat.Options{AddGenerationPrompt: true, EnableThinking: thinkingOff})
	if err != nil {
		return nil, err
	}
	_, after, ok := strings.Cut(full, "a<|im_end|>")
	if !ok {
		return nil, errors.New("qwenagent: the chat template wrote no end of the assistant turn")
	}
	return a.Tok.Encode(after), nil
}

// CallText is a tool call as Qwen3's template writes it in an assistant turn: what a model that
// calls tools well generates before <|im_end|>.
func CallText(name string, arguments json.RawMessage) string {
	return fmt.Sprintf("<tool_call>\n{\"name\": %q, \"arguments\": %s}\n</tool_call>", name, arguments)
}

// EpisodeOptions controls Play.
type EpisodeOptions struct {
	Turns       int     // tool calls at most (give the gym's MaxTurns the same value)
	MaxNew      int     // tokens per reply at most
	Temperature float64 // sampling temperature (0: greedy)
	Seed        uint64  // seeds every reply of the episode
	// Script, when set, holds the replies to write instead of sampling them (teacher forcing):
	// one per turn, each the text before <|im_end|>. Their log-probabilities are left at 0.
	Script []string
}

// Episode is one episode: the token stream, the replies as text, and what the gym made of them.
type Episode struct {
	Task       string
	Trajectory agentrl.Trajectory // prompt, then per turn the reply's ids (agent) and the tool response's (env)
	Replies    []string
	Parsed     int          // replies that held exactly one well-formed tool call
	Outcome    *gym.Outcome // set when the episode ended by a submission
}

// Reward is the episode's reward.
func (e *Episode) Reward() float64 { return e.Trajectory.Reward }

// Play runs one episode of task in env.
func (a *Agent) Play(env *gym.Env, task *gym.Task, o EpisodeOptions) (*Episode, error) {
	if o.Turns <= 0 || (o.Script == nil && o.MaxNew <= 0) {
		return nil, fmt.Errorf("qwenagent: Turns (%d) and MaxNew (%d) must be positive", o.Turns, o.MaxNew)
	}
	p, ctx, err := a.begin(env, task, o.Turns)
	if err != nil {
		return nil, err
	}
	for turn := 0; ; turn++ {
		var reply []int
		var lps []float32
		if o.Script != nil {
			if turn >= len(o.Script) {
				return p.ep, nil
			}
			reply = append(a.Tok.Encode(o.Script[turn]), a.imEnd)
			lps = make([]float32, len(reply))
		} else {
			gen, err := a.Model.Generate(ctx, model.GenerateOptions{MaxNew: o.MaxNew, Temperature: o.Temperature,
				Seed: turnSeed(o.Seed, turn), StopIDs: []int{a.imEnd}})
			if err != nil {
				return nil, err
			}
			reply, lps = gen.Tokens, gen.LogProbs
		}
		resp, more, err := p.play(reply, lps)
		if err != nil {
			return nil, err
		}
		if !more {
			return p.ep, nil
		}
		ctx = append(append(ctx, reply...), resp...)
	}
}

// turnSeed seeds the sampler of an episode's turn from the episode's seed.
func turnSeed(seed uint64, turn int) uint64 { return seed*7919 + uint64(turn) }

// player is an episode in progress, one turn at a time: Play and PlayGroup differ only in how
// they get the replies.
type player struct {
	a     *Agent
	env   *gym.Env
	turns int // the call budget
	ep    *Episode
}

// begin resets env to task and returns the episode's player and its prompt.
func (a *Agent) begin(env *gym.Env, task *gym.Task, turns int) (*player, []int, error) {
	obs := env.Reset(task)
	prompt, err := a.Prompt(obs.Text)
	if err != nil {
		return nil, nil, err
	}
	ep := &Episode{Task: task.ID}
	ep.Trajectory.Segments = []agentrl.Segment{{Role: agentrl.RolePrompt, IDs: prompt}}
	return &player{a: a, env: env, turns: turns, ep: ep}, prompt, nil
}

// play records the next reply (its ids, and their log-probabilities under the model), steps the
// gym with the tool call it holds, and returns the ids of the tool response that follow the
// reply in the context; more is false when the episode is over.
func (p *player) play(reply []int, lps []float32) (resp []int, more bool, err error) {
	a, ep := p.a, p.ep
	ep.Trajectory.Segments = append(ep.Trajectory.Segments, agentrl.Segment{Role: agentrl.RoleAgent, IDs: reply, LogProbs: lps})
	stopped := len(reply) > 0 && reply[len(reply)-1] == a.imEnd
	text := a.Tok.Decode(reply)
	if stopped {
		text = a.Tok.Decode(reply[:len(reply)-1])
	}
	ep.Replies = append(ep.Replies, text)
	call := text // the gym answers anything that is not a call with an error observation
	if calls, err := chat.ParseToolCalls(text); err == nil && len(calls) == 1 {
		ep.Parsed++
		call = fmt.Sprintf(`{"name": %q, "arguments": %s}`, calls[0].Name, calls[0].Arguments)
	}
	st, err := p.env.StepText(call)
	if err != nil {
		return nil, false, err
	}
	if st.Done {
		ep.Trajectory.Reward, ep.Outcome = st.Reward, st.Outcome
	}
	if st.Done || len(ep.Replies) == p.turns {
		return nil, false, nil // no tool response after the last call: nothing would read it
	}
	if resp, err = a.responseIDs(st.Obs.Text); err != nil {
		return nil, false, err
	}
	if !stopped { // a reply cut at MaxNew: the turn still ends before the tool response
		resp = append([]int{a.imEnd}, resp...)
	}
	ep.Trajectory.Segments = append(ep.Trajectory.Segments, agentrl.Segment{Role: agentrl.RoleEnv, IDs: resp})
	return resp, true, nil
}

// PlayGroup plays len(envs) sampled episodes of task, episode i in envs[i] with opts[i], decoding
// up to batch of them together (0: all): each turn generates the replies of every episode still
// running as one batch (a model.Decoder, whose cache keeps each episode's context, so a turn
// feeds only the new tool response). Each episode is what Play makes of the tokens sampled
// for it: the same segments, replies, parsing and reward. Reply t of episode i is drawn from the
// random stream seeded by opts[i].Seed and t (as Play seeds its Generate call), on the backend,
// so it differs from Play's draw but not with batch or with the other episodes of its batch.
//
// The episodes share MaxNew and Temperature; their Turns may differ. Each envs[i] must be its
// own Env (a turn steps them concurrently); they may share a sandbox pool. A scripted episode
// (EpisodeOptions.Script) has nothing to sample: play it with Play.
func (a *Agent) PlayGroup(envs []*gym.Env, task *gym.Task, opts []EpisodeOptions, batch int) ([]*Episode, error) {
	if len(envs) == 0 || len(envs) != len(opts) || batch < 0 {
		return nil, fmt.Errorf("qwenagent: a group of %d environments, %d options, batch %d", len(envs), len(opts), batch)
	}
	for _, o := range opts {
		if o.Script != nil {
			return nil, errors.New("qwenagent: PlayGroup samples every episode: play a scripted one with Play")
		}
		if o.Turns <= 0 || o.MaxNew <= 0 || o.MaxNew != opts[0].MaxNew || o.Temperature != opts[0].Temperature {
			return nil, fmt.Errorf("qwenagent: PlayGroup needs positive Turns (%d) and MaxNew (%d), and one MaxNew and Temperature for the group",
				o.Turns, o.MaxNew)
		}
	}
	if batch == 0 {
		batch = len(envs)
	}
	var eps []*Episode
	for lo := 0; lo < len(envs); lo += batch {
		hi := min(lo+batch, len(envs))
		chunk, err := a.playBatch(envs[lo:hi], task, opts[lo:hi])
		if err != nil {
			return nil, err
		}
		eps = append(eps, chunk...)
	}
	return eps, nil
}

// playBatch plays episodes together with one Decoder, a row per episode.
func (a *Agent) playBatch(envs []*gym.Env, task *gym.Task, opts []EpisodeOptions) ([]*Episode, error) {
	players := make([]*player, len(envs))
	feed := make([][]int, len(envs))
	for i, env := range envs {
		p, prompt, err := a.begin(env, task, opts[i].Turns)
		if err != nil {
			return nil, err
		}
		players[i], feed[i] = p, prompt
	}
	o := opts[0]
	// Room for the replies and, as a guess, tool responses as long as the prompt in all; a
	// longer episode makes the decoder grow its cache.
	turns := 0
	for _, o := range opts {
		turns = max(turns, o.Turns)
	}
	capacity := 2*len(feed[0]) + o.MaxNew*turns
	d, err := a.Model.NewDecoder(len(envs), capacity)
	if err != nil {
		return nil, err
	}
	gen := model.GenerateOptions{MaxNew: o.MaxNew, Temperature: o.Temperature, StopIDs: []int{a.imEnd}}
	seeds := make([]uint64, len(envs))
	for turn := 0; slices.ContainsFunc(feed, func(f []int) bool { return len(f) > 0 }); turn++ {
		for i := range seeds {
			seeds[i] = turnSeed(opts[i].Seed, turn)
		}
		gens, err := d.Generate(feed, gen, seeds)
		if err != nil {
			return nil, err
		}
		// The episodes step their own gyms at once: their tests run side by side in the pool.
		var wg sync.WaitGroup
		errs := make([]error, len(gens))
		for i, g := range gens {
			if len(feed[i]) > 0 { // else over
				wg.Go(func() {
					resp, more, err := players[i].play(g.Tokens, g.LogProbs)
					feed[i], errs[i] = nil, err
					if more {
						feed[i] = resp
					}
				})
			}
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	eps := make([]*Episode, len(players))
	for i, p := range players {
		eps[i] = p.ep
	}
	return eps, nil
}

// SolveScript is the replies of an agent that knows the fix: read the module, run the tests,
// write the reference fix as a one-line edit, submit. It is the teacher's episode the course
// uses to give a group a solved member while the model cannot yet solve a task itself.
func SolveScript(t *gym.Task) ([]string, error) {
	fix, ok := gym.FixEdit(t)
	if !ok {
		return nil, fmt.Errorf("qwenagent: no one-line edit fixes task %s", t.ID)
	}
	line, err := json.Marshal(gym.SplitLines(t.Fix)[fix.Line-1])
	if err != nil {
		return nil, err
	}
	path, _ := json.Marshal(t.ModuleFile())
	return []string{
		CallText("read", schema(fmt.Sprintf(`{"path": %s}`, path))),
		CallText("test", schema(`{}`)),
		CallText("edit", schema(fmt.Sprintf(`{"path": %s, "start": %d, "end": %d, "text": %s}`, path, fix.Line, fix.Line, line))),
		CallText("submit", schema(`{}`)),
	}, nil
}
