#!/usr/bin/env bash
# Installs the Debian packages factord needs, only those that are missing.
# Idempotent: a machine that has them all does nothing (and needs no network).
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config zlib1g-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev libgtest-dev libgmock-dev googletest libbenchmark-dev
  prometheus-cpp-dev libcpp-httplib-dev
  libopenblas-dev liblapacke-dev libsuitesparse-dev libmetis-dev
  libmumps-seq-dev libtbb-dev
  # Debian's unmodified Ipopt (3.11.9, with MUMPS) for ipopt/ (docs/ipopt.md)
  coinor-libipopt-dev
  curl openssl
  # The client programs' flags (header-only) and their man pages.
  libcli11-dev help2man
  # The Python package (python/) and its tests (tests/python): Debian's
  # python3 (/usr/bin/python3) with its gRPC and protobuf runtimes; pip and
  # venv for the install-into-a-venv test.
  python3 python3-grpcio python3-protobuf python3-numpy python3-scipy
  python3-pytest python3-pytest-timeout python3-venv python3-pip
  python3-setuptools python3-wheel
  python3-jsonschema  # factorctl --json against docs/schema/ (sdk.factorctl_json)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install_deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
