// Package qwenagent trains a Qwen3 model as a BugFix agent: the loop of the course's capstone on
// the real architecture, tokenizer and chat template instead of TinyAgent.
//
// An episode (Agent.Play) renders the gym's task and its tool schema with the model's own chat
// template, generates each reply with the key/value cache, parses the <tool_call> JSON the reply
// holds into a gym action, steps the gym in its sandbox and appends the tool response as the
// template writes it, until the episode ends or the call budget runs out. The episode is kept
// token in, token out (agentrl.Trajectory): the ids the sampler drew, never a re-tokenization.
// Agent.PlayGroup plays a group of such episodes with one model.Decoder per batch: each turn
// samples the replies of every running episode together, and the decoder's cache keeps every
// episode's context, so a turn feeds the model only the new tool response; Trainer.PlayRound
// plays its sampled episodes that way.
// A Trainer applies a GRPO-family update to a group of episodes of one task: group-relative
// advantages (agentrl.GroupAdvantages, GRPO's or Dr. GRPO's), the clipped token-level surrogate
// (agentrl.PPOPolicyLoss) over the agent's tokens only, and Adam (GoMLX's optimizer). A
// checkpoint is a model folder that model.Load reads back, plus the optimizer's state and the
// update count, so a run resumes where it stopped.
//
// Everything the chapters teach comes from package agentrl; the qwen3 packages run the model,
// the tokenizer and the template. What is hand-written here is the plumbing no library does: the
// splice of sampled ids and rendered tool responses into one token stream, the batch of agent
// positions a loss reads (the output projection runs there alone, see model.LogProbsAtGraph), and
// the checkpoint's optimizer file.
package qwenagent
