#!/usr/bin/env bash
# Installs Debian's OpenSSH server for the ssh git-source tests when it is missing. The tests
# start their own sshd (own config, host key and port on 127.0.0.1); the package's service is
# never started: where no policy-rc.d forbids it already, one is in place during the install.
set -euo pipefail
if [ -x /usr/sbin/sshd ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "sshd is missing and this user cannot install it; run: sudo apt-get install -y openssh-server" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
placed=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  placed=1
fi
trap '[ -n "$placed" ] && rm -f "$policy"' EXIT
echo "ssh git-source tests need sshd, which is missing: installing Debian's openssh-server (apt-get; once per machine)..." >&2
echo "  apt-get update" >&2
apt-get update -qq
echo "  apt-get install openssh-server" >&2
apt-get install -y -qq --no-install-recommends openssh-server >/dev/null
test -x /usr/sbin/sshd
echo "sshd installed: /usr/sbin/sshd" >&2
