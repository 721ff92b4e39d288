#!/usr/bin/env bash
# Issue 32 on realnet: tools/bench_auto_windows.py in namespaces (scenarios/bench/wan-3site.toml,
# 4, 17 and 33 ms on 1 Gbit/s): every pair's rate with the auto window >= 0.85 of the link,
# from two transfer sizes. Real rates: label timing only.
source "$(dirname "$0")/lib.sh"
need_netns
python3 "$SRC/tools/bench_auto_windows.py" --tsunagi "$TSUNAGI" --backends realnet \
  --out "$WORK/bench" "$@"
