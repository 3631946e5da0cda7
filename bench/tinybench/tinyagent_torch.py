#!/usr/bin/python3
"""TinyAgent in plain PyTorch, checked against GoMLX's numbers and then timed.

The Go side (package tinybench) writes, into --dir:
  config.json         sizes, the number of real rows, the grammar's token ids
  weights.safetensors TinyAgent's weights by name (tok_emb, pos_emb, layer0/qkv, ..., head),
                      stored as GoMLX keeps them: matrices [in, out]
  batch.safetensors   a training batch (ids, at, targets, allowed, adv, mask), GoMLX's log-probs
                      of it and its REINFORCE gradients (grad/<name>), and the sampler's inputs
                      and GoMLX's sampled calls (prompt_ids, prompt_len, class_count, go_tokens,
                      go_token_logprobs); integers as float32
This script builds the same network from nn.Embedding, nn.LayerNorm and nn.Linear (weights
transposed into PyTorch's [out, in] layout), checks that its log-probs, its cached sampler and
its gradients match GoMLX's, and with --bench times the training step and the sampling step
(definitions in the package documentation) on request.

It prints one JSON line once parity holds (versions, BLAS, parity figures). With --bench it then
reads requests "sample N" or "train N" from standard input and answers each with one JSON line
holding the N times in milliseconds, until its input closes; so the Go side can alternate with
it in rounds.

Usage: tinyagent_torch.py --dir DIR --threads N --max-logprob-diff X --max-grad-rel-diff Y [--bench]

With --checkpoint CKPT --batch FILE it instead loads an agent that TinyAgent.Save wrote (the
checkpoint folder: its configuration and vocabulary from checkpoint.json, its weights from
model.safetensors, as they are), computes the log-probs of the batch in FILE (ids, at, targets,
allowed) and prints them as one JSON line, for the Go side to compare.
"""

import argparse
import ctypes
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def read_safetensors(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            raise SystemExit(f"{path}: {name}: expected F32, got {info['dtype']}")
        begin, end = info["data_offsets"]
        arr = np.frombuffer(data[begin:end], dtype="<f4").copy()
        out[name] = torch.from_numpy(arr).reshape(info["shape"])
    return out


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d, eps=1e-5)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d, eps=1e-5)
        self.mlp1 = nn.Linear(d, 4 * d)
        self.mlp2 = nn.Linear(4 * d, d)

    def forward(self, x, bias, cache=None, slot=None):
        """x [B,T,d]; bias [B or 1,1,T,S] added to the attention scores. Without a cache the keys
        are this pass's own; with one, (k, v) [B,H,S,Dh] receive this pass's key and value at
        slot (in place) and are attended over. Returns x and this pass's (k, v)."""
        b, t, d = x.shape
        dh = d // self.heads
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, dh).permute(2, 0, 3, 1, 4)
        if cache is not None:
            cache[0][:, :, slot : slot + 1] = k
            cache[1][:, :, slot : slot + 1] = v
            k, v = cache
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(dh)) + bias
        att = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(b, t, d)
        x = x + self.out(att)
        x = x + self.mlp2(F.silu(self.mlp1(self.ln2(x))))
        return x, (k, v)

    def at(self, x, at):
        """The block's output [B,A,d] at positions at [B,A] only, as TinyAgent.FastGraph computes it:
        keys and values of all T positions, queries, attention output and MLP at at alone."""
        b, t, d = x.shape
        dh = d // self.heads
        rows = torch.arange(b).unsqueeze(1)
        qkv = self.qkv(self.ln1(x))
        q = qkv[rows, at][..., :d].view(b, -1, self.heads, dh).transpose(1, 2)
        k, v = qkv[..., d:].view(b, t, 2, self.heads, dh).permute(2, 0, 3, 1, 4)
        bias = torch.where(torch.arange(t) <= at.unsqueeze(-1), 0.0, -1e9).unsqueeze(1)  # [B,1,A,T]
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(dh)) + bias
        att = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(b, -1, d)
        x = x[rows, at] + self.out(att)
        return x + self.mlp2(F.silu(self.mlp1(self.ln2(x))))


