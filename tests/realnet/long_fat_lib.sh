# Helpers of the tests that put real tools beside tsunagi on teaching/long-fat-pair.toml
# (iperf_baseline.sh, mpi_pingpong.sh). Needs lib.sh and cluster_lib.sh sourced first.
LONG_FAT_PAIR="$SRC/scenarios/teaching/long-fat-pair.toml"

# Ends the network tsunagi-emulate holds (the tool's part is done).
stop_emulate() {
  kill -TERM "$EMULATE_PID"
  wait "$EMULATE_PID" || true
  EMULATE_PID=""
}

# tsunagi's indices workload on the same plan with an 8 MB window: SIZES (a TOML list), the
# iperf-like transfer STREAM bytes, 3 repeats, any further tsunagi options after them; result in
# $WORK/tsunagi/result.json.
run_indices() {  # SIZES STREAM [OPTION...]
  local sizes=$1 stream=$2
  shift 2
  "$TSUNAGI" run "$LONG_FAT_PAIR" --backend realnet --net netns --out "$WORK/tsunagi" --quiet \
    --set protocol.window=8MB --set "workload.indices.sizes=$sizes" \
    --set workload.indices.repeats=3 --set workload.indices.stream_bytes="$stream" "$@" > /dev/null
  expect_json "$WORK/tsunagi/result.json" ok true
}
