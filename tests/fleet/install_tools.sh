#!/usr/bin/env bash
# Installs what tests/fleet needs, only what is missing (quick when all is
# there): Debian packages haproxy (the proxy under test; the package's own
# service is left alone, the tests run their own instance on free loopback
# ports), curl, openssl and python3.
set -euo pipefail
packages=()
for p in haproxy curl openssl python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    packages+=("$p")
done
if [ ${#packages[@]} -gt 0 ]; then
  echo "fleet install_tools: installing ${packages[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
haproxy -v | sed -n 1p  # sed reads all: no SIGPIPE under pipefail