class TinyAgent(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d, v = cfg["Dim"], cfg["Vocab"]
        self.cfg = cfg
        self.tok_emb = nn.Embedding(v, d)
        self.pos_emb = nn.Embedding(cfg["Context"], d)
        self.blocks = nn.ModuleList(Block(d, cfg["Heads"]) for _ in range(cfg["Layers"]))
        self.lnf = nn.LayerNorm(d, eps=1e-5)
        self.head = nn.Linear(d, v, bias=False)

    def param_map(self):
        """GoMLX weight name -> (parameter, transposed): matrices are [in, out] in GoMLX."""
        m = {"tok_emb": (self.tok_emb.weight, False), "pos_emb": (self.pos_emb.weight, False),
             "lnf_g": (self.lnf.weight, False), "lnf_b": (self.lnf.bias, False), "head": (self.head.weight, True)}
        for i, blk in enumerate(self.blocks):
            for go, mod in [("ln1", blk.ln1), ("ln2", blk.ln2)]:
                m[f"layer{i}/{go}_g"] = (mod.weight, False)
                m[f"layer{i}/{go}_b"] = (mod.bias, False)
            for go, mod in [("qkv", blk.qkv), ("out", blk.out), ("mlp1", blk.mlp1), ("mlp2", blk.mlp2)]:
                m[f"layer{i}/{go}"] = (mod.weight, True)
                m[f"layer{i}/{go}_b"] = (mod.bias, False)
        return m

    def load(self, weights):
        pm = self.param_map()
        if set(pm) != set(weights):
            raise SystemExit(f"weights do not match the network: extra {sorted(set(weights) - set(pm))}, "
                             f"missing {sorted(set(pm) - set(weights))}")
        with torch.no_grad():
            for name, (p, transposed) in pm.items():
                w = weights[name].t() if transposed else weights[name]
                if w.shape != p.shape:
                    raise SystemExit(f"weight {name}: shape {tuple(weights[name].shape)} does not fit {tuple(p.shape)}")
                p.copy_(w)

    def hidden(self, ids, pos, bias, caches=None, slot=None):
        x = self.tok_emb(ids) + self.pos_emb(pos)
        kv = []
        for i, blk in enumerate(self.blocks):
            x, c = blk(x, bias, None if caches is None else caches[i], slot)
            kv.append(c)
        return self.lnf(x), kv

    def log_probs(self, ids, at, targets, allowed):
        """Per-token log-probs [B,A] of targets under the grammar-masked softmax of the logits
        after token at[b, j] (the training forward pass)."""
        b, t = ids.shape
        pos = torch.arange(t).expand(b, t)
        if self.cfg.get("Prune"):  # the last layer only where it is read (TinyAgent.FastGraph)
            x = self.tok_emb(ids) + self.pos_emb(pos)
            for blk in self.blocks[:-1]:
                x, _ = blk(x, causal_bias(t))
            z = self.head(self.lnf(self.blocks[-1].at(x, at)))
        else:
            h, _ = self.hidden(ids, pos, causal_bias(t))
            z = self.head(h[torch.arange(b).unsqueeze(1), at])  # [B,A,V]
        z = z + (1 - allowed) * -1e9
        return torch.log_softmax(z, dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)


_causal = {}


def causal_bias(t):
    if t not in _causal:
        _causal[t] = torch.triu(torch.full((t, t), -1e9), diagonal=1).view(1, 1, t, t)
    return _causal[t]


def reinforce_loss(lp, adv, mask):
    rows = torch.clamp(mask.max(dim=-1).values.sum(), min=1)
    return -(adv * mask * lp).sum() / rows


class Sampler:
    """Draws one call per row as agentrl's TinyAgent.Sample does: a prompt pass over the padded
    prompts that fills a key/value cache with CallSlots free slots after the prompt, then one
    cached step per further token; call token k goes into slot width + k of every row, and each
    row attends to its own prompt and its call so far."""

    def __init__(self, model, cfg, prompt_ids, prompt_len, class_count):
        self.m, self.cfg = model, cfg
        self.ids, self.plen, self.count = prompt_ids, prompt_len, class_count  # count [R,lines,classes]
        self.rows, self.width = prompt_ids.shape
        tok = cfg["Tokens"]
        v = cfg["Vocab"]
        self.tok = tok
        nc = cfg["Classes"]
        self.lines = torch.arange(cfg["MaxLines"])
        self.classes = tok["class0"] + torch.arange(nc)
        # The grammar's per-position masks that do not depend on earlier tokens.
        self.m_call = torch.zeros(v, dtype=torch.bool)
        self.m_call[tok["CALL"]] = True
        self.m_tool = torch.zeros(self.rows, v, dtype=torch.bool)
        self.m_tool[:, [tok["READ"], tok["TEST"], tok["SUBMIT"]]] = True
        self.m_tool[:, tok["EDIT"]] = (class_count > 0).flatten(1).any(dim=1)
        self.m_class = torch.zeros(self.rows, v, dtype=torch.bool)
        self.m_class[:, self.classes] = (class_count > 0).any(dim=1)
        self.m_end = torch.zeros(v, dtype=torch.bool)
        self.m_end[tok["END"]] = True
        self.menu_idx = torch.arange(cfg["MaxMenu"])
        self.real = torch.arange(self.rows) < cfg["Rows"]
        self.slots = torch.arange(self.width + cfg["CallSlots"])

    def allowed(self, k, tokens):
        """TinyAllowed for call position k given the call so far, every row at once: CALL, a
        tool, then for EDIT a class, a line with edits of that class, a rank among them, END."""
        tok, v = self.tok, self.cfg["Vocab"]
        rows = torch.arange(self.rows)
        if k == 0:
            return self.m_call.expand(self.rows, v)
        edit = tokens[:, 1] == tok["EDIT"]
        if k == 1:
            return self.m_tool
        if k == 2:
            return torch.where(edit.unsqueeze(1), self.m_class, self.m_end.expand(self.rows, v))
        cls = (tokens[:, 2] - tok["class0"]).clamp(0, self.cfg["Classes"] - 1)
        per_line = self.count[rows, :, cls]  # [R,lines]: edits of the call's class on each line
        out = torch.zeros(self.rows, v, dtype=torch.bool)
        if k == 3:
            out[:, tok["L1"] + self.lines] = (per_line > 0) & edit.unsqueeze(1)
            return out
        if k == 4:
            line = (tokens[:, 3] - tok["L1"]).clamp(0, self.cfg["MaxLines"] - 1)
            n = per_line.gather(1, line.unsqueeze(1))  # [R,1]
            out[:, tok["M0"] : tok["M0"] + self.cfg["MaxMenu"]] = (self.menu_idx < n) & edit.unsqueeze(1)
            return out
        return self.m_end.expand(self.rows, v) & edit.unsqueeze(1)

    @torch.inference_mode()
    def run(self, generator=None, forced=None):
        """Returns the calls [R,MaxCall] (−1 after the end), their log-probs under the masked
        policy, and the number of cached steps taken. With forced, replays those tokens."""
        cfg, tok = self.cfg, self.tok
        r, w, a = self.rows, self.width, cfg["MaxCall"]
        pos = torch.arange(w).expand(r, w)
        h, kv = self.m.hidden(self.ids, pos, causal_bias(w))
        caches = []
        for k, v in kv:
            room = torch.zeros(r, k.shape[1], cfg["CallSlots"], k.shape[3])
            caches.append((torch.cat([k, room], dim=2), torch.cat([v, room], dim=2)))
        logits = self.m.head(h[torch.arange(r), self.plen - 1])
        tokens = torch.full((r, a), -1, dtype=torch.long)
        lps = torch.zeros(r, a)
        done = ~self.real
        steps = 0
        for k in range(a):
            allowed = self.allowed(k, tokens) | done.unsqueeze(1)  # finished rows: anything, unused
            logp = torch.log_softmax(logits.masked_fill(~allowed, float("-inf")), dim=-1)
            if forced is None:
                pick = torch.multinomial(logp.exp(), 1, generator=generator).squeeze(1)
            else:
                pick = forced[:, k].clamp(min=0)
            active = ~done
            tokens[:, k] = torch.where(active, pick, tokens[:, k])
            lps[:, k] = torch.where(active, logp.gather(1, pick.unsqueeze(1)).squeeze(1), lps[:, k])
            done = done | (active & ((pick == tok["END"]) | (k == a - 1)))
            if bool(done.all()):
                break
            # Row b feeds its newest token at position plen + k into slot w + k and may read its
            # prompt slots and call slots w..w+k; a finished row reads slot 0 only.
            ids = torch.where(done, 0, tokens[:, k]).unsqueeze(1)
            p = torch.where(done, 0, self.plen + k).unsqueeze(1)
            see = (self.slots < self.plen.unsqueeze(1)) | ((self.slots >= w) & (self.slots <= w + k))
            see = torch.where(done.unsqueeze(1), self.slots == 0, see)
            bias = torch.where(see, 0.0, -1e9).view(r, 1, 1, -1)
            h, _ = self.m.hidden(ids, p, bias, caches, w + k)
            logits = self.m.head(h[:, 0])
            steps += 1
        return tokens, lps, steps


def blas_in_use():
    """(description, ok): which BLAS library the process mapped once PyTorch ran a matmul."""
    torch.mm(torch.ones(64, 64), torch.ones(64, 64))
    libs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5].startswith("/"):
                base = os.path.basename(parts[5])
                if "blas" in base or "blis" in base or "mkl" in base:
                    libs.add(parts[5])
    for path in sorted(libs):
        if "libopenblas" in os.path.basename(path):
            lib = ctypes.CDLL(path)
            lib.openblas_get_config.restype = ctypes.c_char_p
            return f"{lib.openblas_get_config().decode().strip()} ({path})", True, lib
    for path in sorted(libs):
        if "mkl" in path or "blis" in path:
            return path, True, None
    if any("/blas/libblas.so" in p for p in libs):
        return f"reference BLAS ({', '.join(sorted(libs))})", False, None
    return f"unknown ({', '.join(sorted(libs)) or 'no BLAS library mapped'})", False, None


