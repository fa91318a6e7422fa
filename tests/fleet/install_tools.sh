#!/usr/bin/env bash
# Installs what tests/fleet needs, only what is missing (quick when all is
# there): Debian packages haproxy and nginx-light (the proxies under test;
# the packages' own services are left alone, the tests run their own
# instances on free loopback ports), curl, openssl, python3, iproute2 (ss)
# and procps (ps, pgrep). Waits for
# another apt or dpkg to finish (scripts/apt_get_waiting.sh).
set -euo pipefail
source "$(dirname "$0")/../../scripts/apt_get_waiting.sh"
packages=()
for p in haproxy nginx-light curl openssl python3 iproute2 procps; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    packages+=("$p")
done
if [ ${#packages[@]} -gt 0 ]; then
  echo "fleet install_tools: installing ${packages[*]}"
  apt_get_waiting update -qq
  apt_get_waiting install -y -qq --no-install-recommends "${packages[@]}"
fi
haproxy -v | sed -n 1p  # sed reads all: no SIGPIPE under pipefail
nginx -v 2>&1
