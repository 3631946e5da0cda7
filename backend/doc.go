// Package backend chooses the GoMLX compute backend every model of the course runs on: the one
// $GOMLX_BACKEND names, or else the pure-Go backend sized for this machine. It never needs or
// installs XLA. TinyAgent and the Qwen3 model share it, so neither imports the other to pick one.
// It also keeps GoMLX off AVX-512 (NoAVX512Env for its matrix kernels, NoAVX512Godebug for the
// Go runtime's vector width), so that every machine computes the same numbers.
package backend