def checkpoint_logprobs(ckpt, batch):
    """Log-probs [B,A] of a batch under the agent saved in the checkpoint folder ckpt. Debian has
    no python3-safetensors: model.safetensors is read by read_safetensors, with NumPy."""
    with open(os.path.join(ckpt, "checkpoint.json")) as f:
        manifest = json.load(f)
    meta = manifest["meta"]
    cfg = dict(meta["Config"], Vocab=len(meta["Vocab"]))
    files = {v["file"] for v in manifest["variables"]}
    if files != {"model.safetensors"}:
        raise SystemExit(f"{ckpt}: weights in {sorted(files)}, expected model.safetensors alone")
    model = TinyAgent(cfg)
    model.load(read_safetensors(os.path.join(ckpt, "model.safetensors")))
    b = read_safetensors(batch)
    with torch.no_grad():
        lp = model.log_probs(b["ids"].long(), b["at"].long(), b["targets"].long(), b["allowed"])
    print(json.dumps({"torch": torch.__version__, "logprobs": lp.tolist()}), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--max-logprob-diff", type=float)
    ap.add_argument("--max-grad-rel-diff", type=float)
    ap.add_argument("--checkpoint")
    ap.add_argument("--batch")
    args = ap.parse_args()
    if args.checkpoint:
        torch.set_num_threads(args.threads)
        checkpoint_logprobs(args.checkpoint, args.batch)
        return
    if args.dir is None or args.max_logprob_diff is None or args.max_grad_rel_diff is None:
        ap.error("--dir, --max-logprob-diff and --max-grad-rel-diff are required (or --checkpoint and --batch)")

    torch.set_num_threads(args.threads)
    blas, blas_ok, openblas = blas_in_use()
    if openblas is not None:
        openblas.openblas_set_num_threads(args.threads)
    if args.bench and not blas_ok:
        raise SystemExit(f"PyTorch runs on {blas}, not OpenBLAS: its times would not be PyTorch's. "
                         "OpenBLAS missing: run `AGENTRL_TEST_DEPS=1 make setup` (make setup-test), "
                         "which installs libopenblas0-pthread as the libblas.so.3 alternative")

    with open(os.path.join(args.dir, "config.json")) as f:
        cfg = json.load(f)
    w = read_safetensors(os.path.join(args.dir, "weights.safetensors"))
    b = read_safetensors(os.path.join(args.dir, "batch.safetensors"))
    model = TinyAgent(cfg)
    model.load(w)
    ids, at, targets = b["ids"].long(), b["at"].long(), b["targets"].long()
    allowed, adv, mask = b["allowed"], b["adv"], b["mask"]

    # Parity: log-probs and gradients of the batch, and the sampler replaying GoMLX's calls.
    lp = model.log_probs(ids, at, targets, allowed)
    d_lp = (lp - b["go_logprobs"]).abs().max().item()
    reinforce_loss(lp, adv, mask).backward()
    d_grad, worst = 0.0, ""
    for name, (p, transposed) in model.param_map().items():
        want = b["grad/" + name]
        got = p.grad.t() if transposed else p.grad
        diff, scale = (got - want).abs().max().item(), want.abs().max().item()
        if scale > 0:
            rel = diff / scale
        else:  # GoMLX's gradient is exactly zero (e.g. unused positions): so must PyTorch's be
            rel = math.inf if diff > 0 else 0.0
        if rel > d_grad:
            d_grad, worst = rel, name
    model.zero_grad(set_to_none=True)
    sampler = Sampler(model, cfg, b["prompt_ids"].long(), b["prompt_len"].long(), b["class_count"].long())
    go_tokens = b["go_tokens"].long()
    replay, replay_lp, _ = sampler.run(forced=go_tokens)
    if not torch.equal(replay, go_tokens):
        raise SystemExit("parity: GoMLX's calls break the grammar as PyTorch's sampler applies it")
    d_sample = (replay_lp - b["go_token_logprobs"]).abs().max().item()
    parity = {"logprobs": d_lp, "sampler": d_sample, "grads": d_grad}
    bad = []
    if not d_lp <= args.max_logprob_diff:
        bad.append(f"batch log-probs differ by {d_lp:.3g} (tolerance {args.max_logprob_diff:g})")
    if not d_sample <= args.max_logprob_diff:
        bad.append(f"sampler log-probs differ by {d_sample:.3g} (tolerance {args.max_logprob_diff:g})")
    if not d_grad <= args.max_grad_rel_diff:
        bad.append(f"gradient of {worst} differs by {d_grad:.3g} of its scale (tolerance {args.max_grad_rel_diff:g})")
    if bad:
        raise SystemExit("parity: PyTorch's TinyAgent does not compute what GoMLX's does: " + "; ".join(bad))

    env = " ".join(f"{k}={os.environ[k]}" for k in sorted(os.environ)
                   if k.startswith(("MALLOC_", "OMP_", "OPENBLAS_", "MKL_", "GOMP_")))
    print(json.dumps({"torch": torch.__version__, "blas": blas, "env": env, "parity": parity}), flush=True)
    if not args.bench:
        return

    gen = torch.Generator()
    steps = [0]

    def sample():
        gen.manual_seed(args.seed)  # the same calls every run, as on the Go side
        steps[0] = sampler.run(generator=gen)[2]

    opt = torch.optim.Adam(model.parameters(), lr=cfg["LR"], betas=(0.9, 0.999), eps=1e-7)

    def train():
        opt.zero_grad(set_to_none=True)
        loss = reinforce_loss(model.log_probs(ids, at, targets, allowed), adv, mask)
        loss.backward()
        opt.step()
        return loss.item()

    # Requests "sample N" or "train N", one per line, until the input closes.
    for line in sys.stdin:
        step, n = line.split()
        f = {"sample": sample, "train": train}[step]
        out = []
        for _ in range(int(n)):
            start = time.perf_counter()
            f()
            out.append((time.perf_counter() - start) * 1e3)
        print(json.dumps({"ms": out, "steps": steps[0]}), flush=True)


if __name__ == "__main__":
    main()
