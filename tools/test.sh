#!/usr/bin/env bash
# The test job: set everything up, build (the same configuration as tools/demo.sh, so after the
# demo nothing is rebuilt; warnings are errors by default), check the formatting, run the
# default test suite: unit, fuzz replay, scenario, conformance on all three backends,
# determinism, cross-run and cross-backend comparison (docs/testing.md).
# Outside it, each under its own label: "long" (sweeps and paper-size runs), "timing" (checks
# that compare a real time or rate with a bound: tools/timing-checks.sh), "fuzz" (fuzzing for
# new inputs: tools/fuzz.sh). Extra arguments go to ctest (e.g. -L quick, -R conformance).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh build
# A build folder configured by hand with warnings allowed is made strict again: CI must see
# every warning as an error.
if grep -q '^TSUNAGI_WERROR:BOOL=OFF' build/CMakeCache.txt; then
  tools/build.sh build -DTSUNAGI_WERROR=ON
fi
tools/check-format.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" -LE '^(long|timing|fuzz)$' "$@"
