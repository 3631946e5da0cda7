// reference.mjs runs Hugging Face's own tokenizer (the `tokenizers` package, a binding of the Rust
// library) and chat-template engine (`@huggingface/jinja`) on inputs written by the Go parity tests,
// so that the tests can compare the Go implementation with them output for output.
//
// Usage (one JSON value per line on stdin, one JSON value per line on stdout, in the same order):
//
//   node reference.mjs encode TOKENIZER_JSON   string            -> {"ids": [...], "offsets": [[start, end], ...]}
//   node reference.mjs decode TOKENIZER_JSON   {"ids", "skip_special"} -> string
//   node reference.mjs render                  {"template", "context"} -> {"text": ...} or {"error": ...}
//   node reference.mjs bench  TOKENIZER_JSON TEXT_FILE ROUNDS  (no stdin) -> one JSON object of timings
//
// Offsets are counted in Unicode code points of the input, as the Rust library reports them.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import tokenizers from "tokenizers";
import { Template } from "@huggingface/jinja";

async function* lines() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.length > 0) yield JSON.parse(line);
  }
}

// Writing through one buffered string keeps a large reference run from being dominated by
// thousands of small synchronous writes.
function emit(out, value) {
  out.push(JSON.stringify(value));
  if (out.length >= 512) flush(out);
}

function flush(out) {
  if (out.length > 0) process.stdout.write(out.join("\n") + "\n");
  out.length = 0;
}

async function encode(tokenizerPath) {
  const tok = tokenizers.Tokenizer.fromFile(tokenizerPath);
  const out = [];
  for await (const text of lines()) {
    const enc = await tok.encode(text, null, { addSpecialTokens: false });
    emit(out, { ids: enc.getIds(), offsets: enc.getOffsets() });
  }
  flush(out);
}

async function decode(tokenizerPath) {
  const tok = tokenizers.Tokenizer.fromFile(tokenizerPath);
  const out = [];
  for await (const req of lines()) {
    emit(out, await tok.decode(req.ids, req.skip_special));
  }
  flush(out);
}

async function render() {
  const compiled = new Map();
  const out = [];
  for await (const req of lines()) {
    try {
      let tmpl = compiled.get(req.template);
      if (!tmpl) {
        tmpl = new Template(req.template);
        compiled.set(req.template, tmpl);
      }
      emit(out, { text: tmpl.render(req.context) });
    } catch (e) {
      emit(out, { error: String(e && e.message ? e.message : e) });
    }
  }
  flush(out);
}

// bench times encoding of the same documents three ways: one call per document in sequence
// (awaiting each), and one encodeBatch call over all documents (the library's own thread pool).
async function bench(tokenizerPath, textPath, rounds) {
  const tok = tokenizers.Tokenizer.fromFile(tokenizerPath);
  const docs = JSON.parse(readFileSync(textPath, "utf8"));
  let bytes = 0;
  for (const d of docs) bytes += Buffer.byteLength(d, "utf8");
  let tokens = 0;
  for (const d of docs) tokens += (await tok.encode(d, null, { addSpecialTokens: false })).getLength(); // warm-up
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (const d of docs) await tok.encode(d, null, { addSpecialTokens: false });
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  let bestBatch = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    await tok.encodeBatch(docs, { addSpecialTokens: false });
    bestBatch = Math.min(bestBatch, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  process.stdout.write(JSON.stringify({ bytes, tokens, docs: docs.length, seconds: best, batch_seconds: bestBatch }) + "\n");
}

const [mode, ...args] = process.argv.slice(2);
switch (mode) {
  case "encode":
    await encode(args[0]);
    break;
  case "decode":
    await decode(args[0]);
    break;
  case "render":
    await render();
    break;
  case "bench":
    await bench(args[0], args[1], Number(args[2] || 3));
    break;
  default:
    process.stderr.write(`reference.mjs: unknown mode ${JSON.stringify(mode)}\n`);
    process.exit(2);
}
