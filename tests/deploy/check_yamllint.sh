#!/usr/bin/env bash
# yamllint --strict (warnings fail too) over every YAML file in deploy/.
source "$(dirname "$0")/lib.sh"
need_tool yamllint "Debian package yamllint"
cd "$DEPLOY"
mapfile -t files < <(find . -name '*.yaml' -o -name '*.yml' | sort)
[ ${#files[@]} -gt 0 ] || fail "no YAML files in deploy/"
yamllint --strict -c "$HERE/yamllint.yaml" "${files[@]}"
echo "yamllint: ${#files[@]} files passed"
