# Issue 15 (stretch): a real MPI beside tsunagi over the same emulated long fat link, as paper
# 004's MPICH-G2 (Open MPI as the stand-in; MPICH with UCX hangs in MPI_Finalize across
# namespaces). teaching/long-fat-pair.toml (42 ms RTT, 1 Gbit/s) built by tsunagi-emulate;
# mpirun runs in the rendezvous's namespace and starts its orteds in the two hosts' namespaces
# through mpi/ns_agent.sh (plm_rsh_agent); the TCP BTL only. Then tsunagi's indices workload
# on the same plan. Prints both message times per size, and OH_s = (raw RTT / 2) / message time
# for both (the raw RTTs are tsunagi's pings). Checks that MPI crossed the emulated link (its
# 64 B message at least the link's 21 ms one way, and below 1.5 x tsunagi's: MPI's own overhead
# is what is measured, so no tighter bound) and that both delivered every size.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
source "$(dirname "$0")/long_fat_lib.sh"
need_netns
for tool in mpicc mpirun; do
  command -v "$tool" >/dev/null ||
    { echo "SKIP: needs $tool (openmpi-bin, libopenmpi-dev: tools/install-deps.sh)"; exit $SKIP; }
done
sizes=(64 65536 1048576 8388608)
mpicc -O2 -o "$WORK/pingpong" "$SRC/tests/realnet/mpi/pingpong.c"

emulate "$LONG_FAT_PAIR"
ip0=$(map_field rank 0 5)
ip1=$(map_field rank 1 5)
ip netns exec "$(rendezvous_ns)" env TMPDIR="$WORK" timeout 120 mpirun --allow-run-as-root -np 2 --host "$ip0,$ip1" \
  --mca plm_rsh_agent "$SRC/tests/realnet/mpi/ns_agent.sh $WORK/map" \
  --mca oob_tcp_if_include 10.0.0.0/8 --mca btl_tcp_if_include 10.0.0.0/8 \
  --mca pml ob1 --mca btl tcp,self "$WORK/pingpong" 10 "${sizes[@]}" > "$WORK/mpi.out" \
  2> "$WORK/mpi.err" || { cat "$WORK/mpi.err" >&2; fail "mpirun failed"; }
cat "$WORK/mpi.out"
stop_emulate
run_indices '["64B","64KB","1MB","8MB"]' 64MB

python3 - "$WORK/mpi.out" "$WORK/tsunagi/result.json" "$(timing_checks && echo 1 || echo 0)" <<'PY'
import json, sys
timing = sys.argv[3] == "1"  # MPI's time against tsunagi's: only under the "timing" label
mpi = {int(b): int(t) for _, b, t in (l.split() for l in open(sys.argv[1]) if l.startswith("pingpong"))}
pair = json.load(open(sys.argv[2]))["indices"]["pairs"][0]
ours = {s["bytes"]: s for s in pair["sizes"]}
print("bytes      MPI_ms  tsunagi_ms  MPI_MB/s  tsunagi_MB/s  OH_MPI  OH_tsunagi")
bad = False
for size in sorted(ours):
    if size not in mpi:
        print(f"{size}: no MPI time"); bad = True; continue
    m, t, raw = mpi[size] / 1e9, ours[size]["message_ns"] / 1e9, (ours[size]["raw_rtt_ns"] or 0) / 1e9
    oh = lambda x: f"{raw / 2 / x:.3f}" if raw else "—"
    print(f"{size:>8} {m * 1e3:9.2f} {t * 1e3:11.2f} {size / m / 1e6:9.1f} {size / t / 1e6:13.1f}"
          f"  {oh(m):>6}  {oh(t):>10}")
ratio = mpi[64] / ours[64]["message_ns"]
print(f"64 B: MPI {mpi[64] / 1e6:.2f} ms = {ratio:.3f} x tsunagi's (the link: 21 ms one way)")
bad |= not 0.98 * 21e6 <= mpi[64]  # the link's one way: no load makes it shorter
bad |= timing and not mpi[64] <= 1.5 * ours[64]["message_ns"]
sys.exit(1 if bad else 0)
PY
