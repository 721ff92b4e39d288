# Issue 15 on realnet: window-limited bandwidth at 42 ms RTT in namespaces (teaching/
# long-fat-pair.toml: two sites, one delay-line link of 21 ms each way, 1 Gbit/s tbf, jumbo
# frames) within 10 % of min(window / RTT, 1 Gbit/s), both ways, for the windows the core sets
# with protocol.window (SO_SNDBUF / SO_RCVBUF in the adapter). The check is the simulators'
# (tests/cli/window_limits.sh): steady state from two transfers of S and 3S bytes, which cancels
# slow start and the first byte's flight.
# Usage: window_limits.sh "WINDOWS" [--set ...]
source "$(dirname "$0")/lib.sh"
need_netns
windows=$1
shift
bash "$SRC/tests/cli/window_limits.sh" realnet "$windows" --net netns "$@"
