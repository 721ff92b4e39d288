#!/usr/bin/env bash
# The checks that compare a real time, rate or latency with a bound (ctest label "timing"): real
# TCP in namespaces against the link's rate, iperf3 and Open MPI beside tsunagi, Fig. 9/10's
# shapes. They are benchmarks: run them on an otherwise idle machine, one at a time, and record
# their figures with the machine's load (docs/testing.md, "Timing checks"). Not part of
# tools/test.sh or CI: a busy machine fails them for reasons that are not the code's.
# Usage (as root, after tools/build.sh): tools/timing-checks.sh [extra ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "timing-checks: load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
status=0
ctest --test-dir build --output-on-failure -L '^timing$' -V "$@" || status=$?
echo "timing-checks: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
