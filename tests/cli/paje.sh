# SimGrid's Paje tracing works: `tsunagi run --paje FILE` and the issue's reproducer
# (TSUNAGI_SIMGRID_CFG with tracing on) both succeed on the teaching scenario, and pj_dump
# (Debian package pajeng) reads the whole file: one container per host and per link, the
# rendezvous's loopback link once, and link use over time. The --paje trace also holds every
# process's protocol phase as a state of its host (starting, inference, set-up, workload, done,
# in that order) and ends with the run: no container outlives the simulated end.
source "$(dirname "$0")/lib.sh"
command -v pj_dump >/dev/null || fail "pj_dump not installed (tools/install-deps.sh installs pajeng)"
scenario="$SRC/scenarios/teaching/two-switches.toml"

(umask 022 && "$TSUNAGI" run "$scenario" --out "$WORK/a" --quiet --paje "$WORK/a.paje" >"$WORK/a.txt") ||
  fail "tsunagi run --paje failed: $(cat "$WORK/a.txt")"
# The trace is rewritten at the end (its containers closed then) and keeps the umask's mode, as
# an interrupted run's trace, which is not rewritten, does.
mode=$(stat -c %a "$WORK/a.paje")
[ "$mode" = 644 ] || fail "the Paje trace has mode $mode, not 644 (umask 022)"
grep -q "$WORK/a.paje" "$WORK/a.txt" || fail "the summary does not list the Paje file"
(cd "$WORK" && TSUNAGI_SIMGRID_CFG="tracing:yes tracing/uncategorized:yes tracing/filename:t.paje" \
  "$TSUNAGI" run "$scenario" --out "$WORK/b" --quiet >/dev/null) || fail "the issue's reproducer failed"

for trace in "$WORK/a.paje" "$WORK/t.paje"; do
  pj_dump "$trace" >"$trace.dump" 2>"$trace.err" || fail "pj_dump cannot read $trace: $(head -3 "$trace.err")"
  python3 - "$trace.dump" <<'PY'
import collections, sys
# pj_dump: "Container, parent, type, start, end, duration, name" and
# "Variable, container, type, start, end, duration, value".
rows = [line.rstrip("\n").split(", ") for line in open(sys.argv[1])]
containers = [r[6] for r in rows if r[0] == "Container" and len(r) == 7]
dup = [name for name, n in collections.Counter(containers).items() if n > 1]
assert not dup, f"containers twice: {dup[:5]}"
for name in ("rendezvous", "rendezvous.lo", "edge1-h00", "edge1-h00.lo", "edge2-h03",
             "edge1.uplink_UP"):
    assert name in containers, f"no container {name} (have {containers[:12]} ...)"
used = [r for r in rows if r[0] == "Variable" and len(r) == 7 and r[2] == "bandwidth_used"]
assert used, "no link use recorded (bandwidth_used)"
busy = [r for r in used if float(r[-1]) > 0]
assert busy, "every link idle the whole run"
print(f"ok: {sys.argv[1]}: {len(containers)} containers, {len(busy)} busy link intervals")
PY
done

# Protocol phases and the end, on the --paje trace (pj_dump: "State, container, type, start,
# end, duration, imbrication, value").
python3 - "$WORK/a.paje.dump" "$WORK/a/result.json" <<'PY'
import collections, json, sys
rows = [line.rstrip("\n").split(", ") for line in open(sys.argv[1])]
end = json.load(open(sys.argv[2]))["simulated_end_s"]
order = ["starting", "inference", "set-up", "workload", "done"]
states = collections.defaultdict(list)
for r in rows:
    if r[0] == "State" and r[2] == "protocol_phase":
        states[r[1]].append((float(r[3]), r[-1]))
hosts = ["rendezvous"] + [f"edge{s}-h0{i}" for s in (1, 2) for i in range(4)]
for host in hosts:
    seen = [value for _, value in sorted(states[host])]
    assert seen, f"no protocol_phase states on {host}"
    ranks = [order.index(v) for v in seen]
    assert ranks == sorted(ranks), f"{host}: phases out of order: {seen}"
    assert seen[-1] == "done", f"{host} never done: {seen}"
ranks_seen = {v for host in hosts[1:] for _, v in states[host]}
assert ranks_seen == set(order), f"ranks went through {sorted(ranks_seen)}, not every phase"
late = [r for r in rows if r[0] == "Container" and float(r[4]) > end + 1e-6]
assert not late, f"{len(late)} containers end after the run ({end} s): {late[:3]}"
print(f"ok: {sum(map(len, states.values()))} protocol-phase states on {len(states)} hosts; "
      f"every container closed by the run's end, {end} s")
PY
# --paje is SimGrid's: other backends refuse it with the reason.
if "$TSUNAGI" run "$scenario" --backend ns3 --paje "$WORK/c.paje" --out "$WORK/c" 2>"$WORK/c.err"; then
  fail "--paje with ns3 accepted"
fi
grep -q "pcap" "$WORK/c.err" || fail "the refusal does not point to --pcap: $(cat "$WORK/c.err")"
echo "ok: --paje with ns3 refused: $(cat "$WORK/c.err")"
