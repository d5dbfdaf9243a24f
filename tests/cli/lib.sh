# Shared by the CLI test scripts: counters, assertions and the closing line. Source it after
# setting BIN (the binary) and PY (a python3). Optional settings:
#   JSON_PRELUDE       Python run after stdout is loaded into `d`, before the assertion
#   ONE_LINE_ERRORS=1  expect_exit also requires stderr to be one line (warnings aside)
pass=0 fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

# expect_json NAME PYTHON-EXPR ARGS...: runs the binary, loads stdout as JSON into `d`, asserts.
expect_json() {
  local name=$1 expr=$2; shift 2
  local out
  out=$("$BIN" "$@" 2>/dev/null)
  if printf '%s' "$out" | "$PY" -c "import json,sys; d=json.load(sys.stdin); ${JSON_PRELUDE:-}
sys.exit(0 if ($expr) else 1)"; then ok; else bad "$name: $* -> $expr"; fi
}

# expect_json2 NAME PYTHON-EXPR ARGS... -- ARGS2...: the same over two runs, the first's JSON in
# `d`, the second's in `e` (a rule between two commands instead of a figure from the catalog).
expect_json2() {
  local name=$1 expr=$2; shift 2
  local a=() second
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  second=$(mktemp)
  "$BIN" "$@" >"$second" 2>/dev/null
  if "$BIN" "${a[@]}" 2>/dev/null | "$PY" -c "import json,sys; d=json.load(sys.stdin); e=json.load(open(sys.argv[1]))
sys.exit(0 if ($expr) else 1)" "$second"; then ok; else bad "$name: ${a[*]} / $* -> $expr"; fi
  rm -f "$second"
}

# expect_exit NAME CODE STDERR-SUBSTRING ARGS...
expect_exit() {
  local name=$1 code=$2 needle=$3; shift 3
  local err rc lines
  err=$("$BIN" "$@" 2>&1 >/dev/null); rc=$?
  lines=$(printf '%s\n' "$err" | grep -vc warning)
  if [ "$rc" = "$code" ] && [[ "$err" == *"$needle"* ]] &&
     { [ -z "${ONE_LINE_ERRORS:-}" ] || [ "$lines" -le 1 ]; }; then ok
  else bad "$name: $* -> rc=$rc stderr=[$err], want rc=$code containing [$needle]"; fi
}

# finish NAME: the closing line; the script's exit status is 0 only when nothing failed.
finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}
