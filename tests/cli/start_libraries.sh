#!/usr/bin/env bash
# Fast start: the shared libraries a program loads before main (its NEEDED entries).
# Usage: start_libraries.sh PROGRAM [--needs LIB] [--not LIB]...   (LIB: a name prefix, libssl)
# Each --not names a library the program must not load at start; each --needs one it must (so the
# check is seen to read the entries it judges).
set -u
BIN=${1:?usage: start_libraries.sh PROGRAM [--needs LIB] [--not LIB]...}
shift
needed=$(readelf -d "$BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [ -z "$needed" ]; then
  echo "FAIL: no NEEDED entries read from $BIN"
  exit 1
fi
fail=0
while [ $# -ge 2 ]; do
  case $1 in
    --not) if grep -q "^$2" <<<"$needed"; then echo "FAIL: $BIN loads $2 at start"; fail=1; fi ;;
    --needs) if ! grep -q "^$2" <<<"$needed"; then echo "FAIL: $BIN does not load $2"; fail=1; fi ;;
    *) echo "FAIL: unknown argument $1"; exit 2 ;;
  esac
  shift 2
done
echo "$(basename "$BIN") loads at start: $(echo $needed)"
exit $fail
