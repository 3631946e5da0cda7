#!/usr/bin/python3
"""Independent Qwen3 forward pass in plain PyTorch, used to check the Go implementation.

It reads a Hugging Face model directory by itself (config.json and safetensors, one file or sharded;
F32, BF16 or F16 weights, all converted to float32) and computes next-token logits for the given
token ids, written as little-endian float32 [len(ids), vocab_size] to --out.

Written from the published Qwen3 architecture (Qwen3ForCausalLM), deliberately in a different shape
from the Go code: it repeats key/value heads explicitly instead of grouping queries, masks with a
triangular matrix instead of comparing positions, and derives rotary angles in float64.

Usage: reference.py --model-dir DIR --ids 1,2,3 --out logits.f32
"""

import argparse
import json
import math
import os
import struct
import sys

import numpy as np
import torch


def read_safetensors(path):
    """Returns {name: float32 torch tensor} for every tensor in one safetensors file."""
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        data = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        raw = data[begin:end]
        dtype = info["dtype"]
        if dtype == "F32":
            arr = np.frombuffer(raw, dtype="<f4")
        elif dtype == "BF16":
            arr = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        elif dtype == "F16":
            arr = np.frombuffer(raw, dtype="<f2").astype(np.float32)
        else:
            raise SystemExit(f"{path}: tensor {name}: unsupported dtype {dtype}")
        out[name] = torch.from_numpy(arr.copy()).reshape(info["shape"])
    return out


def read_weights(model_dir):
    index = os.path.join(model_dir, "model.safetensors.index.json")
    if not os.path.exists(index):
        return read_safetensors(os.path.join(model_dir, "model.safetensors"))
    with open(index) as f:
        shards = sorted(set(json.load(f)["weight_map"].values()))
    weights = {}
    for shard in shards:
        weights.update(read_safetensors(os.path.join(model_dir, shard)))
    return weights


def rms_norm(x, weight, eps):
    variance = (x * x).mean(dim=-1, keepdim=True)
    return weight * (x / torch.sqrt(variance + eps))


def rotary(x, cos, sin):
    """x: [heads, T, D]; pairs dimension i with i + D/2 (the rotate-half convention)."""
    half = x.shape[-1] // 2
    first, second = x[..., :half], x[..., half:]
    rotated = torch.cat([-second, first], dim=-1)
    return x * cos + rotated * sin


def logits(cfg, w, ids):
    n_heads = cfg["num_attention_heads"]
    n_kv = cfg["num_key_value_heads"]
    head_dim = cfg.get("head_dim") or cfg["hidden_size"] // n_heads
    eps = cfg["rms_norm_eps"]
    theta = cfg["rope_theta"]
    T = len(ids)

    x = w["model.embed_tokens.weight"][torch.tensor(ids, dtype=torch.long)]  # [T, hidden]

    # Rotary tables in float64, rounded once to float32.
    inv_freq = [theta ** (-(2.0 * i) / head_dim) for i in range(head_dim // 2)]
    angles = torch.tensor([[p * f for f in inv_freq] for p in range(T)], dtype=torch.float64)
    angles = torch.cat([angles, angles], dim=-1)
    cos, sin = torch.cos(angles).float(), torch.sin(angles).float()

    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        h = rms_norm(x, w[p + "input_layernorm.weight"], eps)
        q = (h @ w[p + "self_attn.q_proj.weight"].T).view(T, n_heads, head_dim).transpose(0, 1)
        k = (h @ w[p + "self_attn.k_proj.weight"].T).view(T, n_kv, head_dim).transpose(0, 1)
        v = (h @ w[p + "self_attn.v_proj.weight"].T).view(T, n_kv, head_dim).transpose(0, 1)
        q = rotary(rms_norm(q, w[p + "self_attn.q_norm.weight"], eps), cos, sin)
        k = rotary(rms_norm(k, w[p + "self_attn.k_norm.weight"], eps), cos, sin)
        # Each key/value head serves n_heads / n_kv consecutive query heads.
        k = k.repeat_interleave(n_heads // n_kv, dim=0)
        v = v.repeat_interleave(n_heads // n_kv, dim=0)
        scores = (q @ k.transpose(1, 2)) / math.sqrt(head_dim)
        scores = scores.masked_fill(future, float("-inf"))
        attn = torch.softmax(scores, dim=-1) @ v  # [heads, T, D]
        attn = attn.transpose(0, 1).reshape(T, n_heads * head_dim)
        x = x + attn @ w[p + "self_attn.o_proj.weight"].T

        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        gate = h @ w[p + "mlp.gate_proj.weight"].T
        up = h @ w[p + "mlp.up_proj.weight"].T
        x = x + (torch.nn.functional.silu(gate) * up) @ w[p + "mlp.down_proj.weight"].T

    x = rms_norm(x, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
    return x @ head.T


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model-dir", required=True)
    ap.add_argument("--ids", required=True, help="comma-separated token ids")
    ap.add_argument("--out", required=True, help="file for float32 logits [len(ids), vocab]")
    args = ap.parse_args()
    torch.set_num_threads(1)
    with open(os.path.join(args.model_dir, "config.json")) as f:
        cfg = json.load(f)
    ids = [int(t) for t in args.ids.split(",")]
    with torch.no_grad():
        out = logits(cfg, read_weights(args.model_dir), ids)
    out.numpy().astype("<f4").tofile(args.out)
    print(json.dumps({"tokens": len(ids), "vocab": out.shape[1]}))


if __name__ == "__main__":
    sys.exit(main())
