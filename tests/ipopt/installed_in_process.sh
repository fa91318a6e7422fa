#!/bin/bash
# installed_in_process.sh BUILD QP: installs BUILD (`cmake --install`) into
# a fresh prefix and runs Debian's unmodified Ipopt (BUILD's
# factord-ipopt-nlp, which links no factord library) with linear_solver
# ma57 from that prefix alone: LD_LIBRARY_PATH is the prefix's
# lib/factord, no FACTORD_SERVER, no daemon anywhere. Checks that the run
# solves the nonconvex chain and QP as MUMPS does (objective to 1e-6), that
# every factord library the process loaded came from the prefix, and that
# gRPC was not loaded at all.
set -euo pipefail
build="$(cd "$1" && pwd)"
qp="$2"
prefix="$(mktemp -d "${TMPDIR:-/tmp}/factord-prefix.XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
hsl="$(find "$prefix" -name libhsl.so -path '*/factord/*' | head -n 1)"
if [ -z "$hsl" ]; then
  echo "FAIL: no lib/factord/libhsl.so under the prefix" >&2
  exit 1
fi
libdir="$(dirname "$hsl")"
nlp="$build/ipopt/factord-ipopt-nlp"
status=0
for problem in nonconvex_chain "$qp"; do
  mumps="$(env -u FACTORD_SERVER "$nlp" --problem="$problem" | tail -n 1)"
  maps="$prefix/maps.txt"
  # LD_DEBUG=libs names every library the loader opened, with its path.
  factord="$(env -u FACTORD_SERVER -u LD_PRELOAD LD_LIBRARY_PATH="$libdir" \
    LD_DEBUG=libs LD_DEBUG_OUTPUT="$maps" \
    "$nlp" --problem="$problem" --linear_solver=ma57 | tail -n 1)"
  python3 - "$mumps" "$factord" "$problem" <<'PY' || status=1
import json, sys
mumps, factord, problem = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
ok = factord["status"] in ("Solve_Succeeded", "Solved_To_Acceptable_Level")
diff = abs(factord["objective"] - mumps["objective"]) / max(1.0, abs(mumps["objective"]))
print(f"{problem}: MUMPS {mumps['objective']:.10g} ({mumps['iterations']} it), "
      f"ma57 in process {factord['objective']:.10g} ({factord['iterations']} it), "
      f"{factord['status']}, rel diff {diff:.1e}")
sys.exit(0 if ok and diff <= 1e-6 else 1)
PY
  if grep -q 'calling init: .*libgrpc' "$maps".*; then
    echo "FAIL: $problem: gRPC was loaded in process" >&2
    status=1
  fi
  opened="$(cat "$maps".* | sed -n 's/.*calling init: \(.*libfactord[^ ]*\|.*libhsl[^ ]*\).*/\1/p' | sort -u)"
  rm -f "$maps".*
  if [ -z "$opened" ]; then
    echo "FAIL: $problem: the loader opened no factord library" >&2
    status=1
  fi
  while read -r lib; do
    case "$(readlink -f "$lib")" in
      "$(readlink -f "$prefix")"/*) echo "  loaded $lib" ;;
      *) echo "FAIL: $problem: $lib is not from the prefix" >&2; status=1 ;;
    esac
  done <<< "$opened"
done
exit "$status"
