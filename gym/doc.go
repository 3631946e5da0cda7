// Package gym is the BugFix gym: an environment in which an agent repairs small buggy Python
// modules with the tools read, test, edit and submit, and is rewarded by tests it never sees.
//
// # Tasks
//
// A Task (see LoadTasks) is a module with one bug, a visible test file the agent may run, a
// stronger hidden test file that decides the reward, and the reference fix. The family under
// datasets/bugfix is generated from function templates by package taskgen; its train, dev and
// test splits never share a template. datasets/bugfix-heldout is a larger family for evaluation
// only (dev and test), from templates that no split of datasets/bugfix has. Validate proves for
// every task that the bug fails a visible test, that the fix passes every test, and that
// memorizing the visible tests passes them but fails a hidden one.
//
// # Episodes
//
//	pool, _ := sandbox.New(sandbox.Options{})
//	env := gym.NewEnv(pool, gym.Config{Reward: gym.Hidden, MaxTurns: 12})
//	obs := env.Reset(task)                        // obs.Text: the prompt
//	st, _ := env.Step(gym.Action{Tool: gym.ToolTest})
//	st, _ = env.StepText(`{"name": "edit", "arguments": {"start": 2, "end": 2, "text": "..."}}`)
//	st, _ = env.Step(gym.Action{Tool: gym.ToolSubmit}) // st.Done, st.Reward, st.Outcome
//
// Mistakes of the agent (unknown tools, bad arguments, edits that would not compile) become
// error observations, never Go errors, and cost a turn like any call. MaxTurns and MaxTokens end
// an episode cleanly with Truncated set and reward 0, unless SubmitAtLimit has the turn limit
// submit the module as it stands.
//
// # Two kinds of observation
//
// Observation.Text is for a language model. Observation.Struct is for a tiny policy: the code as
// token-class ids (Vocab), a TestSummary of the latest visible run, and the edit menu: for every
// line, the candidate edits Menu offers, each a small mutation (a comparison, operator, bound,
// constant, argument order, returned name, connective, or a one-line guard) that keeps the
// module valid Python. A tiny policy edits by choosing (line, index) instead of writing code;
// every task's fix is one menu edit away (FixEdit finds it). Every edit also has a Class, what
// it does wherever it is ("cmp:<=", "drop-1", "guard", ...): the index of an edit means
// something else on every line, its class the same thing in every function. Env.Actions lists every
// well-formed action of the current state, for a policy that picks rather than writes.
//
// With Config.TryPatches an episode is a search over candidate patches, as in harnesses that
// test one proposed patch at a time: a menu edit applies to the module as it was at reset,
// replacing the previous patch instead of adding to it, the visible tests run after it, and
// StructObs.Tried lists the patches tried so far (StructObs.Patches says the interface is on).
// An agent then finds a fix by patching until
// the tests pass and submitting, which needs one call per candidate instead of three (edit, test,
// revert).
//
// # Rewards and reward hacking
//
// Submit runs the visible tests on the workspace and the hidden tests, each run in a new process
// that never sees the expected values: the sandbox's judge compares what the module returned
// with them (see package sandbox). RewardMode Hidden rewards the hidden tests, VisibleOnly the
// visible ones (hackable on purpose) and Combined half of each, nothing when the test file was
// edited. With Config.AllowExploit the exploit tool hacks for real: ExploitMemorize special-cases
// the visible inputs, and ExploitRewriteTests replaces the visible test file; StructObs.Exploit
// tells a tiny policy that the tool is offered. Every Outcome
// carries the detectors' flags: visible and hidden results that diverge, a modified test file,
// and suspicious code (imports, introspection, patching), which no task needs.
package gym
