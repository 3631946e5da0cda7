// Package parity produces the inputs and the Hugging Face reference outputs that the Qwen3
// tokenizer and chat-template tests compare against.
//
// The references come from Hugging Face's own implementations, installed from npm into
// qwen3/testdata/node_modules by qwen3/setup.sh: the `tokenizers` package (the Rust library behind
// Python's tokenizers) and `@huggingface/jinja`. They run in a small Node script,
// qwen3/testdata/reference.mjs, fed one JSON value per line.
//
// The inputs are built on the machine at test time instead of being committed: a corpus of real
// code and prose read from freely licensed files every Debian machine with Go has (the Go
// standard library, Python's standard library when installed, the texts of the common licenses
// and package documentation), and a seeded generator of strings that are hard for a tokenizer.
package parity
