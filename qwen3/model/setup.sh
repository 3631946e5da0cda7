#!/usr/bin/env bash
# External dependencies of the Qwen3 model tests: Debian's PyTorch, used by qwen3/modelref as an
# independent reference implementation. Idempotent: a fast no-op when everything is present.
set -euo pipefail

# Only tests need it (make test sets AGENTRL_TEST_DEPS=1): readers of the course are spared ~1.5 GB.
[ "${AGENTRL_TEST_DEPS:-0}" = 1 ] || exit 0

py=/usr/bin/python3
installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == *"ok installed" ]]; }
if [ -x "$py" ] && installed python3-torch && installed python3-numpy; then
	exit 0
fi

pkgs="python3 python3-torch python3-numpy"
if [ "$(id -u)" != 0 ]; then
	echo "qwen3/model: missing PyTorch for the reference tests; as root run:" >&2
	echo "  apt-get install -y --no-install-recommends $pkgs" >&2
	exit 1
fi
echo "qwen3/model: installing $pkgs (Debian)"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends $pkgs >/dev/null; then
	apt-get -o DPkg::Lock::Timeout=900 update >/dev/null
	apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends $pkgs >/dev/null
fi
"$py" -c 'import torch' || { echo "qwen3/model: torch still not importable after install" >&2; exit 1; }
