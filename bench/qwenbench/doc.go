// Package qwenbench times the course's Qwen3 model (package qwen3/model) against the same
// checkpoint in PyTorch (transformers' Qwen3ForCausalLM), on the same batch and in the same run,
// after checking that both compute the same log-probabilities. It is what `agentrl bench qwen3`
// runs, and it is meant for a machine with an NVIDIA GPU, where the Go side runs on GoMLX's XLA
// backend (an agentrl built with -tags xla; backend/gpu.sh prints the environment) and PyTorch
// on CUDA; on the pure-Go backend PyTorch runs on the CPU.
//
// Three parts, each timed as the median of Options.Iters runs after Options.Warmup untimed ones
// (the first run of each compiles XLA's graphs for its shapes, 15 to 70 seconds on a GPU, and is
// reported separately):
//
//   - forward: the per-token log-probabilities of a batch of Rows x Seq random token ids (full
//     logits, log-softmax, gather), copied back to the host;
//   - update: one step of qwenagent.Trainer on that batch, its last Agent tokens of each row
//     counted as the agent's: log-probs at those positions, PPO's clipped surrogate, backward,
//     Adam over every weight but the (tied, frozen) embeddings. PyTorch runs the same loss with
//     torch.optim.Adam at GoMLX's settings;
//   - generate: Group rows continuing one Prompt-token prompt by New tokens each (no stop token),
//     sampled at temperature 1 with the key/value cache; reported as tokens per second.
//
// Before any timing, PyTorch computes the forward log-probs of the batch and compares them with
// Go's; past Options.Tolerance nothing is timed, since the two sides would not be running the
// same model. The old log-probs of the update are Go's, so every ratio starts near 1.
//
// Precision (Options.Precision) applies to both sides: f32 is exact float32 (XLA's TF32
// option off, PyTorch's allow_tf32 off); tf32 rounds the inputs of float32 matrix products to
// TF32 on both (CUDA only); bf16 runs PyTorch under torch.autocast(bfloat16) and the Go model
// under its bfloat16 autocast (see goAutocast).
//
// Without a model folder the benchmark writes a random checkpoint of Qwen3-0.6B's real
// architecture (or a tiny one, Options.Tiny) at transformers' initialisation scale, so it needs
// no download. The PyTorch side is one python3 process (qwen3_torch.py, embedded) that reads
// the checkpoint and a JSON file of the batch and writes its figures as JSON.
package qwenbench
