#!/usr/bin/env bash
# The main job: set everything up, then run the teaching scenario on SimGrid and print its
# summary. Output goes to out/demo/ (result.json, trace.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh build
exec build/app/tsunagi run scenarios/teaching/two-switches.toml --out out/demo "$@"
