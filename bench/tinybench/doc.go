// Package tinybench times TinyAgent's training step (on GoMLX's pure-Go backend) and its sampling
// step (plain Go) against the same model and the same steps written in PyTorch (tinyagent_torch.py, run with
// Debian's /usr/bin/python3 on the CPU), measured in the same run, after checking that both
// compute the same numbers.
//
// For each batch size the Go side builds a fresh agent, samples one tool call for each of that
// many BugFix start states and packs the calls into a training batch, exactly as Chapter 6's
// trainer does. It writes the agent's weights and the batch (with its own per-token log-probs,
// the sampler's log-probs and the REINFORCE loss's gradient for every weight) to a temporary
// folder; the PyTorch script loads them, builds the network from nn.Linear, nn.LayerNorm and
// nn.Embedding, and refuses to time anything until its log-probs, its cached sampler and its
// gradients agree with GoMLX's.
//
// The two steps, defined identically on both sides:
//
//   - train: per-token log-probs of the batch under the masked policy (one full forward pass),
//     the REINFORCE loss (agentrl.REINFORCELoss), backward, and one Adam update of every weight
//     (learning rate 3e-3, betas 0.9/0.999, epsilon 1e-7: GoMLX's defaults).
//   - sample: one call for every row, as agentrl.TinyAgent.Sample draws it, each token drawn at
//     temperature 1 from the softmax of the logits masked to the call grammar. The Go side is
//     the book's sampler: tinyrt's plain-Go decoder, one unpadded row at a time with its own
//     key/value cache (identical prompts run once; the bench's start states are all distinct).
//     The PyTorch side batches the rows: a prompt pass over the prompts padded to a power-of-two
//     width that fills a key/value cache, then one cached single-token step per further token.
//
// With Options.FastGraph the Go side trains on agentrl.TinyAgent.FastGraph's graph and the
// PyTorch side's training step runs its last layer only at the positions whose log-probs are read
// (Block.at), as the fast graph does; parity is checked on that pass.
//
// Both sides run with the same number of threads (GOMAXPROCS for Go; torch.set_num_threads and
// OpenBLAS's own thread count for PyTorch), skip warm-up runs and report the median. The script
// stays running and the two sides take turns in rounds of a few runs, so that a change in the
// machine's load reaches both. PyTorch runs with the allocator and OpenMP settings of
// TorchTuning unless told otherwise. Debian's
// PyTorch calls whatever BLAS the libblas.so.3 alternative names; the reference BLAS is several
// times slower than OpenBLAS, so the script reports which library it really loaded and refuses
// to time against the reference one.
//
// Integers (token ids, positions, lengths) travel as float32 in the safetensors files, which is
// exact for every value below 2^24.
package tinybench
