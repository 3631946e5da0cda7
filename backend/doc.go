// Package backend chooses the GoMLX compute backend every model of the course runs on: the one
// $GOMLX_BACKEND names, or else the pure-Go backend sized for this machine. It never needs or
// installs XLA. TinyAgent and the Qwen3 model share it, so neither imports the other to pick one.
// It also keeps GoMLX off its AVX-512 kernels (NoAVX512Env), so that every machine computes the
// same numbers.
package backend
