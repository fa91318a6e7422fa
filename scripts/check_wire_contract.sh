#!/usr/bin/env bash
# Fails when the protos break the frozen v1 wire contract.
#
#   scripts/check_wire_contract.sh [PROTO_DIR]           check (ctest: wire.contract)
#   scripts/check_wire_contract.sh --update [PROTO_DIR]  rewrite the reference
#
# PROTO_DIR (default: proto/) is the import root. The contract is every file
# under PROTO_DIR/factord/v1 (solver.proto, errors.proto) and PROTO_DIR/google/rpc
# (the wire-compatible google.rpc.Status and error details that factord sends
# in the grpc-status-details-bin trailer). Its reference is the descriptor
# image PROTO_DIR/factord/v1/v1.binpb, committed: the FileDescriptorSet of
# those files with their imports (google/protobuf/any.proto, duration.proto),
# without source info, so moving comments does not change it. Read it with
#   protoc --decode=google.protobuf.FileDescriptorSet \
#     -I/usr/include google/protobuf/descriptor.proto < proto/factord/v1/v1.binpb
#
# The comparison is `buf breaking` with buf's FILE rules (the strictest set):
# a deleted or renumbered field, a field whose type, label or name changed, a
# deleted or renumbered enum value, a deleted message, enum, service or RPC, an
# RPC whose request or response type or streaming changed, a deleted file,
# fail; new fields, enum values, messages, RPCs and files pass. (WIRE_JSON
# would let a deleted RPC or message pass.) buf is @bufbuild/buf, pinned in
# tests/wire/package-lock.json and installed into tests/wire/node_modules by
# scripts/install_ops_tools.sh; it runs offline. BUF=/path/to/buf overrides it.
#
# --update (re)writes the reference from PROTO_DIR as it is now. Run it, and
# commit proto/factord/v1/v1.binpb with the protos, only when the contract
# changes on purpose (the protos of v1 are still being finalized, or a v2):
#   scripts/check_wire_contract.sh --update && scripts/check_wire_contract.sh
# It does not check compatibility; it refuses protos that do not compile.
#
# Exit status: 0 compatible (or reference written), 1 breaking change,
# 2 usage error, missing tool, missing reference or protos that do not compile.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

die() {
  echo "check_wire_contract: $*" >&2
  exit 2
}

update=0
proto_dir=""
for arg in "$@"; do
  case "$arg" in
    --update) update=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    -*) die "unknown option $arg (see --help)" ;;
    *)
      [ -z "$proto_dir" ] || die "more than one PROTO_DIR (see --help)"
      proto_dir="$arg"
      ;;
  esac
done
proto_dir="${proto_dir:-$root/proto}"
[ -d "$proto_dir/factord/v1" ] || die "$proto_dir/factord/v1 is not a directory"
proto_dir="$(cd "$proto_dir" && pwd)"
reference="$proto_dir/factord/v1/v1.binpb"

buf="${BUF:-$root/tests/wire/node_modules/.bin/buf}"
[ -x "$buf" ] ||
  die "buf not found at $buf: run scripts/install_ops_tools.sh (npm ci in tests/wire)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/factord-wire.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# buf keeps a module cache; none is needed here (no remote dependencies), so
# a throw-away one keeps the check off $HOME and safe under ctest -j.
export BUF_CACHE_DIR="$tmp/cache"

# The contract's files. buf resolves --path against the working directory,
# hence the cd; the rules are given inline so that no buf.yaml in PROTO_DIR
# (or in a copy of it) can weaken them.
contract_paths=(--path factord/v1 --path google/rpc)
config='{"version":"v1","breaking":{"use":["FILE"]}}'
cd "$proto_dir"

# build_image OUT: compiles the contract's files into the image OUT.
build_image() {
  "$buf" build . --config "$config" "${contract_paths[@]}" \
    --exclude-source-info -o "$1" ||
    die "the protos in $proto_dir do not compile (buf build failed, above)"
}

if [ "$update" -eq 1 ]; then
  build_image "$tmp/v1.binpb"
  if [ -f "$reference" ] && cmp -s "$tmp/v1.binpb" "$reference"; then
    echo "check_wire_contract: $reference is already up to date"
  else
    cp "$tmp/v1.binpb" "$reference"
    echo "check_wire_contract: wrote $reference; commit it with the protos"
  fi
  exit 0
fi

[ -f "$reference" ] ||
  die "no reference $reference: create it with $0 --update"
# Compile first: buf breaking reports compile errors with the same exit
# status (100) as breaking changes, and they must not pass for either.
build_image "$tmp/current.binpb"
status=0
"$buf" breaking . --against "$reference" --config "$config" \
  "${contract_paths[@]}" || status=$?
case "$status" in
  0) ;;
  100)
    echo "check_wire_contract: FAIL: breaking change(s) to the v1 wire contract" \
      "(above) against ${reference#"$root"/}; if intended (a v2), run" \
      "scripts/check_wire_contract.sh --update and commit the new reference" >&2
    exit 1
    ;;
  *) die "buf breaking failed with status $status (above)" ;;
esac
if cmp -s "$tmp/current.binpb" "$reference"; then
  echo "check_wire_contract: OK: the protos match the v1 reference"
else
  # Additions are compatible, but until they are in the reference a later
  # change to them is not checked.
  echo "check_wire_contract: OK: compatible with the v1 reference; note: the" \
    "protos have additions that the reference does not freeze yet" \
    "(scripts/check_wire_contract.sh --update records them)"
fi
