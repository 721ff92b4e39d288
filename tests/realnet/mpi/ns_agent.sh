#!/bin/bash
# Open MPI's launch agent across emulated machines (--mca plm_rsh_agent "ns_agent.sh MAP"):
# called like ssh, `ns_agent.sh MAP HOST COMMAND...`, it runs COMMAND (Open MPI's orted) in the
# namespace tsunagi-emulate made for the host whose address is HOST (MAP is the emulator's
# output), with that address as its host name and a temporary directory of its own: two orteds
# with one host name and one /tmp collide ("mkdir /tmp/ompi.…: File exists").
set -euo pipefail
map=$1
host=$2
shift 2
ns=$(awk -v ip="$host" '$2 == "rank" && $5 == ip { print $4; exit }' "$map")
[ -n "$ns" ] || { echo "ns_agent.sh: no emulated host with address $host in $map" >&2; exit 2; }
dir="${TMPDIR:-/tmp}/tsunagi-mpi-$ns"
mkdir -p "$dir"
# Open MPI hands the remote command as words, as ssh would join them for a shell.
exec ip netns exec "$ns" unshare --uts sh -c \
  'hostname "$1" && export TMPDIR="$2" && shift 2 && eval "exec $*"' sh "$host" "$dir" "$@"
