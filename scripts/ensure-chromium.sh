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
# apt is quiet below; say what is happening so a first run that pauses here isn't a mystery.
echo "browser tests need Chromium, which is missing: installing Debian's chromium package (apt-get, about 100 MB; once per machine)..." >&2
echo "  apt-get update" >&2
apt-get update -qq
echo "  apt-get install chromium fonts-dejavu-core" >&2
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
command -v chromium >/dev/null
echo "Chromium installed: $(command -v chromium)" >&2
