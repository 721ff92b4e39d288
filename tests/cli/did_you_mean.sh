#!/usr/bin/env bash
# A mistyped command or option gets exit code 2 and the word it was probably meant to be
# (app/cli_typos.hpp); an unknown word with nothing close gets the list to choose from.
source "$(dirname "$0")/lib.sh"
expect_error() {  # EXPECTED-MESSAGE ARGUMENTS...
  local expected=$1 status
  shift
  set +e
  "$TSUNAGI" "$@" >/dev/null 2>"$WORK/err.txt"
  status=$?
  set -e
  echo "tsunagi $*  ->  exit $status: $(cat "$WORK/err.txt")"
  [ $status -eq 2 ] || fail "tsunagi $*: exit $status, expected 2"
  grep -qF -- "$expected" "$WORK/err.txt" || fail "tsunagi $*: no \"$expected\""
}
expect_error "tsunagi: no command 'rnu'; did you mean 'run'?" rnu x.toml
expect_error "tsunagi: no command 'comapre'; did you mean 'compare'?" comapre a b
expect_error "tsunagi run: no option '--backnd'; did you mean '--backend'?" \
  run --backnd ns3 x.toml
expect_error "tsunagi run: no option '--seeed'; did you mean '--seed'?" \
  run "$SRC/scenarios/teaching/two-switches.toml" --seeed=3
expect_error "tsunagi compare: no option '--mx'; did you mean '--max'?" compare a b --mx 3
expect_error "tsunagi help: no command 'rnu'; did you mean 'run'?" help rnu
expect_error "tsunagi: no command 'frobnicate'; commands: run, compare, sweep, collect, report" \
  frobnicate
expect_error "tsunagi run: no option '--frobnicate' (tsunagi run --help lists them)" \
  run x.toml --frobnicate
# Known words with a bad value keep CLI11's own message.
expect_error "--max" compare a b --max many
echo "ok: mistyped commands and options get a suggestion"
