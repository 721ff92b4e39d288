# Fixture of the realnet tests: snapshot (first argument "save") and check ("check") of the
# host-wide settings around all of them (issue 15: "the same before and after the test suite").
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/host_settings_lib.sh"
file=${HOST_SETTINGS_FILE:?}
case $1 in
  save) host_settings > "$file"; cat "$file" ;;
  check)
    [ -f "$file" ] || { echo "SKIP: no snapshot (realnet:host_settings_saved did not run)"; exit $SKIP; }
    expect_host_settings "$file" "across the realnet tests" ;;
esac
