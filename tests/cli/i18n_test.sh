#!/usr/bin/env bash
# The Chinese interface (doc/i18n.md): LANG/LC_ALL/LANGUAGE or --lang zh gives Chinese tables,
# warnings and errors; --lang en overrides the environment; the JSON answer has the same keys in
# both languages (keys and enum values are an API), only its human text differs.
# Usage: i18n_test.sh PATH/TO/gpuadvisor SOURCE_DIR
set -u
BIN=${1:?usage: i18n_test.sh PATH/TO/gpuadvisor SOURCE_DIR}
SRC=${2:?usage: i18n_test.sh PATH/TO/gpuadvisor SOURCE_DIR}
PY=${PYTHON:-python3}
export GPUADVISOR_CATALOG=embedded GPUADVISOR_TODAY=2026-01-15
unset LANGUAGE LC_ALL LC_MESSAGES LANG
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() {  # has NAME TEXT NEEDLE
  case "$2" in *"$3"*) ;; *) fail "$1: no \"$3\" in: $(printf '%s' "$2" | head -5)";; esac
}
lacks() {
  case "$2" in *"$3"*) fail "$1: unexpected \"$3\"";; *) ;; esac
}
W="$SRC/examples/medical-imaging.yaml"

zh=$(LANG=zh_CN.UTF-8 "$BIN" recommend --workload "$W" 2>&1)
has "LANG=zh_CN table header" "$zh" "实例类型"
has "LANG=zh_CN purchase" "$zh" "购买方式"
has "LANG=zh_CN why" "$zh" "理由："
has "LANG=zh_CN advice" "$zh" "建议："
lacks "LANG=zh_CN English header" "$zh" "instance type"
# Column widths count a CJK character as two columns: the rule under the header is as wide as
# the header line, in display columns.
"$PY" - "$zh" <<'PY' || fail "CJK header and rule widths differ"
import sys, unicodedata
lines = sys.argv[1].split("\n")
head = next(i for i, l in enumerate(lines) if "实例类型" in l)
w = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
rule = lines[head + 1]
cols = [len(c) for c in rule.split("  ")]
# Each header cell starts where its rule starts.
starts, at = [], 0
for n in cols:
    starts.append(at); at += n + 2
line = lines[head]
for k, s in enumerate(starts[1:], 1):
    prefix_width = 0
    for i, c in enumerate(line):
        if prefix_width >= s: break
        prefix_width += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    assert prefix_width == s, (k, s, prefix_width, line)
    assert line[i - 1] == " " and line[i - 2] == " " or k == 0, (k, line)
PY

for env in "LC_ALL=zh_CN.UTF-8" "LC_MESSAGES=zh_CN.UTF-8" "LANGUAGE=zh_CN LANG=en_US.UTF-8"; do
  out=$(env $env "$BIN" recommend --workload "$W" 2>&1)
  has "$env" "$out" "实例类型"
done
out=$("$BIN" recommend --workload "$W" --lang zh 2>&1)
has "--lang zh" "$out" "实例类型"
# A global option: before the command too.
out=$("$BIN" --lang=zh recommend --workload "$W" 2>&1)
has "--lang=zh before the command" "$out" "实例类型"
out=$("$BIN" --lang zh pricing p5.48xlarge 2>&1)
has "--lang zh before the command" "$out" "购买方式"
out=$("$BIN" --lang fr instances 2>&1); rc=$?
[ $rc = 2 ] || fail "--lang fr before the command: exit $rc"
# --lang en overrides the environment, and is byte-identical to no language at all.
en=$(LANG=zh_CN.UTF-8 "$BIN" recommend --workload "$W" --lang en 2>&1)
plain=$("$BIN" recommend --workload "$W" 2>&1)
has "--lang en" "$en" "instance type"
lacks "--lang en" "$en" "实例类型"
[ "$en" = "$plain" ] || fail "--lang en differs from the default English output"
c=$(LC_ALL=C LANGUAGE=zh "$BIN" recommend --workload "$W" 2>&1)
[ "$c" = "$plain" ] || fail "LC_ALL=C with LANGUAGE=zh is not English (GNU gettext ignores LANGUAGE then)"

# JSON: the same key paths in both languages, enum values English; human text in Chinese.
LANG=zh_CN.UTF-8 "$BIN" recommend --workload "$W" --json >/tmp/i18n_zh.$$.json 2>/dev/null
"$BIN" recommend --workload "$W" --json >/tmp/i18n_en.$$.json 2>/dev/null
"$PY" - /tmp/i18n_en.$$.json /tmp/i18n_zh.$$.json <<'PY' || fail "JSON keys differ between en and zh"
import json, sys
def paths(v, p=""):
    out = set()
    if isinstance(v, dict):
        for k, x in v.items(): out |= {p + "/" + k} | paths(x, p + "/" + k)
    elif isinstance(v, list):
        for x in v: out |= paths(x, p + "[]")
    return out
en, zh = (json.load(open(f)) for f in sys.argv[1:3])
assert paths(en) == paths(zh), sorted(paths(en) ^ paths(zh))[:10]
assert len(paths(en)) > 50
for a, b in zip(en["plans"], zh["plans"]):
    assert a["purchase"] == b["purchase"] and a["purchase"] in ("on-demand", "spot", "reserved-1y-no-upfront", "capacity-block")
    assert a["confidence"] == b["confidence"] and a["instance_type"] == b["instance_type"]
assert any("\u4e00" <= ch <= "\u9fff" for s in zh["plans"][0]["why"] for ch in s), zh["plans"][0]["why"]
assert not any("\u4e00" <= ch <= "\u9fff" for s in en["plans"][0]["why"] for ch in s)
PY
rm -f /tmp/i18n_zh.$$.json /tmp/i18n_en.$$.json

# Purchase terms and pricing options.
out=$(LANG=zh_CN.UTF-8 "$BIN" pricing p5.48xlarge --hours 100 2>&1)
has "pricing on-demand" "$out" "按需"
has "pricing spot" "$out" "竞价"
has "pricing reserved" "$out" "预留实例"
has "pricing savings plans" "$out" "节省计划"
# Errors: translated, still one line naming the flag, exit 2.
out=$(LANG=zh_CN.UTF-8 "$BIN" instances --min-gpus lots 2>&1); rc=$?
[ $rc = 2 ] || fail "bad number exit $rc"
has "bad number" "$out" "--min-gpus: 应为"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "bad number: not one line: $out"
out=$(LANG=zh_CN.UTF-8 "$BIN" instances --lang fr 2>&1); rc=$?
[ $rc = 2 ] || fail "--lang fr exit $rc"
has "--lang fr" "$out" "--lang"
out=$(LANG=zh_CN.UTF-8 "$BIN" instanses 2>&1); rc=$?
[ $rc = 2 ] || fail "unknown command exit $rc"
has "unknown command" "$out" "未知命令"
has "did you mean" "$out" "instances"

if [ "$fails" -gt 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "i18n: all checks passed"
