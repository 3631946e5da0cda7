#!/usr/bin/env bash
# Set-up for the course: installs what is missing, and only that. Safe to run again.
#
#   1. Debian's Jupyter packages (apt, as root; otherwise it says what to install), and with
#      AGENTRL_TEST_DEPS=1 (make test) Chromium for the browser tests.
#   2. GoNB and goimports, built from the versions pinned in go.mod, into .cache/bin.
#      gopls (completion in notebooks) too when AGENTRL_GOPLS=1.
#   3. The echarts JavaScript from its npm package (kernel/js): charts draw their static pictures
#      with it (under Node.js), and load one copy of it, notebooks/lib/echarts.js, in the browser.
#   4. The agentrl command itself, into .cache/bin.
#   5. The Jupyter kernel spec "agentrl-go" for this checkout.
#   6. Each component's own set-up (*/setup.sh: the gym, Qwen3, the site export, the TinyAgent
#      comparison).
#   7. A warm Go build cache, so the first notebook cell does not wait for GoMLX to compile.
#
# The Dockerfile runs this same script: keep the two in step.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd GOMLX_NO_AUTO_INSTALL=1 GOMLX_GO_SIMD_AVX512=false
export GODEBUG="${GODEBUG:+$GODEBUG,}cpu.avx512f=off"
BIN="$ROOT/.cache/bin"
mkdir -p "$BIN"

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

GO="$(command -v go || true)"
[ -n "$GO" ] || die "Go is not on PATH: install Go (any recent release; it fetches Go 1.27.3 itself) and run again"

# apt_install PKG...: installs Debian packages as root, or explains what to run.
apt_install() {
	if [ "$(id -u)" != 0 ]; then
		die "missing Debian packages: $*. Install them as root: apt-get install -y --no-install-recommends $*"
	fi
	say "installing Debian packages: $*"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "$@" >/dev/null; then
		apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null
		apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "$@" >/dev/null
	fi
}

# 1. Jupyter. Debian's python3 is used by full path: the python3 first on PATH may be another build.
PY=/usr/bin/python3
if ! [ -x /usr/bin/jupyter ] || ! [ -x "$PY" ] || ! "$PY" -c 'import nbclient, nbformat, notebook, jupyter_client' 2>/dev/null; then
	apt_install jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client
fi

# Tests (make test sets AGENTRL_TEST_DEPS=1) also drive a headless browser over exported pages.
if [ "${AGENTRL_TEST_DEPS:-0}" = 1 ] && ! command -v chromium >/dev/null; then
	apt_install chromium
fi
# ... and the Chinese edition's pages need a font with Chinese characters for their screenshots.
if [ "${AGENTRL_TEST_DEPS:-0}" = 1 ] && command -v fc-list >/dev/null && [ -z "$(fc-list :lang=zh)" ]; then
	apt_install fonts-wqy-microhei
fi

# 2. GoNB and goimports: the `tool` lines of go.mod pin them. `go install tool` is a no-op when current.
say "building GoNB and goimports (pinned in go.mod)"
GOBIN="$BIN" go install tool
if [ "${AGENTRL_GOPLS:-0}" = 1 ]; then
	say "building gopls (kernel/tools/gopls)"
	(cd kernel/tools/gopls && GOBIN="$BIN" go install tool)
fi

# 3. echarts, from npm, for charts that render offline; Node.js (which npm brings) draws their pictures.
if ! [ -f kernel/js/node_modules/echarts/dist/echarts.min.js ] || ! command -v node >/dev/null; then
	command -v npm >/dev/null && command -v node >/dev/null || apt_install npm
	say "installing echarts from npm (kernel/js)"
	(cd kernel/js && npm ci --omit-lockfile-registry-resolved --no-audit --no-fund >/dev/null)
fi

# 4. The agentrl command.
say "building agentrl"
go build -o "$BIN/agentrl" ./cmd/agentrl

# The copy of echarts that the notebooks' charts load in the browser.
AGENTRL_ROOT="$ROOT" "$BIN/agentrl" book chart-library

# 5. The kernel spec (kernel/spec): GoNB with the toolchain settings, and a PATH that starts with
#    kernel/go.sh as `go`, which makes every notebook's module resolve this checkout's packages.
AGENTRL_ROOT="$ROOT" "$BIN/agentrl" book kernel

# 6. Components' own set-up (test and export dependencies).
for s in gym/setup.sh qwen3/setup.sh qwen3/model/setup.sh kernel/site/setup.sh bench/tinybench/setup.sh; do
	if [ -f "$s" ]; then
		say "running $s"
		bash "$s"
	fi
done

# 7. Warm the build cache the notebooks use: compile the library and its dependencies with the
#    same toolchain and flags as the kernel.
say "warming the Go build cache"
go build ./...
AGENTRL_ROOT="$ROOT" "$BIN/agentrl" book warm

say "done. Open the course with: make course"
