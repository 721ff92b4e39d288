# Issue 15: a site_rtt run in namespaces (per-namespace TCP sysctls, forced socket buffers of
# 8.1 MB above the host's 4 MB cap) leaves every host-wide setting as it found it: after a run
# that ends well, after one interrupted with SIGINT, and after one that fails (time-out).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/host_settings_lib.sh"
need_netns
scenario="$SRC/scenarios/papers/supersinet-4.toml"
small=(--set 'workload.indices.sizes=["64B","64KB"]' --set workload.indices.repeats=1)
host_settings > "$WORK/before"
cat "$WORK/before"

run_realnet "$scenario" --backend realnet --net netns --out "$WORK/ok" --quiet "${small[@]}" \
  --set workload.indices.stream_bytes=1MB
[ "$RUN_STATUS" -eq 0 ] || fail "the run exited $RUN_STATUS"
expect_host_settings "$WORK/before" "after a run that ended well"

"$TSUNAGI" run "$scenario" --backend realnet --net netns --out "$WORK/int" --quiet "${small[@]}" \
  --set workload.indices.stream_bytes=64MB 2> "$WORK/int.err" &
pid=$!
sleep 4
kill -INT "$pid"
status=0
wait "$pid" || status=$?
check_nothing_left "$pid"
[ "$status" -ne 0 ] || fail "the interrupted run exited 0"
grep -q "interrupted by SIGINT" "$WORK/int.err" || { cat "$WORK/int.err" >&2; fail "not interrupted"; }
expect_host_settings "$WORK/before" "after SIGINT"

run_realnet "$scenario" --backend realnet --net netns --out "$WORK/late" --quiet "${small[@]}" \
  --set workload.indices.stream_bytes=64MB --timeout 3 2> "$WORK/late.err" || true
[ "$RUN_STATUS" -ne 0 ] || fail "the run with --timeout 3 exited 0"
expect_host_settings "$WORK/before" "after a failed run (time-out)"
