// Package tokenizer encodes text into Qwen3 token ids and decodes ids back into text, reading a
// Hugging Face tokenizer.json and agreeing with Hugging Face's own tokenizers library id for id.
//
// It implements exactly the pipeline Qwen3's tokenizer.json declares: added and special tokens are
// cut out of the raw text first; every other piece is NFC-normalized, split by the pre-tokenizer's
// regular expression, mapped to GPT-2's byte-level alphabet and merged by byte-pair encoding in
// merge-rank order. Decoding maps tokens back to bytes and replaces invalid UTF-8 the way Rust's
// String::from_utf8_lossy does, so a truncated multi-byte character decodes to U+FFFD as in
// Hugging Face's decoder.
//
// Qwen's split pattern needs a negative lookahead (`\s+(?!\S)`), which Go's regexp package cannot
// express. The pattern is therefore run by a hand-written scanner that reproduces its matches,
// including Oniguruma's case folding of the contraction alternatives (`'ſ` matches `'s`); any other
// pattern is compiled with regexp2, a backtracking engine.
//
// Offsets are byte offsets into the caller's text. A token that covers only part of a character
// reports the whole character; text changed by normalization is aligned exactly as Hugging
// Face's normalizer aligns it (a composed character reports the original character that carried
// its starter).
package tokenizer
