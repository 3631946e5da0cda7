// Package safetensors reads and writes the safetensors checkpoint format used by Hugging Face
// models: an 8-byte little-endian header length, a JSON header naming each tensor's dtype, shape
// and byte range, then the raw little-endian tensor data.
//
// It reads F32, BF16 and F16 tensors into float32 (the precision the Qwen3 model computes in),
// writes F32 and BF16, reads and writes I64 (integers) exactly, and opens a model directory holding either one model.safetensors file or
// a sharded checkpoint described by model.safetensors.index.json.
package safetensors
