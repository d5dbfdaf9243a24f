#!/usr/bin/env bash
# End to end, offline: `gpuadvisor catalog update` against a local stand-in for AWS's price-list
# and spot-advisor hosts (tests/cli/fake_aws_pricing.py, real formats, on 127.0.0.1). The user
# catalog lives in a temporary XDG_DATA_HOME.
#  - Must show: from the embedded snapshot to the fake's newer prices; `instances` then shows
#    them, dated, with no stale warning; `catalog info` names the user catalog and its age.
#  - A second run costs one 304 per download and writes nothing.
#  - A region that fails (500 every time) while others succeed is named, keeps its old prices,
#    and the exit code is 3; 429 and a first 500 are retried.
#  - A body cut short (truncated, or slower than --timeout) keeps the region's old prices.
#  - kill -9 in the middle of a download leaves the previous catalog whole.
#  - The proxy variables are honoured (the fake plays the proxy); regions from the AWS config.
# Usage: update_test.sh PATH/TO/gpuadvisor
set -u
BIN=$(realpath "${1:?usage: update_test.sh PATH/TO/gpuadvisor}")
PY=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
T=$(mktemp -d)
fake=
cleanup() { [ -n "$fake" ] && kill "$fake" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

"$PY" "$HERE/fake_aws_pricing.py" --port-file "$T/port" --log "$T/log" --faults "$T/faults" \
  --regions us-east-1,eu-west-1,us-west-2,ca-central-1 --publication-date 2026-12-01T00:00:00Z &
fake=$!
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
[ -s "$T/port" ] || { bad "the fake did not start"; finish update_test; exit 1; }
URL=http://127.0.0.1:$(cat "$T/port")
export XDG_DATA_HOME=$T/xdg GPUADVISOR_TODAY=2026-12-04
unset AWS_REGION AWS_DEFAULT_REGION GPUADVISOR_CATALOG http_proxy https_proxy HTTP_PROXY HTTPS_PROXY \
  ALL_PROXY all_proxy NO_PROXY no_proxy
export AWS_CONFIG_FILE=$T/no-aws-config
USER_CAT=$T/xdg/gpuadvisor/catalog.json
up() { "$BIN" catalog update --endpoint "$URL" "$@"; }
requests() { grep -c "$1" "$T/log"; }
P5E='[r for r in d if r["instance_type"]=="p5.48xlarge"][0]'

# --- Before: the embedded snapshot, stale on 2026-12-04.
expect_json "embedded before" "d['catalog_in_use']['kind']=='embedded' and d['prices_stale']" catalog info --json
# --- Must show: one command, two regions, the fake's newer prices.
: >"$T/log"
up --regions us-east-1,eu-west-1 >"$T/out1.txt" 2>"$T/err1.txt"; rc=$?
[ "$rc" = 0 ] && ok || bad "first update rc=$rc: $(cat "$T/err1.txt")"
[ -f "$USER_CAT" ] && ok || bad "no user catalog at $USER_CAT"
grep -q "wrote $USER_CAT" "$T/out1.txt" && ok || bad "summary: $(cat "$T/out1.txt")"
grep -q $'\r' "$T/err1.txt" && bad "progress bar on a non-TTY" || ok
[ "$(requests ' 200 ')" = 3 ] && ok || bad "first run requests: $(cat "$T/log")"
expect_json "p5 us-east-1 from the fake" "$P5E['on_demand_usd_per_hour']==49.75 and $P5E['price_date'].startswith('2026-12-01') and $P5E['price_source']=='aws-price-list-20261201000000' and not $P5E['price_stale']" instances --gpu H100 --region us-east-1 --json
expect_json "p5 eu-west-1 from the fake" "$P5E['on_demand_usd_per_hour']==55.72" instances --gpu H100 --region eu-west-1 --json
expect_json "1y RI from the fake" "abs($P5E['reserved_1y_no_upfront_usd_per_hour']-31.10)<1e-9" instances --gpu H100 --region us-east-1 --json
# No stale warning for what the update brought (the H100 types in us-east-1).
err=$("$BIN" instances --gpu H100 --region us-east-1 2>&1 >/dev/null)
[ -z "$err" ] && ok || bad "stale warning after the update: $err"
"$BIN" instances --family p5 --region us-east-1 2>/dev/null | grep -q "49.750" && ok || bad "instances table"
# An explicit --catalog still wins; `--catalog embedded` and GPUADVISOR_CATALOG=embedded too.
expect_json "--catalog embedded" "$P5E['on_demand_usd_per_hour']==55.04" instances --gpu H100 --region us-east-1 --json --catalog embedded
GPUADVISOR_CATALOG=embedded expect_json "GPUADVISOR_CATALOG=embedded" "$P5E['on_demand_usd_per_hour']==55.04" instances --gpu H100 --region us-east-1 --json
expect_json "catalog info: user catalog" "d['catalog_in_use']['kind']=='user' and d['catalog_in_use']['path']=='$USER_CAT' and d['catalog_in_use']['price_age_days']==3 and d['catalog_in_use']['newest_price_date'].startswith('2026-12-01')" catalog info --json
"$BIN" catalog info 2>/dev/null | head -1 | grep -q "in use: the user catalog $USER_CAT.*3 days old" && ok || bad "catalog info head: $("$BIN" catalog info 2>&1 | head -2)"
# Issue 37: two regions updated, the others' figures are as old as they were: catalog info names
# the oldest figures and counts those older than --max-price-age, and the warning stays.
expect_json "catalog info after a partial update: oldest figures" "d['newest_price_date'].startswith('2026-12-01') and d['prices_stale'] and d['price_figures']['older_than_max_age']>0 and d['oldest_price_date']<'2026-09-05' and d['catalog_in_use']['oldest_price_date']==d['oldest_price_date'] and d['catalog_in_use']['oldest_price_age_days']>90 and [k for k in d['price_figures']['by_kind'] if k['kind']=='on-demand'][0]['newest_date']=='2026-12-01' and [k for k in d['price_figures']['by_kind'] if k['kind']=='on-demand'][0]['oldest']['date']<'2026-09-05'" catalog info --json
info_err=$("$BIN" catalog info 2>&1 >/dev/null)
[[ "$info_err" == *"price figures are older than 90 days"* ]] && ok || bad "no stale warning after a partial update: [$info_err]"
"$BIN" catalog info 2>/dev/null | head -1 | grep -q "oldest price 20" && ok || bad "catalog info head names no oldest price: $("$BIN" catalog info 2>&1 | head -2)"
# Spot keeps its provenance: the band is dated by the feed's Last-Modified day; the real
# negative-savings entry (p5.48xlarge, ca-central-1) is skipped for the estimate and counted.
G6E='[r for r in d["regions"] if r["region"]=="us-east-1"][0]'
expect_json "spot estimate dated by the feed" "$G6E['spot_source']=='spot-advisor-2026-12-01' and $G6E['spot_estimated'] and 'aws-price-list-20261201000000' in $G6E['spot_note']" show g6.xlarge --json
# The feed covers every region; only the regions updated are taken from it.
expect_json "spot feed kept to the regions updated" "[r for r in d['regions'] if r['region']=='us-west-2'][0]['spot_source']=='spot-advisor-2025-06'" show g6.xlarge --json
! grep -q "negative savings" "$T/out1.txt" && ok || bad "ca-central-1 taken from the feed: $(cat "$T/out1.txt")"
up --regions ca-central-1 --out "$T/ca.json" >"$T/ca.txt" 2>&1
grep -q "negative savings (spot above on-demand)" "$T/ca.txt" && ok || bad "negative savings not counted: $(cat "$T/ca.txt")"
expect_json "premium: band kept, no estimated spot" "[r for r in d['regions'] if r['region']=='ca-central-1'][0]['spot_savings_pct']==-62 and not [r for r in d['regions'] if r['region']=='ca-central-1'][0]['spot_estimated']" show p5.48xlarge --json --catalog "$T/ca.json"

# --- A second run: one request per download, each answered 304; nothing written.
cp "$USER_CAT" "$T/after1.json"
: >"$T/log"
expect_json "second run: 304s" "d['not_modified']==3 and d['requests']==3 and d['written']==False and d['bytes']==0" catalog update --endpoint "$URL" --regions us-east-1,eu-west-1 --json
[ "$(requests ' 304 ')" = 3 ] && [ "$(wc -l <"$T/log")" = 3 ] && ok || bad "second run: $(cat "$T/log")"
cmp -s "$USER_CAT" "$T/after1.json" && ok || bad "a run of 304s rewrote the catalog"

# --- Prices change (factor 0.9); eu-west-1 fails every time, us-east-1 is throttled once and
# the spot feed fails once: retried, named, exit 3, eu-west-1 keeps its prices.
printf 'eu-west-1 500 always\nus-east-1 429 1\nspot-advisor 503 1\nprice-factor 0.9\n' >"$T/faults"
: >"$T/log"
up --regions us-east-1,eu-west-1 --retries 2 --json >"$T/out3.json" 2>"$T/err3.txt"; rc=$?
[ "$rc" = 3 ] && ok || bad "partial failure rc=$rc (want 3)"
grep -q "eu-west-1: HTTP 500" "$T/err3.txt" && ok || bad "failed region not named: $(cat "$T/err3.txt")"
"$PY" -c "import json; d=json.load(open('$T/out3.json')); o={x['what']:x for x in d['outcomes']}
assert d['failed']==['eu-west-1'] and o['eu-west-1']['requests']==3 and o['us-east-1']['requests']==2
assert o['us-east-1']['result']=='updated' and o['spot-advisor']['requests']==2" && ok || bad "partial report: $(cat "$T/out3.json")"
expect_json "us-east-1 new price" "abs($P5E['on_demand_usd_per_hour']-44.775)<1e-9" instances --gpu H100 --region us-east-1 --json
expect_json "eu-west-1 kept its price" "$P5E['on_demand_usd_per_hour']==55.72" instances --gpu H100 --region eu-west-1 --json

# --- Truncated body (eu-west-1) and a body slower than --timeout (us-west-2): old prices kept.
cp "$USER_CAT" "$T/before4.json"
printf 'eu-west-1 truncate always\nus-west-2 slow always\nprice-factor 0.8\n' >"$T/faults"
up --regions eu-west-1,us-west-2 --retries 1 --timeout 2s --json >"$T/out4.json" 2>/dev/null; rc=$?
[ "$rc" = 3 ] && ok || bad "truncated/slow rc=$rc"
"$PY" -c "import json; d=json.load(open('$T/out4.json')); o={x['what']:x for x in d['outcomes']}
assert sorted(d['failed'])==['eu-west-1','us-west-2'], d['failed']
assert 'closed before the whole answer' in o['eu-west-1']['error'], o['eu-west-1']['error']
assert 'within 2 s' in o['us-west-2']['error'], o['us-west-2']['error']" && ok || bad "truncated/slow report: $(cat "$T/out4.json")"
expect_json "truncated region kept" "$P5E['on_demand_usd_per_hour']==55.72" instances --gpu H100 --region eu-west-1 --json
expect_json2 "slow region kept" "[r for r in d if r['instance_type']=='p5.48xlarge'][0]['on_demand_usd_per_hour']==[r for r in e if r['instance_type']=='p5.48xlarge'][0]['on_demand_usd_per_hour']" instances --gpu H100 --region us-west-2 --json -- instances --gpu H100 --region us-west-2 --json --catalog "$T/before4.json"

# --- kill -9 in the middle of a download: the previous catalog is whole, no temporary file.
printf 'us-east-1 slow always\nprice-factor 0.7\n' >"$T/faults"
cp "$USER_CAT" "$T/before5.json"
: >"$T/log"
"$BIN" catalog update --endpoint "$URL" --regions us-west-2,us-east-1 >/dev/null 2>&1 &
victim=$!
for _ in $(seq 100); do grep -q "us-east-1/index.csv 200" "$T/log" && break; sleep 0.1; done
sleep 0.3
kill -9 "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
grep -q "us-west-2/index.csv 200" "$T/log" && ok || bad "kill test: us-west-2 was not downloaded first: $(cat "$T/log")"
cmp -s "$USER_CAT" "$T/before5.json" && ok || bad "kill -9 changed the catalog"
"$BIN" catalog info --json >/dev/null 2>&1 && ok || bad "catalog unreadable after kill -9"
[ "$(ls -A "$T/xdg/gpuadvisor" | grep -vc '^catalog\.\(json\|update-cache\.json\)$')" = 0 ] && ok ||
  bad "left behind: $(ls -A "$T/xdg/gpuadvisor")"

# --- Proxies: with the endpoint unreachable directly, http_proxy (the fake) serves it;
# NO_PROXY naming the host sends it direct (and it fails).
: >"$T/faults"
: >"$T/log"
http_proxy=$URL expect_json "through the proxy" "d['failed']==[] and d['updated']==2" catalog update --endpoint http://pricing.fake-aws.invalid --regions us-west-2 --retries 0 --out "$T/proxied.json" --json
[ "$(grep -c ' proxy$' "$T/log")" = 2 ] && ok || bad "proxy log: $(cat "$T/log")"
http_proxy=$URL NO_PROXY=.fake-aws.invalid expect_exit "NO_PROXY bypasses" 3 "could not resolve host" catalog update --endpoint http://pricing.fake-aws.invalid --regions us-west-2 --retries 0 --out "$T/direct.json"

# --- Regions: from the AWS config, "all" from the region index, and refusals.
printf '[default]\nregion = us-west-2\n[profile b]\nregion=eu-west-1\n' >"$T/aws-config"
AWS_CONFIG_FILE=$T/aws-config expect_json "regions from ~/.aws/config" "[o['what'] for o in d['outcomes']]==['us-west-2','eu-west-1','spot-advisor']" catalog update --endpoint "$URL" --out "$T/cfg.json" --json
AWS_REGION=us-east-1 expect_json "AWS_REGION" "[o['what'] for o in d['outcomes']][0]=='us-east-1'" catalog update --endpoint "$URL" --out "$T/env.json" --json
expect_json "all regions, AWS China's too" "[o['what'] for o in d['outcomes']]==['region-index','ca-central-1','eu-west-1','us-east-1','us-west-2','cn-north-1','cn-northwest-1','spot-advisor'] and d['failed']==[]" catalog update --endpoint "$URL" --regions all --out "$T/all.json" --json
grep -q 'GET /offers/v1.0/cn/AmazonEC2/current/cn-northwest-1/index.csv 200' "$T/log" && ok || bad "China's offer file from /offers/v1.0/cn/: $(grep cn- "$T/log")"
expect_json "China's prices land in CNY" "d[0]['currency']=='CNY' and abs(d[0]['on_demand_cny_per_hour']-20.48*7)<1e-6 and d[0]['price_date']=='2026-12-01'" instances --catalog "$T/all.json" --region cn-northwest-1 --family p4d --json
: >"$T/log"
expect_json "all regions again: 304s" "d['not_modified']==8" catalog update --endpoint "$URL" --regions all --out "$T/all.json" --json
expect_exit "no region known" 2 "--regions: none given" catalog update --endpoint "$URL"
expect_exit "bad region" 2 "--regions: expected an AWS region code" catalog update --endpoint "$URL" --regions us-east-1-atl-1
expect_exit "endpoint not http" 2 "--endpoint" catalog update --endpoint file:///etc --regions us-east-1
expect_exit "unknown region at AWS" 3 "HTTP 404" catalog update --endpoint "$URL" --regions ap-south-2 --retries 0 --no-progress --out "$T/x.json"
# --catalog FILE is the catalog updated; --out elsewhere.
expect_json "--catalog FILE --out" "d['written'] and d['failed']==[]" catalog update --endpoint "$URL" --regions us-west-2 --catalog "$T/before4.json" --out "$T/from-file.json" --json --no-progress
# A progress bar on a terminal (script(1) gives a pty).
if command -v script >/dev/null 2>&1; then
  out=$(script -qec "'$BIN' catalog update --endpoint '$URL' --regions us-west-2 --out '$T/tty.json'" /dev/null 2>&1)
  [[ "$out" == *"index.csv"*"kB"* ]] && ok || bad "progress bar on a TTY: [$out]"
fi

# --- --aws: every AWS call runs the program --aws-cli names, with the global options first (a
# stand-in that notes its arguments and refuses; tests/cli/update_aws_test.py runs the real AWS
# CLI against a fake AWS): each refusal is named and the exit code is 3. The AWS CLI's options
# without --aws exit 2, naming the option.
printf '#!/bin/sh\necho "$*" >>"%s"\necho "An error occurred (AccessDeniedException): stand-in" >&2\nexit 254\n' \
  "$T/aws-cli.log" >"$T/aws-cli"
chmod +x "$T/aws-cli"
up --regions ap-south-2 --aws --aws-cli "$T/aws-cli" --profile prod --endpoint-url http://127.0.0.1:9 \
  --out "$T/aws.json" >"$T/aws.txt" 2>&1; rc=$?
[ "$rc" = 3 ] && ok || bad "--aws with every call refused: rc=$rc (want 3): $(cat "$T/aws.txt")"
head -1 "$T/aws-cli.log" | grep -q '^--output json --profile prod --endpoint-url http://127.0.0.1:9 --region us-east-1 pricing get-products --service-code AmazonEC2 --filters Type=TERM_MATCH,Field=regionCode,Value=ap-south-2 ' &&
  ok || bad "the AWS CLI's arguments: $(head -1 "$T/aws-cli.log")"
grep -q -- '--region ap-south-2 ec2 describe-spot-price-history --start-time 20[^ ]* --product-descriptions Linux/UNIX --instance-types ' "$T/aws-cli.log" &&
  ok || bad "spot history asked in the region: $(cat "$T/aws-cli.log")"
grep -q "ap-south-2 spot-price-history .*AccessDeniedException): stand-in" "$T/aws.txt" && ok ||
  bad "a refused call is named with the AWS CLI's error: $(cat "$T/aws.txt")"
expect_exit "--profile without --aws" 2 "--profile: only with --aws" catalog update --regions us-east-1 --profile prod
expect_exit "--endpoint-url without --aws" 2 "--endpoint-url: only with --aws" catalog update --regions us-east-1 --endpoint-url "$URL"
expect_exit "--aws-cli without --aws" 2 "--aws-cli: only with --aws" catalog update --regions us-east-1 --aws-cli aws
finish update_test
