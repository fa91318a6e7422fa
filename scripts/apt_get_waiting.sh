# shellcheck shell=bash
# Sourced by the install scripts: apt_get_waiting ARGS... runs
# `apt-get ARGS...` (as root, through sudo when needed, non-interactive)
# waiting up to 10 minutes for the locks another apt or dpkg process holds,
# instead of failing at once. DPkg::Lock::Timeout makes apt-get wait for
# dpkg's locks; `apt-get update` does not wait for the package lists' lock
# with it, so a run refused for a lock is started again every 5 s until the
# 10 minutes are spent. Its output shows only when it fails.
apt_get_waiting() {
  local sudo="" start=$SECONDS output status
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  while :; do
    status=0
    output="$($sudo env DEBIAN_FRONTEND=noninteractive \
      apt-get -o DPkg::Lock::Timeout=600 "$@" 2>&1)" || status=$?
    [ "$status" -ne 0 ] || return 0
    if ! grep -q "Could not get lock" <<<"$output" ||
       [ $((SECONDS - start)) -ge 600 ]; then
      printf '%s\n' "$output" >&2
      return "$status"
    fi
    echo "apt-get $1: another apt or dpkg holds a lock; trying again in 5 s" >&2
    sleep 5
  done
}
