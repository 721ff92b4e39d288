#!/usr/bin/env bash
# Installs every Debian 12 package tsunagi needs to build, test and plot.
# Usage (as root): tools/install-deps.sh          -- idempotent, safe to re-run
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libsimgrid-dev
  libns3-dev ns3 libgsl-dev
  catch2
  libboost-dev libboost-program-options-dev libboost-system-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  python3 python3-matplotlib
  clang-format
  clang-14 libclang-rt-14-dev  # libFuzzer + ASan/UBSan runtimes: tools/fuzz.sh, ctest fuzz:short
  iproute2 iptables
  time                       # /usr/bin/time -v: the SMPI baseline's wall time and peak memory
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run this script as root (or: sudo $0)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
