// Package tinyrt is TinyAgent's runtime: the machinery the chapters use but do not teach.
//
// Its decoder runs TinyAgent's transformer forward in plain Go over a copy of the weights, one
// row (prompt and call so far) at a time, with that row's own key/value cache. Sampling a call
// is a prompt pass and then at most six one-token steps; at this size a compiled graph spends
// most of its time on padding (every row of a batch as wide as the longest prompt), on
// per-shape compilation (seconds for each new batch size) and on copying caches, so plain loops
// over unpadded rows are faster: each row costs what its own tokens cost. Rows that start from
// the same prompt (a group's episodes at reset, or repeated evaluation episodes) share one
// prompt pass.
//
// What the chapters keep is the model's definition as a GoMLX graph (what a trainer
// differentiates) and the sampling loop over the call grammar; a test holds the decoder's
// log-probabilities against that graph. The inner loops use AVX-512 or AVX2 through Go's simd
// experiment when the CPU has it, and portable loops otherwise.
package tinyrt
