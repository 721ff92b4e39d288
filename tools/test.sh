#!/usr/bin/env bash
# The test job: set everything up, build with warnings as errors, check the formatting, run the
# default test suite (unit, scenario, conformance, determinism, cross-run comparison). Long
# sweeps carry the label "long" and are excluded; run them with: ctest --test-dir build -L long
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh build -DTSUNAGI_WERROR=ON
tools/check-format.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" -LE long "$@"
