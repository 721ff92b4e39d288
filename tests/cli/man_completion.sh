#!/usr/bin/env bash
# The man page and the bash completion generated from the command-line definitions
# (app/cli_docs.hpp): the page is roff groff renders without a warning, with every command and
# option; the script is valid bash and completes commands, options and scenario files. BUILD is
# the build tree: its share/ copies (what `cmake --install` installs) must be what the program
# prints.
source "$(dirname "$0")/lib.sh"
BUILD=${BUILD:?}
"$TSUNAGI" help --man >"$WORK/tsunagi.1"
"$TSUNAGI" help --bash-completion >"$WORK/completion.bash"
cmp "$WORK/tsunagi.1" "$BUILD/share/man/man1/tsunagi.1" || fail "build/share's man page is stale"
cmp "$WORK/completion.bash" "$BUILD/share/bash-completion/completions/tsunagi" ||
  fail "build/share's completion is stale"

for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" "SEE ALSO"; do
  grep -q "^\.SH \"\?$section\"\?$" "$WORK/tsunagi.1" || fail "man page: no section $section"
done
for command in run compare sweep collect report help; do
  grep -q "^\.SS \"tsunagi $command\"$" "$WORK/tsunagi.1" || fail "man page: no command $command"
done
grep -qF '\fB\-\-backend\fR' "$WORK/tsunagi.1" || fail "man page: no --backend"
if command -v groff >/dev/null; then
  # -ww: every warning; -z: no output, only the diagnostics.
  groff -man -Tutf8 -ww -z "$WORK/tsunagi.1" 2>"$WORK/groff.txt"
  [ ! -s "$WORK/groff.txt" ] || { cat "$WORK/groff.txt"; fail "groff warns about the man page"; }
  groff -man -Tutf8 "$WORK/tsunagi.1" 2>/dev/null | col -b >"$WORK/page.txt"
  grep -q -- "--backend" "$WORK/page.txt" || fail "rendered page: no --backend"
  echo "ok: groff renders the man page without warnings ($(wc -l <"$WORK/page.txt") lines)"
fi

bash -n "$WORK/completion.bash" || fail "the completion script is not valid bash"
# complete WORDS...: COMPREPLY for the last word, as bash would ask on <TAB>.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tsunagi
           printf "%s\n" "${COMPREPLY[@]}"' _ "$WORK/completion.bash" "$@" | sort
}
expect_completion() {  # "EXPECTED WORDS" WORDS...
  local expected=$1 got
  shift
  got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
  echo "$* <TAB> -> $got"
  [ "$got" = "$expected" ] || fail "'$*<TAB>' completes to '$got', expected '$expected'"
}
expect_completion "report run" tsunagi r
expect_completion "run" tsunagi ru
expect_completion "--backend" tsunagi run --back
expect_completion "--max" tsunagi compare a b --m
expect_completion "--bash-completion" tsunagi help --ba
expect_completion "--version" tsunagi --vers
expect_completion "sweep" tsunagi help sw
# Issue 33: an option with named choices completes to them.
expect_completion "loopback netns slurm" tsunagi run a.toml --net ""
expect_completion "simgrid" tsunagi run a.toml --backend s
expect_completion "simgrid" tsunagi sweep a.toml --backend si
expect_completion "--costs" tsunagi run a.toml --cos  # issue 32: host costs from a file
expect_completion "--costs" tsunagi sweep a.toml --cos
grep -qF '{loopback,netns,slurm}' "$WORK/tsunagi.1" || fail "man page: --net without its choices"
mkdir -p "$WORK/files/sub"
touch "$WORK/files/a.toml" "$WORK/files/b.txt"
cd "$WORK/files"
expect_completion "a.toml sub" tsunagi run ""             # SCENARIO: scenario files, folders
expect_completion "a.toml b.txt sub" tsunagi run --out "" # an option's value: any file
expect_completion "sub" tsunagi report ""                 # DIR: folders
echo "ok: the man page renders and the completion completes"
