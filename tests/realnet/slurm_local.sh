# --net slurm, for real, against a one-machine Slurm this test starts (slurm_lib.sh): its tasks
# enter the host namespaces of two-switches' emulated network (tsunagi-emulate, x50 as
# netns_compare.sh; --launch-prefix ns_task.sh), so the ranks measure the scenario's RTTs.
#  1. outside an allocation the error names the cause from slurm.log (no srun; no SLURM_JOB_ID);
#  2. the dry run is a batch script with #SBATCH lines; sbatch --wait runs it; `tsunagi collect`
#     turns its event files into result.json/trace.jsonl: the same decisions as SimGrid;
#  3. interactively under salloc: the same decisions as SimGrid;
#  4. SIGINT to the launcher under salloc stops every task and says so.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
source "$(dirname "$0")/slurm_lib.sh"
need_netns
need_slurm
S="$SRC/scenarios/teaching/two-switches.toml"

# 1. Errors that point at the right log.
mkdir "$WORK/nobin"
ln -s "$(command -v bash)" "$WORK/nobin/bash"
status=0
env -u SLURM_JOB_ID PATH="$WORK/nobin" "$TSUNAGI" run "$S" --backend realnet --net slurm \
  --out "$WORK/nosrun" > "$WORK/nosrun.out" 2> "$WORK/nosrun.err" || status=$?
[ "$status" -eq 1 ] || fail "no srun: exit $status, expected 1"
grep -q 'srun: command not found.*see .*/slurm.log' "$WORK/nosrun.out" "$WORK/nosrun/result.json" ||
  { cat "$WORK/nosrun.out" >&2; fail "no srun: the failure does not quote slurm.log"; }
! grep -q "rendezvous.log" "$WORK/nosrun/result.json" || fail "no srun: blames rendezvous.log"
echo "ok: without srun: $(grep -o 'the Slurm script ended.*' "$WORK/nosrun/result.json" | head -c 200)"
status=0
env -u SLURM_JOB_ID "$TSUNAGI" run "$S" --backend realnet --net slurm --out "$WORK/noalloc" \
  > /dev/null 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "no allocation: exit $status, expected 1"
grep -q 'not inside a Slurm allocation (SLURM_JOB_ID is not set).*slurm.log' "$WORK/noalloc/result.json" ||
  { cat "$WORK/noalloc/result.json" >&2; fail "no allocation: not named"; }
echo "ok: outside an allocation: named from slurm.log"

"$TSUNAGI" run "$S" --out "$WORK/simgrid" --quiet > /dev/null
start_slurm 16
emulate "$S" --latency-scale 50
PREFIX="$SRC/tests/realnet/ns_task.sh $WORK/map"

# 2. Batch job + collect.
"$TSUNAGI" run "$S" --backend realnet --net slurm --dry-run --out "$WORK/batch" \
  --sbatch nodes=1 --sbatch time=5 --launch-prefix "$PREFIX" > "$WORK/job.sh"
grep -q '^#SBATCH --job-name=tsunagi-two-switches$' "$WORK/job.sh" || fail "no job name line"
grep -q '^#SBATCH --nodes=1$' "$WORK/job.sh" || fail "--sbatch nodes=1 not applied"
grep -q '^#SBATCH --ntasks=8$' "$WORK/job.sh" || fail "no ntasks line"
grep -q '^#SBATCH --time=5$' "$WORK/job.sh" || fail "--sbatch time=5 not applied"
sbatch --wait --quiet "$WORK/job.sh" || { cat "$WORK/batch/realnet/slurm.log" >&2; fail "the batch job failed"; }
status=0
"$TSUNAGI" collect "$WORK/batch" -q > "$WORK/collect.out" || status=$?
[ "$status" -eq 0 ] || { cat "$WORK/collect.out" "$WORK/batch/realnet/slurm.log" >&2; fail "collect exited $status"; }
expect_json "$WORK/batch/result.json" inference.groups_correct true
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/batch" || status=$?
[ "$status" -eq 0 ] || fail "batch job: tsunagi compare exited $status"
echo "ok: sbatch + tsunagi collect made the same decisions as SimGrid"

# 3. Interactive, inside an allocation.
status=0
salloc --quiet -N1 -n8 "$TSUNAGI" run "$S" --backend realnet --net slurm --out "$WORK/inter" \
  --launch-prefix "$PREFIX" --quiet > "$WORK/inter.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$WORK/inter.out" "$WORK/inter/realnet/slurm.log" >&2; fail "salloc run exited $status"; }
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/inter" || status=$?
[ "$status" -eq 0 ] || fail "salloc run: tsunagi compare exited $status"
echo "ok: --net slurm under salloc made the same decisions as SimGrid"
[ -z "$(daemons_running)" ] || fail "daemons left running"

# 4. Interrupt: SIGINT to the launcher stops every task through srun.
salloc --quiet -N1 -n8 bash -c 'echo $$ > "$0"; exec "$@"' "$WORK/launcher.pid" \
  "$TSUNAGI" run "$S" --backend realnet --net slurm --out "$WORK/stop" --launch-prefix "$PREFIX" \
  --set workload.pingpong.rounds=100000000 > /dev/null 2> "$WORK/stop.err" &
salloc_pid=$!
for _ in $(seq 300); do grep -q "Slurm script started" "$WORK/stop.err" 2>/dev/null && break; sleep 0.1; done
sleep 4  # every rank registered, the ping-pong running
kill -INT "$(cat "$WORK/launcher.pid")"
status=0
wait "$salloc_pid" || status=$?
[ "$status" -eq 1 ] || { cat "$WORK/stop.err" >&2; fail "interrupted run exited $status, expected 1"; }
grep -q "stopped 9 remote daemons (Slurm: scancel --signal=TERM): 9 confirmed their exit" "$WORK/stop.err" ||
  { cat "$WORK/stop.err" "$WORK/stop/realnet/slurm.log" >&2; fail "no report of the stopped tasks"; }
for _ in $(seq 300); do [ -z "$(daemons_running)" ] && break; sleep 0.1; done  # a loaded machine is slow to reap
[ -z "$(daemons_running)" ] || { pgrep -af tsunagi- >&2; fail "tasks still running after SIGINT"; }
echo "ok: SIGINT stopped every Slurm task: $(grep -o 'stopped 9 remote.*' "$WORK/stop.err")"
