# Checks shared by the command-line and realnet test scripts (sourced by their lib.sh).
fail() { echo "FAIL: $*" >&2; exit 1; }

# json_get FILE DOTTED.KEY -> the value as JSON text
json_get() {
  python3 - "$1" "$2" <<'PY'
import json, sys
value = json.load(open(sys.argv[1]))
for part in sys.argv[2].split("."):
    value = value[int(part)] if isinstance(value, list) else value[part]
print(json.dumps(value))
PY
}

expect_json() {  # FILE KEY EXPECTED
  local got
  got=$(json_get "$1" "$2")
  [ "$got" = "$3" ] || fail "$2 = $got, expected $3"
  echo "ok: $2 = $got"
}
