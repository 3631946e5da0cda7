// Package checkpoint is the one format in which everything the course trains is saved: TinyAgent
// (Chapter 3's agent, Chapter 6's trainer with its optimizer state, the run folders of
// `agentrl train`) and the Qwen3 agent (package qwenagent).
//
// A checkpoint is a folder:
//
//	checkpoint.json          what the folder holds: format, step (updates done), meta (what the
//	                         caller says identifies the model: its configuration, its
//	                         vocabulary), the size and SHA-256 of every other file, and the
//	                         layout of every variable (store path, file, tensor name, dtype,
//	                         shape, trainable, weight or optimizer state)
//	model.safetensors        the weights (F32)
//	optimizer.safetensors    the optimizer's state: moments (F32) and step counts (I64), exact
//	...                      any file a caller adds, such as a Hugging Face config.json
//
// The tensors are plain safetensors (package qwen3/safetensors), which PyTorch and NumPy read;
// the JSON is what ties them together. A file from another save (a half-copied folder, a file
// replaced by hand) no longer has the size and hash checkpoint.json records, and Open refuses the
// pair instead of loading mixed weights.
//
// Saving is atomic: Create stages every file in a hidden folder beside the checkpoint and Commit
// swaps it with the previous one in a single rename (Linux's RENAME_EXCHANGE), so a save that is
// interrupted at any point leaves the previous checkpoint whole and loadable.
package checkpoint
