#!/usr/bin/env bash
# External dependencies of the TinyAgent comparison (`agentrl bench tinyagent` and its parity
# tests): Debian's PyTorch and NumPy, and OpenBLAS. Debian's PyTorch calls whatever BLAS the
# libblas.so.3 alternative names; without OpenBLAS that is the reference BLAS, several times
# slower, against which the comparison refuses to run. Installing libopenblas0-pthread registers
# it as that alternative with a higher priority. Idempotent: a fast no-op when all is in place.
set -euo pipefail

# Only tests need it (make test sets AGENTRL_TEST_DEPS=1): readers of the course are spared ~1.5 GB.
[ "${AGENTRL_TEST_DEPS:-0}" = 1 ] || exit 0

py=/usr/bin/python3
installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == *"ok installed" ]]; }
missing=""
for p in python3 python3-torch python3-numpy libopenblas0-pthread; do
	installed "$p" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "tinybench: missing PyTorch or OpenBLAS for the TinyAgent comparison; as root run:" >&2
		echo "  apt-get install -y --no-install-recommends$missing" >&2
		exit 1
	fi
	echo "tinybench: installing$missing (Debian)"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends $missing >/dev/null; then
		apt-get -o DPkg::Lock::Timeout=900 update >/dev/null
		apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends $missing >/dev/null
	fi
	"$py" -c 'import torch, numpy' || { echo "tinybench: torch still not importable after install" >&2; exit 1; }
fi

# An administrator may have pinned another BLAS by hand; say so rather than override the choice.
# awk reads to the end: leaving early would kill ldconfig with SIGPIPE once its listing outgrows
# the pipe's buffer (about 64 KB), and pipefail would turn that into a failed set-up.
blas="$(ldconfig -p | awk '/libblas\.so\.3 / && !found {print $NF; found = 1}')"
blas="$(readlink -f "$blas" 2>/dev/null || true)"
case "$blas" in
*openblas* | *blis* | *mkl*) ;;
*) echo "tinybench: warning: libblas.so.3 is $blas, not OpenBLAS; \`agentrl bench tinyagent\` will refuse to time PyTorch on it (as root: update-alternatives --auto libblas.so.3-x86_64-linux-gnu)" >&2 ;;
esac
