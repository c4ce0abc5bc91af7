#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing. Browser downloads by
# test tools are never used: the machines reach only Debian's and npm's registries.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "chromium is missing and this user cannot install it; run: sudo apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
command -v chromium >/dev/null
