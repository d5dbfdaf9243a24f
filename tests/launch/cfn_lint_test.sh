#!/usr/bin/env bash
# CloudFormation templates from `launch` pass cfn-lint with no errors (issue 7).
# Usage: cfn_lint_test.sh GPUADVISOR_BINARY. Exit 77 (ctest SKIP) when cfn-lint is missing.
set -uo pipefail
BIN=$1
if ! command -v cfn-lint >/dev/null 2>&1 || ! cfn-lint --version >/dev/null 2>&1; then
  echo "SKIP: cfn-lint is not installed (pip install cfn-lint)"
  exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
run() {
  local name=$1
  shift
  "$BIN" launch "$@" --format cloudformation --out "$TMP/$name.yaml" 2>/dev/null || {
    echo "FAIL: launch $* exited $?"
    fail=1
    return
  }
}
run p5-spot p5.48xlarge --count 4 --purchase spot --region us-east-1
run g6 g6.xlarge --subnet-id subnet-0abc --security-group-ids sg-1 --dataset-gib 100
run trn1 trn1.32xlarge --count 2 --checkpoint-gib 50
run g5g g5g.xlarge --key-name my-key
run p6b300 p6-b300.48xlarge --count 2
run p5-cb p5.48xlarge --count 8 --purchase capacity-block --capacity-reservation-id cr-0123456789abcdef0
# One cfn-lint run over every template (it starts slowly). Exit bits: 2 = errors; 4 warnings and
# 8 informational findings are allowed.
cfn-lint --format parseable -- "$TMP"/*.yaml >"$TMP/lint.out"
if (($? & 2)); then
  echo "FAIL: cfn-lint errors:"
  cat "$TMP/lint.out"
  fail=1
fi
grep -q "nvidia_smi_utilization_gpu" "$TMP/p5-spot.yaml" || { echo "FAIL: no GPU idle alarm"; fail=1; }
grep -q "ec2:terminate" "$TMP/p5-spot.yaml" || { echo "FAIL: spot alarm must terminate"; fail=1; }
grep -q "ec2:stop" "$TMP/g6.yaml" || { echo "FAIL: on-demand alarm must stop"; fail=1; }
grep -q "PlacementGroup" "$TMP/g6.yaml" && { echo "FAIL: single node with a placement group"; fail=1; }
[ "$fail" = 0 ] && echo "ok: CloudFormation templates pass $(cfn-lint --version)"
exit $fail
