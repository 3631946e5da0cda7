// Package modelref runs an independent Qwen3 implementation (reference.py, plain PyTorch) on a
// model directory, so that the Go model in qwen3/model can be checked against it on the same
// checkpoint. It needs /usr/bin/python3 with Debian's python3-torch (installed by
// qwen3/model/setup.sh).
package modelref
