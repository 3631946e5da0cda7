#!/usr/bin/env bash
# Installs what the static site export and its tests need, and nothing when it is all there:
#   - npm packages (KaTeX, MiniSearch) into kernel/site/web/node_modules, with `npm ci`
#     from the committed package-lock.json; the export copies its JavaScript, CSS and fonts from there
#     (the echarts file it serves for charts is kernel/js's, which kernel/setup.sh installs);
#   - with AGENTRL_TEST_DEPS=1 (as `make test` sets it), Debian's chromium and a font for the
#     headless-browser test;
#   - node and npm from Debian when the machine has none.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
web="$here/web"

apt_install() {
	if [[ $(id -u) -ne 0 ]]; then
		echo "site: missing Debian packages; as root run: apt-get install -y --no-install-recommends $*" >&2
		exit 1
	fi
	echo "site: installing $* (apt)"
	if ! apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "$@" >/dev/null; then
		apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null
		apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "$@" >/dev/null
	fi
}

missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [[ "${AGENTRL_TEST_DEPS:-0}" == 1 ]]; then
	command -v chromium >/dev/null || missing+=(chromium)
	[[ "$(dpkg-query -W -f='${Status}' fonts-dejavu-core 2>/dev/null)" == *"ok installed" ]] || missing+=(fonts-dejavu-core)
fi
if ((${#missing[@]})); then
	apt_install "${missing[@]}"
fi

# node_modules is in sync when it was installed from this exact lock file.
lock_sum="$(sha256sum "$web/package-lock.json" | cut -d' ' -f1)"
stamp="$web/node_modules/.installed-from-lock"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$lock_sum" ]]; then
	echo "site: installing npm packages (katex, minisearch) into ${web#"$PWD"/}/node_modules"
	(cd "$web" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	echo "$lock_sum" >"$stamp"
fi
