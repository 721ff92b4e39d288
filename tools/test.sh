#!/usr/bin/env bash
# The test job: set everything up, build, run the default test suite (unit, scenario,
# determinism, cross-run comparison). Long sweeps carry the label "long" and are excluded;
# run them with: ctest --test-dir build -L long
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh build
ctest --test-dir build --output-on-failure --parallel "$(nproc)" -LE long "$@"
