# `tsunagi sweep --slurm` against a one-machine Slurm this test starts (slurm_lib.sh): the same
# sweep as a local one, submitted as one job array and tabulated into the same sweep.csv (the
# SimGrid backend is deterministic, so every column but wall time is equal); run again, it
# submits only the points that are missing.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
source "$(dirname "$0")/slurm_lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: the test's Slurm runs slurmd as root"; exit $SKIP; }
need_slurm
S="$SRC/scenarios/teaching/two-switches.toml"
COLUMNS=workload.makespan_ns,connections.max_per_node,inference.groups_correct,messages.sent
sweep=(sweep "$S" --set protocol.shortcut_capacity=0..3 --set seed=1,2 --columns "$COLUMNS")

"$TSUNAGI" "${sweep[@]}" -j 2 --out "$WORK/local" > "$WORK/local.out" 2> "$WORK/local.err" ||
  { cat "$WORK/local.err" >&2; fail "local sweep failed"; }
start_slurm 4
status=0
"$TSUNAGI" "${sweep[@]}" --slurm -j 3 --sbatch time=10 --out "$WORK/slurm" > "$WORK/slurm.out" \
  2> "$WORK/slurm.err" || status=$?
[ "$status" -eq 0 ] || { cat "$WORK/slurm.out" "$WORK/slurm.err" >&2; fail "slurm sweep exited $status"; }
grep -q "^#SBATCH --array=0-7%3$" "$WORK/slurm/sweep-array.sh" || fail "no 8-task array limited to 3"
grep -q "^#SBATCH --time=10$" "$WORK/slurm/sweep-array.sh" || fail "--sbatch time=10 not applied"
grep -q "submitted job array [0-9]" "$WORK/slurm.err" || { cat "$WORK/slurm.err" >&2; fail "no job id"; }
cmp "$WORK/local/sweep.csv" "$WORK/slurm/sweep.csv" || {
  diff "$WORK/local/sweep.csv" "$WORK/slurm/sweep.csv" >&2; fail "the Slurm sweep's CSV differs"; }
[ "$(grep -c . "$WORK/slurm/sweep.csv")" -eq 9 ] || fail "not 8 rows + header"
echo "ok: 8 points as one job array, sweep.csv equal to the local sweep's"

# Resume: drop two points' results; only they are submitted again.
rm "$WORK/slurm/protocol.shortcut_capacity=1,seed=2/result.json" "$WORK/slurm/protocol.shortcut_capacity=3,seed=1/sweep-point.json" 2>/dev/null ||
  { ls "$WORK/slurm" >&2; fail "point directories not as expected"; }
"$TSUNAGI" "${sweep[@]}" --slurm --out "$WORK/slurm" > "$WORK/again.out" 2> "$WORK/again.err" ||
  { cat "$WORK/again.err" >&2; fail "resumed slurm sweep failed"; }
grep -q "6 done before, 2 to run" "$WORK/again.err" || { cat "$WORK/again.err" >&2; fail "not 2 to run"; }
grep -q "^#SBATCH --array=0-1$" "$WORK/slurm/sweep-array.sh" || fail "the array is not the 2 missing points"
cmp "$WORK/local/sweep.csv" "$WORK/slurm/sweep.csv" || fail "resumed CSV differs"
echo "ok: resumed: only the 2 missing points were submitted; the CSV is whole again"
