//go:build xla

package backend

// Built with -tags xla (make agentrl-xla), a program can open GoMLX's XLA backend: with
// GOMLX_BACKEND=xla:/abs/path/xla_cuda_plugin.so it runs every model on a PJRT plugin, such as
// the CUDA one of JAX's pip package jax-cuda13-pjrt (backend/gpu.sh finds it). Behind a tag
// because go-xla needs cgo (it loads the plugin with dlopen), which the course's default,
// pure-Go build does without.
import _ "github.com/gomlx/go-xla/compute/xla"
