#!/usr/bin/env python3
"""The PyTorch side of `agentrl bench qwen3` (package qwenbench, which embeds this file).

Loads the checkpoint with transformers' Qwen3ForCausalLM in float32, reads the batch the Go side
wrote (--batch: token ids, Go's log-probs of them, the update's old log-probs and advantages,
every setting), and:
  1. parity: computes the batch's per-token log-probs and compares them with Go's; past the
     tolerance it writes the figure and exits with status 3 before timing anything;
  2. forward: times those log-probs (copied to the host, as Go's are);
  3. update: times the course trainer's step (qwenagent.Trainer): hidden states, the head at the
     positions predicting the agent tokens, log-softmax, PPO's clipped surrogate (mean over the
     tokens), backward, torch.optim.Adam at GoMLX's settings over every weight but the tied,
     frozen embeddings;
  4. generate: times model.generate continuing one prompt in `group` rows by `new` tokens
     (sampling at temperature 1, nothing truncated, no early stop, key/value cache).
Precision: f32 (TF32 off), tf32 (TF32 matmuls), bf16 (torch.autocast to bfloat16 over the float32
weights). Each part's figures: the median of `iters` runs after `warmup`, and the first run's
time. Results go to --out as JSON, rewritten after each part; a failing part is recorded under
"errors" and the next one still runs.

Usage: qwen3_torch.py --model-dir DIR --batch batch.json --out torch.json --device cuda|cpu
"""

import argparse
import json
import math
import statistics
import sys
import time

T0 = time.time()


def log(msg):
    print(f"pytorch [{time.time() - T0:6.1f}s] {msg}", file=sys.stderr, flush=True)


try:
    import torch
except ImportError as e:
    sys.exit(f"PyTorch side: the pip package torch is missing ({e})")
try:
    import transformers
    from transformers import Qwen3ForCausalLM
except ImportError as e:
    sys.exit(f"PyTorch side: the pip package transformers (with Qwen3) is missing ({e})")


def set_precision(precision):
    tf32 = precision == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    torch.set_float32_matmul_precision("high" if tf32 else "highest")


def load(model_dir, device):
    try:
        m = Qwen3ForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    except TypeError:  # transformers before 4.56 names it torch_dtype
        m = Qwen3ForCausalLM.from_pretrained(model_dir, torch_dtype=torch.float32)
    return m.to(device).eval()


