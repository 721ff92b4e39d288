#!/usr/bin/env bash
# `cmake --install` into a fresh prefix, then the installed program runs the teaching scenario
# from another directory, finds the realnet daemons beside itself and prints its version.
# BUILD is a build tree where everything was built (the daemons, the man page: a full build).
source "$(dirname "$0")/lib.sh"
BUILD=${BUILD:?}
prefix=$WORK/prefix
cmake --install "$BUILD" --prefix "$prefix" >"$WORK/install.txt" || {
  cat "$WORK/install.txt"
  fail "cmake --install failed"
}
for file in bin/tsunagi share/tsunagi/scenarios/teaching/two-switches.toml \
  share/tsunagi/wireshark/tsunagi.lua share/doc/tsunagi/cli.md share/doc/tsunagi/LICENSE \
  share/doc/tsunagi/CITATION.cff share/man/man1/tsunagi.1 \
  share/bash-completion/completions/tsunagi share/tsunagi/python/pyproject.toml \
  share/tsunagi/python/tsunagi/__init__.py; do
  [ -f "$prefix/$file" ] || fail "not installed: $file"
done
[ ! -e "$prefix/share/tsunagi/scenarios/src" ] || fail "the scenario loader's C++ was installed"
if [ -e "$BUILD/realnet/tsunagi-node" ]; then
  for daemon in tsunagi-node tsunagi-rendezvous tsunagi-relay tsunagi-delayline tsunagi-emulate; do
    [ -x "$prefix/bin/$daemon" ] || fail "not installed: bin/$daemon"
  done
fi
echo "ok: $(wc -l <"$WORK/install.txt") install lines, into $prefix"

mkdir "$WORK/elsewhere"
cd "$WORK/elsewhere"
"$prefix/bin/tsunagi" --version | tee "$WORK/version.txt"
grep -q "^tsunagi .* (commit " "$WORK/version.txt" || fail "installed --version has no commit"
"$prefix/bin/tsunagi" run "$prefix/share/tsunagi/scenarios/teaching/two-switches.toml" \
  --out run --quiet >"$WORK/summary.txt"
grep "^result" "$WORK/summary.txt"
expect_json run/result.json ok true
# Issue 33: the sweep plotter on the PATH, the Python package importable from the install.
[ -x "$prefix/bin/tsunagi-plot-sweep" ] || fail "not installed: bin/tsunagi-plot-sweep"
"$prefix/bin/tsunagi-plot-sweep" --help | grep -q -- "--x" || fail "tsunagi-plot-sweep --help"
PYTHONPATH=$prefix/share/tsunagi/python /usr/bin/python3 -c '
import tsunagi, sys
run = tsunagi.load("run")
assert tsunagi.__file__.startswith(sys.argv[1]), tsunagi.__file__
print("ok: tsunagi.load of the installed package:", type(run).__name__)' "$prefix" ||
  fail "the installed Python package does not load the run"
# The realnet launcher looks beside the program first: the installed daemons, not the build's.
if [ -x "$prefix/bin/tsunagi-node" ]; then
  "$prefix/bin/tsunagi" run "$prefix/share/tsunagi/scenarios/teaching/two-switches.toml" \
    --backend realnet --net loopback --dry-run --out dry >"$WORK/dry.txt"
  grep -qF "$prefix/bin/tsunagi-node" "$WORK/dry.txt" ||
    fail "the installed program does not start the installed tsunagi-node"
  echo "ok: realnet's dry run starts $prefix/bin/tsunagi-node"
fi
echo "ok: installed, and the installed program runs from another directory"
