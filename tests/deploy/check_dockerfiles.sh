#!/usr/bin/env bash
# Static checks of deploy/docker/Dockerfile.* (no Docker engine or hadolint
# here, so the images are never built in CI):
#  - every COPY source from the build context exists;
#  - every repository script a RUN calls exists, is executable and parses;
#  - every -D option passed to scripts/build.sh is a cache variable the
#    project declares;
#  - the final stage runs as a numeric non-root USER, its ENTRYPOINT is the
#    path collect_runtime.sh fills, and it EXPOSEs 50051 and 9464;
#  - the image's .dockerignore keeps build trees and node_modules out.
source "$(dirname "$0")/lib.sh"
shopt -s nullglob
dockerfiles=("$DEPLOY"/docker/Dockerfile.*)
dockerfiles=("${dockerfiles[@]/*.dockerignore/}")
count=0
for df in "${dockerfiles[@]}"; do
  [ -n "$df" ] || continue
  count=$((count + 1))
  name="deploy/docker/$(basename "$df")"
  # One instruction a line: join continuations, drop comments.
  perl -0pe 's/\\\n/ /g' "$df" | grep -v '^[[:space:]]*#' | awk 'NF' > "$TMP/instructions"

  grep -q '^FROM ' "$TMP/instructions" || fail "$name: no FROM"
  while read -r _ args; do
    # COPY [--flags] SRC... DEST; --from=stage copies come from a stage.
    set -- $args
    from_stage=0
    while [[ "${1:-}" == --* ]]; do
      [[ "$1" == --from=* ]] && from_stage=1
      shift
    done
    [ "$from_stage" -eq 1 ] && continue
    [ $# -ge 2 ] || fail "$name: COPY needs a source and a destination: $args"
    while [ $# -gt 1 ]; do
      [ -e "$ROOT/$1" ] || fail "$name: COPY source $1 does not exist"
      echo "ok $name: COPY $1 exists"
      shift
    done
  done < <(grep -E '^(COPY|ADD) ' "$TMP/instructions")

  runs="$(grep -E '^RUN ' "$TMP/instructions" || true)"
  for script in $(grep -oE '\./(scripts|deploy)/[A-Za-z0-9_./-]+\.sh' <<< "$runs" | sort -u); do
    path="$ROOT/${script#./}"
    [ -x "$path" ] || fail "$name: RUN calls $script, which is not an executable file"
    bash -n "$path" || fail "$name: $script does not parse"
    echo "ok $name: RUN $script exists"
  done
  grep -q 'scripts/build.sh' <<< "$runs" || fail "$name: does not build with scripts/build.sh"
  for opt in $(grep -oE -- '-D[A-Z_]+=' <<< "$runs" | sed 's/^-D//; s/=$//' | sort -u); do
    grep -rqE "(set|option)\($opt\b" "$ROOT/CMakeLists.txt" "$ROOT/cmake" ||
      fail "$name: -D$opt is not declared by the project's CMake files"
    echo "ok $name: -D$opt is a project option"
  done

  # The final stage: from the last FROM on.
  awk '/^FROM /{buf=""} {buf = buf $0 "\n"} END {printf "%s", buf}' \
    "$TMP/instructions" > "$TMP/final"
  user="$(grep -E '^USER ' "$TMP/final" | tail -n 1 | awk '{print $2}')"
  uid="${user%%:*}"
  [[ "$uid" =~ ^[0-9]+$ && "$uid" -ne 0 ]] ||
    fail "$name: final stage USER must be a numeric non-root uid (got '$user')"
  echo "ok $name: runs as uid $uid"
  if ! grep -qE '^EXPOSE .*\b50051\b' "$TMP/final" ||
     ! grep -qE '^EXPOSE .*\b9464\b' "$TMP/final"; then
    fail "$name: final stage must EXPOSE 50051 and 9464"
  fi
  grep -qF 'ENTRYPOINT ["/opt/factord/bin/factord"]' "$TMP/final" ||
    fail "$name: ENTRYPOINT must be /opt/factord/bin/factord (collect_runtime.sh output)"
  grep -qE '^COPY --from=build /out/ /opt/factord/' "$TMP/final" ||
    fail "$name: final stage must copy collect_runtime.sh's /out to /opt/factord"
  echo "ok $name: entrypoint, ports and runtime copy"

  ignore="$df.dockerignore"
  [ -f "$ignore" ] || fail "$name: no $(basename "$ignore")"
  for pattern in 'build' 'build-\*' '\*\*/node_modules'; do
    grep -qx "$pattern" "$ignore" || fail "$(basename "$ignore") lacks $pattern"
  done
done
[ "$count" -ge 2 ] || fail "expected Dockerfile.cuda and Dockerfile.cpu, found $count"
echo "dockerfiles: $count passed"
