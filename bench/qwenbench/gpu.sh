#!/usr/bin/env bash
# Runs `agentrl bench qwen3` at each precision on a machine with an NVIDIA GPU, from the
# repository root, with an agentrl built beforehand with the XLA backend (make agentrl-xla; Go
# need not be installed where this runs):
#
#   bash bench/qwenbench/gpu.sh
#
# It evals backend/gpu.sh (JAX's pip-installed CUDA plugin and NVIDIA libraries), writes one
# random Qwen3-0.6B-shaped checkpoint, then runs the benchmark for f32, tf32 and bf16, each under
# its own timeout: a stage that fails or times out is reported and the next one still runs.
# Everything lands in $OUT: qwen3-<precision>.json (every figure), .txt (the table), .log
# (progress and errors), nvidia-smi.txt and summary.txt (what is printed at the end).
#
# Settings: AGENTRL_BIN (default .cache/bin/agentrl-xla), OUT (default /tmp/qwenbench),
# QWENBENCH_MODEL (where the checkpoint is written, default /tmp/qwenbench-model; kept and reused),
# QWENBENCH_TIMEOUT (seconds per precision, default 480), QWENBENCH_PRECISIONS (default
# "f32 tf32 bf16"), QWENBENCH_PYTHON (default python3), QWENBENCH_ARGS (more flags for every
# run, e.g. "--iters 3"). XLA compiles every new shape (15-70 s each), so each run keeps to a few.
set -u
bin="${AGENTRL_BIN:-.cache/bin/agentrl-xla}"
out="${OUT:-/tmp/qwenbench}"
model="${QWENBENCH_MODEL:-/tmp/qwenbench-model}"
limit="${QWENBENCH_TIMEOUT:-480}"
mkdir -p "$out"
: >"$out/summary.txt"
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$out/summary.txt"; }

if [ ! -x "$bin" ]; then
	say "no agentrl at $bin: build it with make agentrl-xla (or set AGENTRL_BIN)"
	exit 1
fi
nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || say "warning: nvidia-smi failed (see nvidia-smi.txt)"
env_lines="$(bash "$(dirname "$0")/../../backend/gpu.sh" 2>>"$out/summary.txt")" || {
	say "backend/gpu.sh found no CUDA plugin (above): nothing to run"
	exit 1
}
eval "$env_lines"
say "backend: $GOMLX_BACKEND"

# The first run writes the checkpoint (--keep-model); the later ones read it.
model_args=(--keep-model "$model")
if [ -f "$model/config.json" ]; then model_args=(--model-dir "$model"); fi
for p in ${QWENBENCH_PRECISIONS:-f32 tf32 bf16}; do
	start=$SECONDS
	# shellcheck disable=SC2086 # QWENBENCH_ARGS is a list of flags
	timeout -k 10 "$limit" "$bin" bench qwen3 --precision "$p" "${model_args[@]}" --python "${QWENBENCH_PYTHON:-python3}" \
		--json "$out/qwen3-$p.json" ${QWENBENCH_ARGS:-} >"$out/qwen3-$p.txt" 2>"$out/qwen3-$p.log"
	rc=$?
	case $rc in
	0) status=ok ;;
	124 | 137) status="TIMEOUT after ${limit}s" ;;
	*) status="FAILED (exit $rc)" ;;
	esac
	say "qwen3 $p: $status in $((SECONDS - start))s"
	if [ $rc -eq 0 ]; then
		sed -n '/^part /,/^generate /p; /^parity/p; /^first update/p' "$out/qwen3-$p.txt" | tee -a "$out/summary.txt"
	else
		tail -n 5 "$out/qwen3-$p.log" | cut -c1-300 | sed 's/^/    | /' | tee -a "$out/summary.txt"
	fi
	if [ -f "$model/config.json" ]; then model_args=(--model-dir "$model"); fi
done
say "results in $out"
