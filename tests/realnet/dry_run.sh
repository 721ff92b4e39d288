# --dry-run prints what would run (netns set-up, processes, clean-up; ssh lines for --hosts;
# an srun script for Slurm) and runs nothing. Needs no root.
source "$(dirname "$0")/lib.sh"
S="$SRC/scenarios/teaching/two-switches.toml"
before=$(ip netns list 2>/dev/null | wc -l || echo 0)

"$TSUNAGI" run "$S" --backend realnet --net netns --dry-run --out "$WORK/ns" > "$WORK/ns.sh"
grep -q "^netns add tsg[0-9]*-s0$" "$WORK/ns.sh" || fail "netns: no switch namespace"
grep -q "link add br0 type bridge" "$WORK/ns.sh" || fail "netns: no bridge"
grep -q "tsunagi-delayline --link" "$WORK/ns.sh" || fail "netns: no delay line"
grep -q "tbf rate 1000000000bit" "$WORK/ns.sh" || fail "netns: no rate limit"
[ "$(grep -c 'ip netns exec tsg[0-9]*-h[0-9]* .*tsunagi-node' "$WORK/ns.sh")" -eq 8 ] || fail "netns: not 8 nodes"
grep -q "^netns del tsg[0-9]*-s0$" "$WORK/ns.sh" || fail "netns: no clean-up"
[ ! -e "$WORK/ns/result.json" ] || fail "dry run wrote a result"
echo "ok: netns dry run"

printf '# cluster\n%s\n' node{01..08} > "$WORK/hosts"
"$TSUNAGI" run "$S" --backend realnet --hosts "$WORK/hosts" --dry-run --out "$WORK/h" > "$WORK/h.sh"
grep -q "^ssh -o BatchMode=yes node01 -- .*tsunagi-rendezvous .*--listen node01:7100" "$WORK/h.sh" || fail "hosts: rendezvous line"
grep -q "^ssh -o BatchMode=yes node08 -- .*tsunagi-node .*--rank 7 --rendezvous node01:7100" "$WORK/h.sh" || fail "hosts: rank 7 line"
echo "ok: hosts dry run"

printf 'node01\n' > "$WORK/short"
status=0
"$TSUNAGI" run "$S" --backend realnet --hosts "$WORK/short" --dry-run 2> "$WORK/short.err" || status=$?
[ "$status" -eq 2 ] || fail "short host list: exit $status, expected 2"
grep -q "names 1 hosts; the scenario has 8" "$WORK/short.err" || fail "short host list message"
echo "ok: short host list rejected: $(cat "$WORK/short.err")"

"$TSUNAGI" run "$S" --backend realnet --net slurm --dry-run --out "$WORK/s" > "$WORK/s.sh"
grep -q 'srun --nodes=1 --ntasks=1 --nodelist=\$RV' "$WORK/s.sh" || fail "slurm: rendezvous srun"
grep -q 'srun --ntasks=8 .*tsunagi-node .*--rank-env SLURM_PROCID' "$WORK/s.sh" || fail "slurm: node srun"
echo "ok: slurm dry run"

status=0
"$TSUNAGI" run "$S" --backend realnet --net carrier-pigeon --dry-run 2> "$WORK/bad.err" || status=$?
[ "$status" -eq 2 ] || fail "bad --net: exit $status"
after=$(ip netns list 2>/dev/null | wc -l || echo 0)
[ "$before" -eq "$after" ] || fail "a dry run changed the namespaces"
echo "ok: nothing was created"
