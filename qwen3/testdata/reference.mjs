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
//   node reference.mjs unicode TOKENIZER_JSON  {"letters", "numbers", "others", "marks", "decomposables"} -> {...}
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
  let batch = [];
  const run = async () => {
    for (const enc of await tok.encodeBatch(batch, { addSpecialTokens: false })) {
      emit(out, { ids: enc.getIds(), offsets: enc.getOffsets() });
    }
    batch = [];
  };
  for await (const text of lines()) {
    batch.push(text);
    if (batch.length === 256) await run();
  }
  await run();
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

// unicode probes how the tokenizer's pre-tokenizer and normalizer treat characters that Go's
// Unicode tables (possibly newer than theirs) give a class, a combining class or a decomposition.
// It reports the characters they treat differently; see qwen3/tokenizer/gen_unicode.go.
async function unicode(tokenizerPath) {
  const tok = tokenizers.Tokenizer.fromFile(tokenizerPath);
  const pre = tok.getPreTokenizer();
  const norm = tok.getNormalizer();
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const req = JSON.parse(input);
  const chr = (c) => String.fromCodePoint(c);
  const cps = (s) => [...s].map((c) => c.codePointAt(0));
  const out = { not_letters: [], not_numbers: [], extra: [], not_marks: [], nfc: {} };
  // A letter continues a letter run: "a" + c is one pre-token.
  for (const c of req.letters) if (pre.preTokenizeString("a" + chr(c)).length !== 1) out.not_letters.push(c);
  // A number stands alone: c + "a" is two pre-tokens (anything else but a letter would join "a").
  for (const c of req.numbers) if (pre.preTokenizeString(chr(c) + "a").length !== 2) out.not_numbers.push(c);
  // Neither to Go: the reference must agree.
  for (const c of req.others) {
    if (pre.preTokenizeString("a" + chr(c)).length === 1 || pre.preTokenizeString(chr(c) + "a").length === 2) out.extra.push(c);
  }
  // A combining mark of class > 1 moves after U+0334 (class 1); one of class 1 moves before U+0301.
  for (const [c, ccc] of req.marks) {
    const s = ccc > 1 ? "\u4e00" + chr(c) + "\u0334" : "\u4e00\u0301" + chr(c);
    const want = ccc > 1 ? [0x4e00, 0x334, c] : [0x4e00, c, 0x301];
    if (cps(norm.normalizeString(s)).join() !== want.join()) out.not_marks.push(c);
  }
  // NFC of each decomposable character and of its canonical decomposition.
  for (const [c, nfd] of req.decomposables) {
    out.nfc[c] = [cps(norm.normalizeString(chr(c))), cps(norm.normalizeString(nfd.map(chr).join("")))];
  }
  process.stdout.write(JSON.stringify(out) + "\n");
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
  case "unicode":
    await unicode(args[0]);
    break;
  case "bench":
    await bench(args[0], args[1], Number(args[2] || 3));
    break;
  default:
    process.stderr.write(`reference.mjs: unknown mode ${JSON.stringify(mode)}\n`);
    process.exit(2);
}
