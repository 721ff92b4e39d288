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
  # the Python package python/ and the JSON Schemas schemas/ (docs/python.md; ctest python:*):
  # pandas 1.5 for tsunagi.load, jsonschema 4.10 for the schema tests, venv + pip + setuptools
  # for the offline `pip install --no-build-isolation --no-deps ./python` check
  python3-pandas python3-jsonschema python3-venv python3-pip python3-setuptools
  clang-format
  clang-14 libclang-rt-14-dev  # libFuzzer + ASan/UBSan runtimes: tools/fuzz.sh, ctest fuzz:short
  iproute2 iptables
  iperf3 openmpi-bin libopenmpi-dev  # issue 15: iperf3 and an MPI ping-pong (mpicc) in namespaces
  time                       # /usr/bin/time -v: the SMPI baseline's wall time and peak memory
  tshark tcpdump             # reading captures; tools/wireshark/tsunagi.lua (docs/wireshark.md)
  # realnet clusters for real (tests/realnet/ssh_hosts.sh, slurm_local.sh; docs/realnet.md):
  # the tests start their own sshd, munged, slurmctld and slurmd with their own configs and
  # keys; the system services these packages install are not used.
  openssh-client openssh-server
  munge slurmctld slurmd slurm-client
  graphviz                   # dot/neato: the run report's topology and overlay figures
  chromium                   # headless browser: the run report is opened in it by the tests
  pajeng                     # pj_dump: reads the Paje traces of `tsunagi run --paje`
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
# wireshark-common would otherwise ask whether non-root users may capture: no setuid dumpcap.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
