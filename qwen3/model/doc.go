// Package model runs the Qwen3 decoder-only transformer on GoMLX: it loads a Hugging Face model
// directory (config.json and safetensors weights in bf16, f16 or f32, one file or sharded),
// computes next-token logits and the log-probabilities of given tokens, and generates text with a
// key/value cache, greedily or by sampling, one sequence or a group of samples of one prompt at a
// time. Generation reports two log-probabilities per token: under the model itself (what a
// trainer recomputes) and under the distribution the sampler actually drew from (after
// temperature, top-k and top-p); they differ whenever sampling reshapes the distribution. A
// Decoder decodes a batch of rows that each grow at their own pace (the episodes of a group,
// turn by turn) with its cache kept on the backend and sampling done there too.
//
// The architecture follows Qwen3ForCausalLM: token embeddings; per layer an RMSNorm, grouped-query
// attention whose queries and keys are RMS-normalised per head before rotary position embeddings
// (the rotate-half form, base from rope_theta), a residual, a second RMSNorm and a SwiGLU MLP
// (down(silu(gate(x)) * up(x))) with its residual; a final RMSNorm and an output projection that is
// either its own matrix or the embedding matrix (tie_word_embeddings). Weights of any stored
// precision are converted to float32 at load and everything is computed in float32, so results
// match a float32 reference. WithDType gives a second path over the same weights that computes in
// bf16 (or f16) the way an inference engine does, to measure the engine/trainer mismatch (see
// Mismatch). SetAutocast runs the matrix products themselves in bf16 (or f16) while weights and
// everything else stay float32, as torch.autocast does: what a GPU trains and samples with.
//
// WriteTiny writes small random checkpoints with this exact file layout, so that everything here
// is tested without real weights; package qwen3/modelref checks the logits against an independent
// PyTorch implementation.
package model
