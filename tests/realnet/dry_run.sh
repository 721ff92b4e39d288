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
grep -q "has 1 slots; the scenario has 8 hosts" "$WORK/short.err" || fail "short host list message"
echo "ok: short host list rejected: $(cat "$WORK/short.err")"

# slots=: scenario hosts fill the machines in file order (by slot, as mpirun maps ranks).
printf 'alpha slots=3   # edge1-h00..h02
beta slots=2
gamma slots=4
' > "$WORK/slots"
"$TSUNAGI" run "$S" --backend realnet --hosts "$WORK/slots" --dry-run --out "$WORK/sl" > "$WORK/sl.sh"
for r in 0 1 2; do grep -q "^ssh -o BatchMode=yes alpha -- .*tsunagi-node .*--rank $r .*--host-label edge1-h0$r" "$WORK/sl.sh" || fail "slots: rank $r not on alpha"; done
grep -q "^ssh -o BatchMode=yes beta -- .*--rank 3 .*--host-label edge1-h03" "$WORK/sl.sh" || fail "slots: rank 3 not on beta"
grep -q "^ssh -o BatchMode=yes beta -- .*--rank 4 .*--host-label edge2-h00" "$WORK/sl.sh" || fail "slots: rank 4 not on beta"
for r in 5 6 7; do grep -q "^ssh -o BatchMode=yes gamma -- .*--rank $r " "$WORK/sl.sh" || fail "slots: rank $r not on gamma"; done
grep -q "^ssh -o BatchMode=yes alpha -- .*tsunagi-rendezvous .*--listen alpha:7100" "$WORK/sl.sh" || fail "slots: rendezvous not on the first machine"
! grep -q -- "--epoch-ns" "$WORK/sl.sh" || fail "an epoch is sent to remote daemons"
[ "$(grep -c -- '--stop-on-eof' "$WORK/sl.sh")" -eq 9 ] || fail "not every ssh daemon stops at the end of its input"
echo "ok: slots= maps 8 scenario hosts onto 3 machines; no --epoch-ns; --stop-on-eof"
for bad in 'alpha slots=0' 'alpha slots=x' 'alpha cpus=4'; do
  printf 'ok1\n%s\n' "$bad" > "$WORK/bad-hosts"
  status=0
  "$TSUNAGI" run "$S" --backend realnet --hosts "$WORK/bad-hosts" --dry-run 2> "$WORK/bad-hosts.err" > /dev/null || status=$?
  [ "$status" -eq 2 ] || fail "'$bad': exit $status, expected 2"
  grep -q "bad-hosts:2: " "$WORK/bad-hosts.err" || fail "'$bad': no FILE:LINE in $(cat "$WORK/bad-hosts.err")"
done
echo "ok: bad host lines rejected with FILE:LINE: $(cat "$WORK/bad-hosts.err")"

"$TSUNAGI" run "$S" --backend realnet --net slurm --dry-run --out "$WORK/s" > "$WORK/s.sh"
grep -q 'srun --nodes=1 --ntasks=1 --overlap .*tsunagi-rendezvous .*--ready-file .*/rendezvous.addr' "$WORK/s.sh" || fail "slurm: rendezvous srun"
grep -q 'srun --ntasks=8 .*tsunagi-node .*--rank-env SLURM_PROCID .*--rendezvous-file .*/rendezvous.addr' "$WORK/s.sh" || fail "slurm: node srun"
[ "$(head -n 1 "$WORK/s.sh")" = "#!/bin/bash" ] || fail "slurm: no #!/bin/bash first"
grep -q '^#SBATCH --job-name=tsunagi-two-switches$' "$WORK/s.sh" || fail "slurm: job name"
grep -q '^#SBATCH --nodes=8$' "$WORK/s.sh" || fail "slurm: one node per scenario host"
grep -q '^#SBATCH --ntasks=8$' "$WORK/s.sh" || fail "slurm: one task per rank"
grep -q '^#SBATCH --time=11$' "$WORK/s.sh" || fail "slurm: time = --timeout 600 s + 1 min"
grep -q "^#SBATCH --output=$WORK/s/realnet/slurm.log$" "$WORK/s.sh" || fail "slurm: output"
! grep -q -- "--epoch-ns" "$WORK/s.sh" || fail "slurm: an epoch in the script"
bash -n "$WORK/s.sh" || fail "slurm: not a valid bash script"
"$TSUNAGI" run "$S" --backend realnet --net slurm --dry-run --out "$WORK/s2" --timeout 120 \
  --sbatch nodes=2 --sbatch partition=debug --sbatch time= > "$WORK/s2.sh"
grep -q '^#SBATCH --nodes=2$' "$WORK/s2.sh" || fail "slurm: --sbatch nodes=2"
grep -q '^#SBATCH --partition=debug$' "$WORK/s2.sh" || fail "slurm: --sbatch partition=debug"
! grep -q '^#SBATCH --time' "$WORK/s2.sh" || fail "slurm: --sbatch time= keeps the line"
status=0
"$TSUNAGI" run "$S" --backend realnet --net slurm --dry-run --sbatch 'no value' > /dev/null 2> "$WORK/sb.err" || status=$?
[ "$status" -eq 2 ] || fail "slurm: bad --sbatch: exit $status"
echo "ok: slurm dry run: $(grep -c '^#SBATCH' "$WORK/s.sh") #SBATCH lines, overridable"

status=0
"$TSUNAGI" run "$S" --backend realnet --net carrier-pigeon --dry-run 2> "$WORK/bad.err" || status=$?
[ "$status" -eq 2 ] || fail "bad --net: exit $status"
after=$(ip netns list 2>/dev/null | wc -l || echo 0)
[ "$before" -eq "$after" ] || fail "a dry run changed the namespaces"
echo "ok: nothing was created"
