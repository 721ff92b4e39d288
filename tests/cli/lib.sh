# Helpers for the command-line tests. Each test gets TSUNAGI (the binary), SRC (the source
# tree) and a fresh WORK directory that is removed on exit, also after a failure.
set -euo pipefail
TSUNAGI=${TSUNAGI:?}
SRC=${SRC:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsunagi-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"