class Bench:
    def __init__(self, args, batch):
        self.args, self.b = args, batch
        self.dev = torch.device(args.device)
        self.cuda = self.dev.type == "cuda"
        self.res = {"torch": torch.__version__, "transformers": transformers.__version__, "errors": {}}
        if self.cuda:
            self.res["gpu"] = torch.cuda.get_device_name(self.dev)
        ids = torch.tensor(batch["ids"], dtype=torch.long, device=self.dev)
        self.ids, self.targets = ids[:, :-1], ids[:, 1:]

    def write(self):
        with open(self.args.out, "w") as f:
            json.dump(self.res, f)

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize(self.dev)

    def autocast(self):
        return torch.autocast(device_type=self.dev.type, dtype=torch.bfloat16, enabled=self.b["precision"] == "bf16")

    def timed(self, name, fn):
        """Runs fn warmup + iters times; records the median of the timed runs and the first."""
        b, runs, first = self.b, [], None
        for i in range(b["warmup"] + b["iters"]):
            self.sync()
            t = time.perf_counter()
            fn()
            self.sync()
            d = time.perf_counter() - t
            first = d if first is None else first
            if i >= b["warmup"]:
                runs.append(d * 1e3)
        self.res[name] = {"median_ms": statistics.median(runs), "runs_ms": runs, "first_s": first}
        log(f"{name}: median {self.res[name]['median_ms']:.1f} ms, first run {first:.2f} s")

    def logprobs(self):
        with torch.inference_mode(), self.autocast():
            logits = self.model(input_ids=self.ids, use_cache=False).logits
        return torch.log_softmax(logits.float(), dim=-1).gather(-1, self.targets.unsqueeze(-1)).squeeze(-1).cpu()

    def parity(self):
        self.sync()
        t = time.perf_counter()
        lp = self.logprobs()
        self.first_forward = time.perf_counter() - t  # the forward's first call, as on the Go side
        d = (lp.double() - torch.tensor(self.b["go_logprobs"], dtype=torch.float64)).abs()
        p = {"max_abs": d.max().item(), "mean_abs": d.mean().item()}
        self.res["parity"] = p
        self.write()
        log(f"parity: max |torch - Go| {p['max_abs']:.3e} (mean {p['mean_abs']:.3e}), tolerance {self.b['tolerance']:g}")
        if not p["max_abs"] <= self.b["tolerance"]:
            log("parity fails: nothing timed")
            sys.exit(3)

    def update_step(self):
        """The trainer's step as a closure over its inputs and Adam's state."""
        b, m = self.b, self.model
        rows, seq, k = self.ids.shape[0], self.ids.shape[1], b["agent"]
        m.get_input_embeddings().weight.requires_grad_(False)  # tied to the head; frozen as in Go
        params = [p for p in m.parameters() if p.requires_grad]
        opt = torch.optim.Adam(params, lr=b["lr"], betas=(0.9, 0.999), eps=1e-7)  # GoMLX's Adam
        r = torch.arange(rows, device=self.dev)[:, None]
        at = torch.arange(seq - k - 1, seq - 1, device=self.dev)[None].expand(rows, k)  # positions predicting them
        tgt = self.ids.gather(1, at + 1)
        old = torch.tensor(b["old"], device=self.dev)
        adv = torch.tensor(b["adv"], dtype=torch.float32, device=self.dev)[:, None].expand(rows, k)
        clip, losses = b["clip"], []

        def step():
            with self.autocast():
                h = m.model(input_ids=self.ids, use_cache=False).last_hidden_state
                logits = m.lm_head(h[r, at])
            lp = torch.log_softmax(logits.float(), dim=-1).gather(-1, tgt.unsqueeze(-1)).squeeze(-1)
            ratio = torch.exp(lp - old)
            loss = torch.maximum(-ratio * adv, -ratio.clamp(1 - clip, 1 + clip) * adv).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            losses.append(loss.item())

        return step, losses

    def generate_fn(self):
        b, m = self.b, self.model
        prompt = self.ids[:1, : b["prompt"]].expand(b["group"], -1).contiguous()
        vocab = m.config.vocab_size
        eos = m.generation_config.eos_token_id
        if isinstance(eos, int) and eos >= vocab:  # a tiny test vocabulary without Qwen3's special tokens
            m.generation_config.eos_token_id = eos = None
        pad = eos if isinstance(eos, int) else 0

        def gen():
            torch.manual_seed(b["seed"])
            with torch.inference_mode(), self.autocast():
                out = m.generate(input_ids=prompt, attention_mask=torch.ones_like(prompt), do_sample=True, temperature=1.0,
                                 top_k=0, top_p=1.0, max_new_tokens=b["new"], min_new_tokens=b["new"], use_cache=True,
                                 pad_token_id=pad)
            if out.shape[1] - prompt.shape[1] != b["new"]:
                raise RuntimeError(f"generated {out.shape[1] - prompt.shape[1]} tokens per row, want {b['new']}")

        return gen

    def run(self):
        b = self.b
        set_precision(b["precision"])
        t = time.time()
        self.model = load(self.args.model_dir, self.dev)
        self.res["attention"] = getattr(self.model.config, "_attn_implementation", "?")
        log(f"torch {torch.__version__}, transformers {transformers.__version__}: loaded {self.args.model_dir} on "
            f"{self.res.get('gpu', self.dev)} in {time.time() - t:.1f}s ({b['precision']})")
        self.parity()
        for name, make in (("forward", lambda: (self.logprobs, None)), ("update", self.update_step),
                           ("generate", lambda: (self.generate_fn(), None))):
            try:
                fn, losses = make()
                self.timed(name, fn)
                if name == "forward":
                    self.res[name]["first_s"] = self.first_forward
                if losses:
                    self.res["first_loss"] = losses[0]
            except Exception as e:  # noqa: BLE001 -- recorded; the next part still runs
                log(f"{name} FAILED: {type(e).__name__}: {e}")
                self.res["errors"][name] = f"{type(e).__name__}: {e}"
            self.write()
        if math.isnan(self.res.get("first_loss", 0.0)):
            self.res["errors"]["update"] = "the loss is NaN"
            self.write()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model-dir", required=True)
    ap.add_argument("--batch", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cuda")
    args = ap.parse_args()
    with open(args.batch) as f:
        batch = json.load(f)
    Bench(args, batch).run()


if __name__ == "__main__":
    main()
