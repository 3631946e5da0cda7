#!/usr/bin/env bash
# Set-up for the BugFix gym: the gym runs tests with Debian's CPython at /usr/bin/python3
# (3.11 on bookworm); it needs nothing beyond the standard library.
set -euo pipefail

if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "gym: /usr/bin/python3 (3.10 or newer) is missing; as root run: apt-get install -y --no-install-recommends python3" >&2
    exit 1
fi
echo "gym: installing python3"
apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends python3 >/dev/null ||
    { apt-get update >/dev/null && apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends python3 >/dev/null; }
