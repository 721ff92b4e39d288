#!/bin/bash
# Launch prefix for the local-Slurm test (--launch-prefix "ns_task.sh MAP"): puts the daemon a
# Slurm task runs into its emulated "machine", the namespace tsunagi-emulate made for its host
# (MAP is the emulator's output), with that machine's address as its host name, so the
# daemon's `--listen auto:0` resolves to it as on a real cluster node.
set -euo pipefail
map=$1
shift
if [[ "$1" == */tsunagi-rendezvous || "$1" == tsunagi-rendezvous ]]; then
  read -r ns ip < <(awk '$2 == "rendezvous" { print $3, $4 }' "$map")
else
  read -r ns ip < <(awk -v r="${SLURM_PROCID:?}" '$2 == "rank" && $3 == r { print $4, $5 }' "$map")
fi
[ -n "${ns:-}" ] || { echo "ns_task.sh: no namespace for this task in $map" >&2; exit 2; }
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$ip" "$@"
