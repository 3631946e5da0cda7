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
# Then, with QWENBENCH_TRAIN set (flags for it, e.g. "-steps 3 -group-size 8 -turns 4 -max-new 64"),
# `agentrl train qwen3` on the same checkpoint: the real-model lab's loop, its run folder in
# $OUT/train-qwen3 (its output in train-qwen3.txt), once per entry of QWENBENCH_TRAIN_PRECISIONS
# ("tf32" and/or "bf16", default "tf32"; bf16 adds -bf16).
#
# Settings: AGENTRL_BIN (default .cache/bin/agentrl-xla), OUT (default /tmp/qwenbench),
# QWENBENCH_MODEL (where the checkpoint is written, default /tmp/qwenbench-model; kept and reused),
# QWENBENCH_TIMEOUT (seconds per stage, default 480), QWENBENCH_DEADLINE (seconds for the whole
# script: a stage starts only with at least 60 s left and is cut at the deadline; default none),
# QWENBENCH_PRECISIONS (default "f32 tf32 bf16"), QWENBENCH_PYTHON (default python3),
# QWENBENCH_ARGS (more flags for every bench run, e.g. "--iters 3"). XLA compiles every new shape
# (15-70 s each), so each run keeps to a few.
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

# stage NAME CMD...: runs CMD with its output in $out/NAME.txt and NAME.log, under the stage's
# timeout cut to what is left of the deadline; prints how it ended and how long it took.
stage() {
	local name=$1 t=$limit rc status start=$SECONDS
	shift
	if [ -n "${QWENBENCH_DEADLINE:-}" ]; then
		local left=$((QWENBENCH_DEADLINE - SECONDS))
		if [ "$left" -lt 60 ]; then
			say "$name: skipped, ${left}s left of ${QWENBENCH_DEADLINE}s"
			return 99
		fi
		t=$((left < t ? left : t))
	fi
	timeout -k 10 "$t" "$@" >"$out/$name.txt" 2>"$out/$name.log"
	rc=$?
	case $rc in
	0) status=ok ;;
	124 | 137) status="TIMEOUT after ${t}s" ;;
	*) status="FAILED (exit $rc)" ;;
	esac
	say "$name: $status in $((SECONDS - start))s"
	if [ $rc -ne 0 ]; then
		tail -n 5 "$out/$name.log" | cut -c1-300 | sed 's/^/    | /' | tee -a "$out/summary.txt"
	fi
	return $rc
}

# The first run writes the checkpoint (--keep-model); the later ones read it.
for p in ${QWENBENCH_PRECISIONS:-f32 tf32 bf16}; do
	model_args=(--keep-model "$model")
	if [ -f "$model/config.json" ]; then model_args=(--model-dir "$model"); fi
	# shellcheck disable=SC2086 # QWENBENCH_ARGS is a list of flags
	if stage "qwen3-$p" "$bin" bench qwen3 --precision "$p" "${model_args[@]}" --python "${QWENBENCH_PYTHON:-python3}" \
		--json "$out/qwen3-$p.json" ${QWENBENCH_ARGS:-}; then
		sed -n '/^part /,/^generate /p; /^parity/p; /^first update/p; /^bf16 engine/p; /^PyTorch side failed/p' "$out/qwen3-$p.txt" | tee -a "$out/summary.txt"
	fi
done

if [ -n "${QWENBENCH_TRAIN:-}" ] && [ -f "$model/config.json" ]; then
	for p in ${QWENBENCH_TRAIN_PRECISIONS:-tf32}; do
		extra=()
		[ "$p" = bf16 ] && extra=(-bf16)
		rm -rf "$out/train-qwen3-$p"
		# shellcheck disable=SC2086 # QWENBENCH_TRAIN is a list of flags
		stage "train-qwen3-$p" "$bin" train qwen3 -model-dir "$model" -out "$out/train-qwen3-$p" "${extra[@]}" $QWENBENCH_TRAIN
		grep -h -e '^model ' -e 'updates of' -e '^after this' "$out/train-qwen3-$p.txt" | tee -a "$out/summary.txt"
	done
fi
say "results in $out"
