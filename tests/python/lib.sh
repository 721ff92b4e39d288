# Helpers for the Python tests (tests/python/CMakeLists.txt). Each test gets TSUNAGI (the
# binary; only the tests that run it), SRC (the source tree), PYTHON (Debian's python3, where
# python3-pandas and python3-jsonschema live) and a fresh WORK directory removed on exit.
set -euo pipefail
SRC=${SRC:?}
PYTHON=${PYTHON:-python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsunagi-pytest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Exit 77 (the tests' SKIP_RETURN_CODE) when a Python module is missing: a machine without the
# Debian packages reports the test as skipped, not passed.
need_module() {
  local module=$1 package=$2
  if ! "$PYTHON" -c "import $module" 2>/dev/null; then
    echo "SKIP: $PYTHON has no module $module (Debian: apt-get install $package; tools/install-deps.sh)"
    exit 77
  fi
}
