#!/usr/bin/env bash
# Shows that scripts/check_wire_contract.sh bites (ctest: wire.contract_bites).
# proto/ is copied to a temp dir and a reference written there with --update,
# so this tests the check itself, whether or not the committed reference is
# current (wire.contract checks that one). Then each case mutates a fresh
# copy and expects an exit status (0 compatible, 1 breaking, 2 does not
# compile) and, for failures, buf's words naming the change, so that a
# failure for another reason does not count. Mutations are sed patterns on
# declarations, not line numbers, so moving comments does not disturb them;
# a pattern that matches nothing fails the test at once (no vacuous pass).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check="$root/scripts/check_wire_contract.sh"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/factord-wire-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

cp -r "$root/proto" "$tmp/base"
"$check" --update "$tmp/base" >/dev/null ||
  { echo "FAIL: --update on a copy of proto/ failed" >&2; exit 1; }

# new_case NAME: a fresh copy of the base in $tmp/NAME, into $dir.
new_case() {
  dir="$tmp/$1"
  cp -r "$tmp/base" "$dir"
  echo "--- $1"
}

# mutate FILE SED_SCRIPT: applies the sed -E script to $dir/FILE and shows the
# diff; fails the test at once if the script changed nothing.
mutate() {
  local file="$dir/$1"
  cp "$file" "$tmp/before"
  sed -E -i "$2" "$file"
  if cmp -s "$tmp/before" "$file"; then
    echo "FAIL: mutation pattern not found in $1: $2" >&2
    echo "      (the protos changed: update the pattern in $0)" >&2
    exit 1
  fi
  diff "$tmp/before" "$file" | sed 's/^/    /' || true
}

# expect STATUS [TEXT...]: runs the check on $dir; passes when it exits with
# STATUS and its output holds every TEXT.
expect() {
  local want="$1" got=0 text ok=1
  shift
  "$check" "$dir" >"$tmp/out" 2>&1 || got=$?
  [ "$got" -eq "$want" ] || ok=0
  for text in "$@"; do
    grep -qF -- "$text" "$tmp/out" || { ok=0; echo "    missing: $text"; }
  done
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1))
    echo "    PASS: exit $got as expected"
  else
    failed=$((failed + 1))
    echo "    FAIL: exit $got, expected $want; the check said:"
    sed 's/^/      /' "$tmp/out"
  fi
}

# S: optional spaces, for the patterns below.
S='[[:space:]]*'
solver=factord/v1/solver.proto

new_case a_unchanged
expect 0 "OK: the protos match the v1 reference"

new_case b_renumbered_field
mutate "$solver" "/^message${S} MatrixHeader${S}\{/,/^\}/ s/(int64${S} n${S}=${S})2${S};/\122;/"
expect 1 'field "2" with name "n" on message "MatrixHeader" was deleted' \
  "FAIL: breaking change"

new_case c_removed_enum_value
mutate "$solver" "/^${S}METHOD_LU${S}=${S}9${S};/d"
expect 1 'enum value "9" on enum "Method" was deleted'

new_case d_additions
mutate "$solver" "/^message${S} MatrixHeader${S}\{/,/^\}/ s/^\}/  int64 wire_test_added = 536870000;\n}/"
mutate "$solver" "/^enum${S} Method${S}\{/,/^\}/ s/^\}/  METHOD_WIRE_TEST_ADDED = 536870000;\n}/"
mutate "$solver" "/^service${S} Solver${S}\{/,/^\}/ s/^\}/  rpc WireTestAdded(WireTestAddedRequest) returns (ServerInfoReply);\n}/"
mutate "$solver" "\$ s/\$/\nmessage WireTestAddedRequest { int32 a = 1; }/"
mutate factord/v1/errors.proto "/^enum${S} ErrorReason${S}\{/,/^\}/ s/^\}/  WIRE_TEST_ADDED = 536870000;\n}/"
expect 0 "OK: compatible with the v1 reference"

new_case e_changed_field_type
mutate "$solver" "/^message${S} Timings${S}\{/,/^\}/ s/double(${S} queue_s${S}=)/float\1/"
expect 1 'on message "Timings" changed type from "double" to "float"'

new_case f_changed_streaming
mutate "$solver" "s/(rpc${S} Factorize${S}\(${S})(FactorizeRequest)/\1stream \2/"
expect 1 'RPC "Factorize" on service "Solver" changed from client unary to client streaming'

new_case g_changed_response_type
mutate "$solver" "s/(rpc${S} Factorize${S}\(.*\)${S} returns${S}\(${S})FactorizeReply/\1MatrixInfo/"
expect 1 'RPC "Factorize" on service "Solver" changed response type'

new_case h_removed_rpc
mutate "$solver" "/^${S}rpc${S} Release${S}\(/d"
expect 1 'RPC "Release" on service "Solver" was deleted'

new_case i_removed_message
mutate "$solver" "/^message${S} Inertia${S}\{/,/^\}/d"
mutate "$solver" "/^${S}Inertia${S} inertia${S}=/d"
expect 1 'message "Inertia" was deleted'

new_case j_renumbered_error_reason
mutate factord/v1/errors.proto "s/^(${S}QUEUE_FULL${S}=${S})2${S};/\122;/"
expect 1 'enum value "2" on enum "ErrorReason" was deleted'

new_case k_renumbered_google_rpc_status_field
mutate google/rpc/status.proto "s/(int32${S} code${S}=${S})1${S};/\14;/"
expect 1 'field "1" with name "code" on message "Status" was deleted'

new_case l_does_not_compile
mutate "$solver" "/^message${S} MatrixHeader${S}\{/,/^\}/ s/^\}/  no_such_type broken = 99;\n}/"
expect 2 "do not compile"

# The v2 path: after an intended break, --update makes the check pass, and
# writes the same bytes every time (no spurious diff to commit).
new_case m_update_after_break
mutate "$solver" "/^${S}METHOD_LU${S}=${S}9${S};/d"
expect 1 'enum value "9" on enum "Method" was deleted'
"$check" --update "$dir" >/dev/null
cp "$dir/factord/v1/v1.binpb" "$tmp/first.binpb"
"$check" --update "$dir" >/dev/null
if cmp -s "$tmp/first.binpb" "$dir/factord/v1/v1.binpb"; then
  passed=$((passed + 1))
  echo "    PASS: --update twice writes identical bytes"
else
  failed=$((failed + 1))
  echo "    FAIL: --update is not deterministic"
fi
expect 0 "OK: the protos match the v1 reference"

echo "wire contract test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
