#!/usr/bin/env bash
# End-to-end checks of the gpuadvisor binary against its documented contract (README.md,
# doc/formats.md): JSON shapes, figures a user would verify, filters, exit codes and error
# messages. Usage: cli_test.sh PATH/TO/gpuadvisor
set -u
BIN=${1:?usage: cli_test.sh PATH/TO/gpuadvisor}
PY=${PYTHON:-python3}
ONE_LINE_ERRORS=1
source "$(dirname "$0")/lib.sh"

F='d[0]'
expect_json2 "instances count" 'len(d)==len({r["instance_type"] for r in d})==len([r for r in e if r["region"]=="us-east-1" and not r["retired"]])>0 and not any(r["retired"] for r in d)' instances --format json -- instances --region all --json
expect_json "contract fields" 'all(k in r for r in d for k in ["instance_type","family","retired","region","accelerator","vcpus","memory_gib","network_gbps","efa","local_nvme_gb","on_demand_usd_per_hour","spot_usd_per_hour","usd_per_gpu_hour","price_source","price_date"]) and all(k in r["accelerator"] for r in d for k in ["kind","vendor","model","count","logical_count","memory_mib_each","memory_gib_total"])' instances --json
# Prices are the catalog's (rebuilt from new sources now and then): rules, not figures. The
# listing's price is the one `show` gives for the same type and region.
expect_json2 "p5 price" '[r for r in d if r["instance_type"]=="p5.48xlarge"][0]["on_demand_usd_per_hour"]==[r for r in e["regions"] if r["region"]=="us-east-1"][0]["on_demand_usd_per_hour"]>0' instances --json -- show p5.48xlarge --json
expect_json "p5 gpus" 'any(r["instance_type"]=="p5.48xlarge" and r["accelerator"]["count"]==8 and r["accelerator"]["memory_mib_each"]==81920 and r["efa"] for r in d)' instances --json
expect_json "per GPU price" 'all(abs(r["usd_per_gpu_hour"]*r["accelerator"]["count"]-r["on_demand_usd_per_hour"])<1e-3*r["on_demand_usd_per_hour"] for r in d if r["usd_per_gpu_hour"] and not r["accelerator"].get("fractional"))' instances --json
expect_json "g6f fractional" 'any(r["instance_type"]=="g6f.large" and r["accelerator"]["fractional"] and r["accelerator"]["model"]=="L4" and r["accelerator"]["count"]==0.125 and r["accelerator"]["logical_count"]==1 for r in d)' instances --json
expect_json "no retired by default" 'not any(r["retired"] for r in d)' instances --json
expect_json "include retired" 'any(r["instance_type"].startswith("p3.") and r["retired"] for r in d)' instances --json --include-retired
expect_json "L4 min 4" 'len(d)>0 and all(r["accelerator"]["model"]=="L4" and r["accelerator"]["count"] in (4,8) for r in d)' instances --gpu L4 --min-gpus 4 --json
expect_json "efa filter" 'len(d)>0 and all(r["efa"] for r in d)' instances --efa --json
# Unknown figures (null: an UltraServer's vCPUs) sort last.
expect_json "sort desc" '[r["vcpus"] for r in d]==sorted([r["vcpus"] for r in d if r["vcpus"] is not None], reverse=True)+[None]*sum(r["vcpus"] is None for r in d)' instances --sort vcpus:desc --json
expect_json "limit" 'len(d)==3' instances --limit 3 --json
expect_json2 "region all" '1<len({x["region"] for x in e["regions"] if x["on_demand_usd_per_hour"]}) and {x["region"] for x in e["regions"] if x["on_demand_usd_per_hour"]}<={r["region"] for r in d if r["instance_type"]=="p5.48xlarge"}' instances --region all --json -- show p5.48xlarge --json
expect_json "max price" 'len(d)>0 and all(r["on_demand_usd_per_hour"]<=1 for r in d)' instances --max-price 1 --json
# Every `instances` filter, one row each: the rows it keeps satisfy it, and it keeps fewer than
# no filter does (an ignored option keeps them all). Add a row with each new filter.
all_rows=$("$BIN" instances --json 2>/dev/null | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')
while IFS='|' read -r opts rule; do
  # shellcheck disable=SC2086  # opts are words
  expect_json "instances $opts" "0<len(d)<$all_rows and all($rule for r in d)" instances $opts --json
done <<'EOF_FILTERS'
--region eu-west-1|r["region"]=="eu-west-1"
--gpu L4|r["accelerator"]["model"]=="L4"
--family g6e|r["family"]=="g6e"
--min-gpus 4|r["accelerator"]["count"]>=4
--max-gpus 1|r["accelerator"]["count"]<=1
--min-gpu-memory 40|r["accelerator"]["memory_mib_each"]>=40*1024
--min-total-gpu-memory 300|r["accelerator"]["memory_gib_total"]>=300
--max-price 2|r["on_demand_usd_per_hour"]<=2
--max-price 2 --purchase spot|r["spot_usd_per_hour"] is not None and r["spot_usd_per_hour"]<=2
--efa|r["efa"]
--gpus-only|r["accelerator"]["kind"]=="gpu"
--limit 4|len(d)==4
EOF_FILTERS
expect_json "show regions" 'd["instance_type"]=="p5.48xlarge" and len(d["regions"])>5 and d["gpu_spec"]["bf16_tflops"]==989.5 and all("on_demand_usd_per_hour" in r and "spot_interruption_band" in r for r in d["regions"])' show p5.48xlarge --json
expect_json "show trn2 memory" 'd["accelerator"]["memory_mib_each"]==98304' show trn2.48xlarge --json
expect_json "gpus" 'any(g["model"]=="H100" and g["bf16_tflops"]==989.5 and "p5.48xlarge" in g["instance_types"] and g["cheapest_on_demand"]["usd_per_gpu_hour"]>0 for g in d) and all(k in g for g in d for k in ["model","vendor","memory_gib","bf16_tflops","fp64_tflops","memory_bw_gbps","instance_types","cheapest_on_demand","cheapest_spot"])' gpus --json
# --include-retired adds the models found only on retired types (or on none), strictly more.
# FP16 and INT8 tensor figures (issue 29: the guide's T4 and V100 showed none): the table's
# columns carry the datasheet's dense figures, the same as the JSON's.
gpus_csv=$("$BIN" gpus --include-retired --format csv 2>/dev/null)
if printf '%s' "$gpus_csv" | "$PY" -c '
import csv, sys
rows = {r["model"].rstrip("*"): r for r in csv.DictReader(sys.stdin)}
ok = (rows["T4"]["FP16 TFLOP/s"] == "65.0" and rows["T4"]["INT8 TOPS"] == "130.0"
      and rows["V100-32GB"]["FP16 TFLOP/s"] == "125.0" and rows["V100-32GB"]["INT8 TOPS"] == ""
      and rows["H100"]["FP16 TFLOP/s"] == "989.5" and rows["H100"]["INT8 TOPS"] == "1979.0")
sys.exit(0 if ok else 1)'; then ok; else bad "gpus FP16/INT8 columns"; fi
expect_json "gpus fp16 json" 'any(g["model"]=="T4" and g["fp16_tflops"]==65 and g["int8_tops"]==130 for g in d)' gpus --json
expect_json2 "gpus include retired" 'len(d)>len(e) and {g["model"] for g in e}<{g["model"] for g in d} and all(not set(g["instance_types"])&{t for x in e for t in x["instance_types"]} for g in d if g["model"] not in {x["model"] for x in e})' gpus --include-retired --json -- gpus --json
# `models` (issue 29): every preset with its tasks, size, shape and source; each listed task is
# one estimate accepts for that preset, and each preset name is one --model accepts.
expect_json "models" 'len(d)>=40 and len({m["name"] for m in d})==len(d) and all(m["tasks"] and m["params"]>0 and m["source"] and m["family"] for m in d) and [m for m in d if m["name"]=="llama-3.1-8b"][0]["layers"]==32 and [m for m in d if m["name"]=="llama-3.1-8b"][0]["hidden"]==4096 and 8.0e9<[m for m in d if m["name"]=="llama-3.1-8b"][0]["params"]<8.1e9 and [m for m in d if m["name"]=="unet3d"][0]["tasks"]==["train-vision","infer-vision"] and [m for m in d if m["name"]=="unet3d"][0]["layers"] is None and [m for m in d if m["name"]=="mixtral-8x7b"][0]["active_params"]<[m for m in d if m["name"]=="mixtral-8x7b"][0]["params"]' models --json
models_csv=$("$BIN" models --format csv 2>/dev/null)
if printf '%s' "$models_csv" | "$PY" -c '
import csv, json, subprocess, sys
rows = list(csv.DictReader(sys.stdin))
d = json.loads(subprocess.run([sys.argv[1], "models", "--json"], capture_output=True, text=True).stdout)
llama = [r for r in rows if r["model"] == "llama-3.1-8b"][0]
ok = ([r["model"] for r in rows] == [m["name"] for m in d] and llama["tasks"].endswith("serve")
      and llama["params"] == "8.03B" and llama["source"] == "meta-llama/Llama-3.1-8B config.json")
sys.exit(0 if ok else 1)' "$BIN"; then ok; else bad "models csv"; fi
"$BIN" models --format markdown | head -1 | grep -q '^| model | family | tasks |' && ok || bad "models markdown"
# Every listed preset and task runs: the first listed task of each preset, with the least input.
while IFS=' ' read -r name task; do
  case $task in
    train-vision|infer-vision) extra=(--images 1000) ;;
    serve) extra=(--input-tokens 64 --output-tokens 16) ;;
    *) extra=(--tokens 1B) ;;
  esac
  "$BIN" estimate --task "$task" --model "$name" "${extra[@]}" --gpu H100 --json >/dev/null 2>&1 &&
    ok || bad "models: $name takes $task"
done < <("$BIN" models --json | "$PY" -c 'import json,sys
for m in json.load(sys.stdin): print(m["name"], m["tasks"][0])')

expect_json2 "catalog info counts" 'd["counts"]["current"]==len({r["instance_type"] for r in e if not r["retired"]}) and d["counts"]["retired"]==len({r["instance_type"] for r in e if r["retired"]}) and d["counts"]["current"]>0 and d["counts"]["retired"]>0 and d["counts"]["instance_types"]==d["counts"]["current"]+d["counts"]["retired"] and len(d["sources"])>=5 and all("snapshot_date" in s for s in d["sources"])' catalog info --json -- instances --include-retired --region all --json
expect_json "stale flag" 'd["prices_stale"] is True' catalog info --json --max-price-age 30
expect_json "fresh flag" 'd["prices_stale"] is False' catalog info --json --max-price-age 100000
# Issue 37: staleness per figure, by kind, each kind's oldest dated figure named.
expect_json "catalog info figures by kind" '[k["kind"] for k in d["price_figures"]["by_kind"]]==["on-demand","spot","reserved","savings-plan","capacity-block"] and sum(k["figures"] for k in d["price_figures"]["by_kind"])==d["price_figures"]["figures"]>0 and all(k["oldest"]["date"]<=k["newest_date"] and k["oldest"]["source"] and k["oldest"]["instance_type"] for k in d["price_figures"]["by_kind"] if k["figures"]>k["undated"]) and d["oldest_price_date"]==min(k["oldest"]["date"] for k in d["price_figures"]["by_kind"] if k["oldest"]) and d["price_figures"]["older_than_max_age"]==sum(k["older_than_max_age"] for k in d["price_figures"]["by_kind"])>0' catalog info --json --max-price-age 30
# One bound for --max-price-age, the declaration's, with its message (issue 24: three bounds
# disagreed and 2000000 got "expected a non-negative number").
expect_exit "max-price-age bound" 2 "--max-price-age: expected a whole number from 0 to 100000, got \"2000000\"" instances --max-price-age 2000000

expect_exit "bad number" 2 "--min-gpus" instances --min-gpus abc
expect_exit "unknown type" 2 "did you mean p5.48xlarge" show p5.48xlarg
expect_exit "unknown region" 2 "did you mean us-east-1" instances --region us-est-1
expect_exit "unknown flag" 2 "unknown parameter \"--min-gpu\"; did you mean min-gpus" instances --min-gpu 4
expect_exit "unknown gpu" 2 "unknown GPU" instances --gpu H10O
expect_exit "unknown sort" 2 "--sort" instances --sort price
expect_exit "unknown command" 2 "did you mean instances" instanses
expect_exit "nothing found" 1 "no instance type matches" instances --gpu H100 --max-price 1
# A family sold elsewhere says where (issue 29), with the region to try, which then matches.
trn2_err=$("$BIN" instances --family trn2 --region eu-west-1 2>&1 >/dev/null); trn2_rc=$?
try=$(printf '%s' "$trn2_err" | sed -n 's/.*(try --region \([a-z0-9-]*\)).*/\1/p')
[ "$trn2_rc" = 1 ] && [[ "$trn2_err" == *"no instance type matches these filters in eu-west-1; trn2."*" in "* ]] && [ -n "$try" ] &&
  "$BIN" instances --family trn2 --region "$try" --json 2>/dev/null | "$PY" -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d and all(r["family"]=="trn2" for r in d) else 1)' &&
  ok || bad "family offered elsewhere: rc=$trn2_rc [$trn2_err] try=$try"
expect_exit "bad catalog" 3 "cannot open" instances --catalog /nonexistent/catalog.json

# estimate: the contract object for every task, ground truths a user would check, bad input.
E='all(k in d for k in ["hardware","parallelism","memory","performance","flops","time","cost","uncertainty","assumptions"])'
expect_json "estimate pretrain" "$E"' and d["memory"]["fits"] and d["time"]["hours"]>0 and d["cost"]["on_demand_usd"]>0 and d["uncertainty"]["low"]<d["time"]["hours"]<d["uncertainty"]["high"] and d["parallelism"]["tp"]>=1 and d["performance"]["ttft_ms"] is None' estimate --task pretrain --model llama-3.1-8b --tokens 100B --instance p5.48xlarge --count 2 --json
expect_json "estimate finetune" "$E"' and d["task"]=="finetune" and d["time"]["hours"]>0' estimate --task finetune --model mistral-7b --tokens 100M --epochs 2 --instance p4d.24xlarge --json
expect_json "estimate lora" "$E"' and d["memory"]["optimizer_gib"]<1' estimate --task lora --model llama-3.1-8b --tokens 20M --instance g6e.2xlarge --json
expect_json "estimate serve" "$E"' and d["performance"]["ttft_ms"]>0 and d["performance"]["itl_ms"]>0 and d["performance"]["max_concurrency"]>=1 and d["memory"]["kv_cache_gib"]>0 and d["memory"]["gradients_gib"] is None and d["parallelism"]["zero"] is None' estimate --task serve --model llama-3.1-8b --instance g6e.xlarge --concurrency 8 --json
expect_json "estimate train-vision" "$E"' and d["performance"]["images_per_s"]>0 and d["performance"]["tokens_per_s"] is None and d["memory"]["kv_cache_gib"] is None' estimate --task train-vision --model resnet50 --images 1.28M --epochs 90 --instance p4d.24xlarge --json
expect_json "estimate infer-vision" "$E"' and d["performance"]["images_per_s"]>0' estimate --task infer-vision --model vit-b16 --images 1M --instance g6.xlarge --json
expect_json "estimate hpc" "$E"' and d["precision"]=="fp64" and d["time"]["hours"]>0 and d["memory"]["working_set_gib"]>0 and d["memory"]["activations_gib"] is None' estimate --task hpc --fp64-flop 1e18 --working-set-gib 30 --instance p5.48xlarge --json
expect_json "estimate transcode" "$E"' and d["performance"]["streams_per_gpu"]>0 and d["precision"] is None' estimate --task transcode --streams 100 --codec hevc --instance g6.12xlarge --json
expect_json "estimate render" "$E"' and d["performance"]["sessions_per_gpu"]>0' estimate --task render --sessions 10 --instance g6e.12xlarge --json
expect_json "estimate analytics" "$E"' and d["performance"]["scan_time_s"]>0' estimate --task analytics --dataset-gib 100 --instance p4de.24xlarge --json
# --count N instances of the type; --region prices it there, at the price `show` gives.
expect_json "estimate count" 'd["hardware"]["instances"]==2 and d["hardware"]["gpus"]==16' estimate --task serve --model llama-3.1-8b --instance p5.48xlarge --count 2 --json
REG=$("$BIN" show p5.48xlarge --json 2>/dev/null | "$PY" -c 'import json,sys; print([r["region"] for r in json.load(sys.stdin)["regions"] if r["region"]!="us-east-1" and r["on_demand_usd_per_hour"]][0])')
expect_json2 "estimate region" "d['cost']['region']=='$REG' and d['cost']['on_demand_usd_per_hour']==[r for r in e['regions'] if r['region']=='$REG'][0]['on_demand_usd_per_hour']>0" estimate --task serve --model llama-3.1-8b --instance p5.48xlarge --region "$REG" --json -- show p5.48xlarge --json
expect_json "llama-3.1-8b KV 128 KiB/token" 'd["memory"]["kv_cache_kib_per_token"]==128' estimate --task serve --model llama-3.1-8b --gpu H100 --json
expect_json "70B fp16 does not fit one 80 GB GPU" 'd["memory"]["fits"] is False and d["memory"]["weights_gib"]>120' estimate --task serve --model llama-2-70b --gpu A100-80GB --json
expect_json "70B fp16 fits four" 'd["memory"]["fits"] is True' estimate --task serve --model llama-2-70b --gpu A100-80GB --gpus 4 --json
expect_json "QLoRA 70B fits 48 GB" 'd["memory"]["fits"] is True and d["memory"]["total_gib"]<=d["memory"]["device_gib"]' estimate --task qlora --model llama-2-70b --tokens 10M --gpu L40S --json
expect_json "Adam 16 B/param" 'abs((d["memory"]["weights_gib"]+d["memory"]["gradients_gib"]+d["memory"]["optimizer_gib"])*2**30/d["model"]["params_total"]-16)<0.01' estimate --task pretrain --model llama-3.1-8b --tokens 1B --gpu H100 --zero 0 --json
# Issue 23: ZeRO-3 shards the frozen base of a LoRA run as well: 1/8 of the 16-bit base per GPU.
expect_json "LoRA 70B ZeRO-3 on 8 A100 fits" 'd["memory"]["fits"] and abs(d["memory"]["weights_gib"]-d["model"]["params_total"]*2/2**30/8)<0.5 and d["memory"]["allocated_gib"]<=d["memory"]["reserved_gib"]<=d["memory"]["total_gib"]<=d["memory"]["device_gib"]' estimate --task lora --model llama-3.1-70b --gpu A100-80GB --gpus 8 --zero 3 --tokens 1B --json
expect_json "LoRA 70B FSDP over 8, full recompute (torchtune 27.6 GiB)" 'd["parallelism"]["dp"]==8 and 24<d["memory"]["allocated_gib"]<31' estimate --task lora --model llama-3.1-70b --gpu A100-80GB --gpus 8 --zero 3 --tokens 1B --tp 1 --pp 1 --micro-batch 2 --recompute full --json
expect_json "bands" 'any(b["metric"]=="cost.on_demand_usd" and b["low"]<d["cost"]["on_demand_usd"]<b["high"] for b in d["uncertainty"]["bands"]) and any(b["metric"]=="performance.tokens_per_s" and b["low"]<d["performance"]["tokens_per_s"]<b["high"] for b in d["uncertainty"]["bands"])' estimate --task pretrain --model llama-3.1-8b --tokens 10B --instance p5.48xlarge --json
expect_json "provenance" 'd["cost"]["on_demand_source"] and d["cost"]["on_demand_date"] and d["cost"]["region"]=="us-east-1"' estimate --task serve --model llama-3.1-8b --instance g6e.xlarge --json
expect_json "fractional g6f" 'd["hardware"]["device_fraction"]==0.125 and d["memory"]["device_gib"]<3 and d["memory"]["fits"] is False' estimate --task serve --model llama-3.1-8b --instance g6f.large --json
expect_json "explicit parallelism" 'd["parallelism"]["tp"]==2 and d["parallelism"]["pp"]==2 and d["parallelism"]["dp"]==4 and d["parallelism"]["chosen"] is False' estimate --task pretrain --model llama-3.1-8b --tokens 1B --gpu H100 --gpus 16 --tp 2 --pp 2 --dp 4 --zero 1 --micro-batch 1 --recompute none --json
expect_json "mfu override" 'abs(d["performance"]["mfu"]-0.3)<0.05' estimate --task pretrain --model llama-3.1-8b --tokens 1B --gpu H100 --gpus 8 --mfu 0.3 --json
wl=$(mktemp -d); trap 'rm -rf "$wl"' EXIT
printf 'task: serve\nmodel: llama-3.1-8b\ninput-tokens: 1000\noutput-tokens: 200\n' >"$wl/ok.yaml"
printf 'task: serve\nmodel: llama-3.1-8b\ninput-tokens: abc\n' >"$wl/bad.yaml"
printf 'task: serve\nmodel: llama-3.1-8b\n  bad indent: [\n' >"$wl/broken.yaml"
printf '{"task": "serve", "model": "llama-3.1-8b", "output-tokens": -3}' >"$wl/bad.json"
expect_json "workload file" 'd["task"]=="serve" and d["performance"]["itl_ms"]>0' estimate --workload "$wl/ok.yaml" --gpu L4 --json
expect_json "flag over file" 'd["memory"]["kv_cache_kib_per_token"]==64' estimate --workload "$wl/ok.yaml" --kv-precision fp8 --gpu L4 --json
out=$("$BIN" estimate --workload - --gpu L4 --json <"$wl/ok.yaml" 2>/dev/null) && [[ "$out" == *'"itl_ms"'* ]] && ok || bad "workload from stdin"
expect_exit "negative tokens" 2 "tokens: expected a positive number" estimate --task pretrain --model llama-3.1-8b --tokens -5 --gpu H100
# Estimating on a retired type, or one not offered in the region, says so (issue 29: p3 was
# priced in us-east-1 without a word); an offered current type gets neither line.
p3_err=$("$BIN" estimate --task serve --model llama-3.2-1b --instance p3.2xlarge 2>&1 >/dev/null)
[[ "$p3_err" == *"p3.2xlarge is not offered in us-east-1; it is offered in "* && "$p3_err" == *"p3.2xlarge is retired ("* ]] && ok || bad "estimate on retired p3: [$p3_err]"
p5_err=$("$BIN" estimate --task serve --model llama-3.2-1b --instance p5.48xlarge 2>&1 >/dev/null)
[[ "$p5_err" != *"is retired"* && "$p5_err" != *"not offered"* ]] && ok || bad "estimate on p5: [$p5_err]"
# The retired line names what takes its place; JSON (and so HTTP and Python) carries the lines.
[[ "$p3_err" == *"p3.2xlarge is retired ("*"in its place (us-east-1): p3dn.24xlarge (same GPU)"* ]] && ok || bad "estimate names p3's successors: [$p3_err]"
expect_json "estimate warnings in JSON" 'any(w.startswith("p3.2xlarge is not offered in us-east-1; it is offered in ") for w in d["warnings"]) and any("is retired" in w and "in its place" in w for w in d["warnings"])' estimate --task serve --model llama-3.2-1b --instance p3.2xlarge --json
expect_json "no type warnings for p5" 'not any("is retired" in w or "not offered" in w for w in d["warnings"])' estimate --task serve --model llama-3.2-1b --instance p5.48xlarge --json
# launch and pricing say the same of a retired type (one function).
p3_offered=$(printf '%s' "$p3_err" | sed -n 's/.*(try --region \([a-z0-9-]*\)).*/\1/p' | head -1)
launch_err=$("$BIN" launch p3.2xlarge --region "$p3_offered" 2>&1 >/dev/null)
[[ "$launch_err" == *"p3.2xlarge is retired ("*"AWS no longer launches it; "* ]] && ok || bad "launch on retired p3: [$launch_err]"
[[ "$("$BIN" launch p5.48xlarge 2>&1 >/dev/null)" != *"is retired"* ]] && ok || bad "launch on p5 says nothing of retirement"
pricing_out=$("$BIN" pricing p3.2xlarge --region "$p3_offered" 2>&1)
[[ "$pricing_out" == *"p3.2xlarge is retired ("* ]] && ok || bad "pricing on retired p3: [$pricing_out]"
[[ "$("$BIN" pricing p5.48xlarge 2>&1)" != *"is retired"* ]] && ok || bad "pricing on p5 says nothing of retirement"
# CSV keys are the bare type names (issue 29: "p3.2xlarge (retired)" was written as the key);
# retired rows say so in their own column.
retired_csv=$("$BIN" instances --gpu V100 --include-retired --format csv 2>/dev/null)
if printf '%s' "$retired_csv" | "$PY" -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
ok = (rows and all("(" not in r["instance type"] for r in rows)
      and {r["status"] for r in rows if r["instance type"].startswith("p3.")} == {"retired"}
      and {r["status"] for r in rows if r["instance type"].startswith("p3dn.")} == {"current"})
sys.exit(0 if ok else 1)'; then ok; else bad "instances csv keys: $retired_csv"; fi
"$BIN" instances --gpu H100 --format csv 2>/dev/null | head -1 | grep -qv status && ok || bad "no status column without retired rows"
# Retired types name what takes their place (issue 29: p3 named no successor), by rule: the same
# GPU line, then the cheapest current type with at least the devices, memory and 16-bit tensor
# figures (single node), then the same with EFA and 8+ devices (multi-node). Checked by the rule,
# not the names, so a catalog refresh may change the picks but not break them.
if "$BIN" show p3.2xlarge --json 2>/dev/null | "$PY" -c '
import json, subprocess, sys
d = json.load(sys.stdin)
rows = {r["instance_type"]: r for r in json.loads(subprocess.run([sys.argv[1], "instances", "--json"], capture_output=True, text=True).stdout)}
gpus = {g["model"]: g for g in json.loads(subprocess.run([sys.argv[1], "gpus", "--json"], capture_output=True, text=True).stdout)}
s = {x["use"]: x["instance_type"] for x in d["successors"]}
def t16(r): g = gpus.get(r["accelerator"]["model"], {}); return g.get("fp16_tflops") or g.get("bf16_tflops") or 0
def fits(r): return r["accelerator"]["count"] >= 1 and (r["accelerator"]["memory_mib_each"] or 0) >= 16384 and t16(r) >= 125 and r["accelerator"]["kind"] == "gpu"
single, multi = rows[s["single node"]], rows[s["multi-node"]]
ok = (rows[s["same GPU"]]["accelerator"]["model"].startswith("V100") and fits(single)
      and all((r["on_demand_usd_per_hour"] or 1e9) >= single["on_demand_usd_per_hour"] for r in rows.values() if fits(r))
      and fits(multi) and multi["efa"] and multi["accelerator"]["count"] >= 8
      and all((r["on_demand_usd_per_hour"] or 1e9) >= multi["on_demand_usd_per_hour"] for r in rows.values() if fits(r) and r["efa"] and r["accelerator"]["count"] >= 8))
sys.exit(0 if ok else 1)' "$BIN"; then ok; else bad "p3 successors"; fi
v100_err=$("$BIN" instances --gpu V100 --include-retired 2>&1 >/dev/null)
[[ "$v100_err" == *"p3.2xlarge is retired; in its place (us-east-1): p3dn.24xlarge (same GPU), "*"(single node), "*"(multi-node)"* ]] && ok || bad "instances names p3's successors: [$v100_err]"
"$BIN" show p3.2xlarge 2>/dev/null | grep -q "^in its place (us-east-1) .*p3dn.24xlarge (same GPU)" && ok || bad "show names p3's successors"
expect_json "current types have no successors" 'd["successors"]==[]' show p5.48xlarge --json
expect_exit "show non-accelerator type" 2 '"m5.large" is not a GPU or ML-accelerator instance type' show m5.large
expect_exit "unknown preset" 2 "unknown preset \"llama-9\"" estimate --task serve --model llama-9 --gpu H100
expect_exit "unknown preset names models" 2 "(\`gpuadvisor models\` lists the presets)" estimate --task serve --model no-such-model --gpu H100
expect_exit "heads divide hidden" 2 "heads: 30 does not divide hidden 4096" estimate --task pretrain --layers 32 --hidden 4096 --heads 30 --vocab 32000 --tokens 1B --gpu H100
expect_exit "yaml field line" 2 "bad.yaml:3: input-tokens" estimate --workload "$wl/bad.yaml" --gpu H100
expect_exit "yaml syntax line" 2 "broken.yaml:3:" estimate --workload "$wl/broken.yaml" --gpu H100
expect_exit "json field" 2 "output-tokens" estimate --workload "$wl/bad.json" --gpu H100
expect_exit "no bf16 on V100" 2 "no BF16" estimate --task pretrain --model llama-3.1-8b --tokens 1B --gpu V100 --precision bf16
expect_exit "no fp8 on A100" 2 "no FP8" estimate --task pretrain --model llama-3.1-8b --tokens 1B --gpu A100-80GB --precision fp8
expect_exit "no NVENC on H100" 2 "no NVENC" estimate --task transcode --streams 10 --instance p5.48xlarge
expect_exit "no hardware" 2 "--instance TYPE" estimate --task serve --model llama-3.1-8b
expect_exit "gpus vs instance" 2 "--gpus" estimate --task serve --model llama-3.1-8b --instance p5.48xlarge --gpus 4
expect_exit "unknown instance" 2 "did you mean" estimate --task serve --model llama-3.1-8b --instance p5.48xlarg
expect_exit "missing config" 3 "cannot open" estimate --task serve --model-config /nonexistent/config.json --gpu H100
# Hugging Face configs and ids (issue 15): never miscounted, refused with one line, exit 2.
HF="$(dirname "$0")/../workload/fixtures/hf"
expect_json "DeepSeek-V3 MLA KV ~70 KB/token" 'abs(d["memory"]["kv_cache_kib_per_token"]*1024/70e3-1)<0.1 and abs(d["model"]["params_total"]/671e9-1)<0.01' estimate --task serve --model-config "$HF/deepseek_v3.json" --gpu H200 --gpus 8 --quantization fp8 --json
expect_json "gpt-oss-120b MXFP4 fits one H100" 'd["memory"]["fits"] and abs(d["model"]["params_total"]/116.83e9-1)<0.001' estimate --task serve --model-config "$HF/gpt_oss_120b.json" --gpu H100 --concurrency 1 --json
expect_json "HF id -> preset" 'd["model"]["name"]=="llama-3.1-8b" and any("Hugging Face id read as preset llama-3.1-8b" in a for a in d["assumptions"])' estimate --task serve --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --json
expect_json "HF id as model-config" 'd["model"]["name"]=="mixtral-8x7b"' estimate --task serve --model-config mistralai/Mixtral-8x7B-v0.1 --gpu H100 --gpus 2 --json
expect_exit "unknown HF id" 2 "did you mean llama-3.1-8b" estimate --task serve --model someone/Llama-3.1-8B-finetuned --gpu H100
expect_exit "unknown model_type" 2 "model_type: \"falcon\" is not supported (supported: bert," estimate --task serve --model-config "$HF/falcon_7b.json" --gpu H100
expect_exit "missing model_type" 2 "model_type: missing" estimate --task serve --model-config "$HF/no_model_type.json" --gpu H100
expect_exit "unknown MoE key" 2 "num_experts: not modelled for model_type llama" estimate --task serve --model-config "$HF/llama_with_experts.json" --gpu H100
"$BIN" estimate --task serve --model-config "$HF/llama_unknown_key.json" --gpu H100 2>&1 >/dev/null | grep -q 'warning: .*keys not understood.*cross_attention_layers' && ok || bad "unknown size key warned"
expect_exit "serve past the window" 2 "output-tokens: 4000 input + 200 output tokens exceed the model's context window of 4096" estimate --task serve --model llama-2-7b --input-tokens 4000 --output-tokens 200 --gpu H100
expect_exit "prompt past the window" 2 "input-tokens: 140000 exceeds" estimate --task serve --model-config "$HF/qwen2.5_7b_instruct_yarn.json" --input-tokens 140000 --gpu H100
"$BIN" estimate --task serve --model llama-2-7b --input-tokens 4000 --output-tokens 200 --context-length 8192 --gpu H100 >/dev/null 2>&1 && ok || bad "--context-length overrides the window"
"$BIN" estimate --task finetune --model llama-2-7b --seq-len 8192 --tokens 10M --gpu H100 --gpus 8 2>&1 >/dev/null | grep -q 'warning: seq-len 8192 exceeds' && ok || bad "training past the window warns"
"$BIN" estimate --task serve --model llama-3.1-8b --gpu L4 2>/dev/null | grep -q 'Assumptions:' && ok || bad "estimate table"
"$BIN" estimate --task serve --model llama-3.1-8b --gpu L4 --format csv 2>/dev/null | grep -q '^assumption,' && ok || bad "estimate csv"
"$BIN" estimate --help | grep -q -- '--kv-precision' && ok || bad "estimate help"
# Help that guides (issue 29): the workload flags under per-task headings, and `--help --task T`
# (either order, or a --workload file's task) lists only those that apply to T, from the table
# the library rejects a field "that does not apply to the task" with.
full_help=$("$BIN" recommend --help)
[[ "$full_help" == *"Workload: LLM: serve:"*"--kv-precision"*"Workload: vision (train-vision, infer-vision):"*"--resolution"* &&
   "$full_help" == *"--help --task TASK"* ]] && ok || bad "recommend help groups by task"
# help_flags ARGS...: the options a help lists, one a line (not the flags its examples use).
help_flags() { "$BIN" "$@" | grep -o '^  --[a-z0-9-]*' | sed 's/^  //'; }
# has_flags LIST WANTED... / lacks_flags LIST UNWANTED...
has_flags() { local l=$1 f; shift; for f; do grep -qx -- "$f" <<<"$l" || return 1; done; }
lacks_flags() { local l=$1 f; shift; for f; do grep -qx -- "$f" <<<"$l" && return 1; done; return 0; }
for cmd in recommend estimate launch simulate; do
  flags=$(help_flags $cmd --help --task vision)
  has_flags "$flags" --resolution --model --images --workload --task && lacks_flags "$flags" --kv-precision --tp --codec --tokens &&
    ok || bad "$cmd --help --task vision: [$flags]"
done
flags=$(help_flags recommend --task serve --help)
has_flags "$flags" --kv-precision --ttft-p95 --model --deadline && lacks_flags "$flags" --resolution --tokens --images &&
  ok || bad "recommend --task serve --help: [$flags]"
flags=$(help_flags estimate --help --task=hpc)
has_flags "$flags" --fp64-flop --instance && lacks_flags "$flags" --layers --streams && ok || bad "estimate --help --task=hpc: [$flags]"
printf 'task: train-vision\nmodel: resnet50\n' >"$wl/vision.yaml"
flags=$(help_flags recommend --help --workload "$wl/vision.yaml")
has_flags "$flags" --images && lacks_flags "$flags" --kv-precision --guidance && ok || bad "help narrowed by a workload file's task: [$flags]"
expect_exit "help for an unknown task" 2 "--task: expected a task (pretrain|finetune|lora|qlora|serve|train-vision|infer-vision|hpc|transcode|render|analytics) or a kind of task (llm|vision)" recommend --help --task visoin

# pricing: every purchase option, break-even, spot overhead.
expect_json "pricing shape" 'd["instance_type"]=="p4d.24xlarge" and [o["option"] for o in d["options"]][:3]==["on-demand","spot","reserved-1y-no-upfront"] and all(k in o for o in d["options"] for k in ["usd_per_hour","total_usd","usd_per_used_hour","break_even_utilization","price_source","price_date","note"])' pricing p4d.24xlarge --json
expect_json "pricing od total" '[abs(o["total_usd"]-o["usd_per_hour"]*300*12*2)<1e-6 for o in d["options"] if o["option"]=="on-demand"]==[True]' pricing p4d.24xlarge --hours-per-month 300 --months 12 --count 2 --json
expect_json "pricing break-even" 'abs(d["options"][2]["break_even_utilization"]-d["options"][2]["usd_per_hour"]/d["options"][0]["usd_per_hour"])<1e-9 and 0<d["options"][2]["break_even_utilization"]<1' pricing p4d.24xlarge --json
expect_json "pricing spot interruptible" 'd["cheapest"]=="spot" and [o for o in d["options"] if o["option"]=="spot"][0]["spot"]["overhead_fraction"]>0' pricing p4d.24xlarge --interruptible --checkpoint-gib 100 --json
# Capacity Blocks (issue 17): whole days at the catalog's dated block rate, paid upfront; --hours
# is one continuous run; a type not sold as blocks says so.
expect_json "pricing capacity block 336 h" 'd["capacity_block_days"]==14 and [abs(o["total_usd"]-o["usd_per_hour"]*14*24*4)<1e-6 and bool(o["price_date"] and o["price_source"]) for o in d["options"] if o["option"]=="capacity-block"]==[True] and [abs(o["total_usd"]-o["usd_per_hour"]*336*4)<1e-6 for o in d["options"] if o["option"]=="on-demand"]==[True]' pricing p5.48xlarge --hours 336 --count 4 --json
expect_json "pricing capacity block 337 h" 'd["capacity_block_days"]==21' pricing p5.48xlarge --hours 337 --json
# Issue 37: a year or three of p5 is not a chain of blocks (each starts within 8 weeks of booking,
# so one can be booked today): the block is listed as not available for the horizon, with no
# total, never the cheapest, beside on-demand and the commitments priced for the whole horizon.
CB='[o for o in d["options"] if o["option"]=="capacity-block"][0]'
for h in 8760 26280; do
  expect_json "pricing p5 $h h: no chained block" "d['capacity_block_days'] is None and $CB['priced'] and not $CB['suitable'] and $CB['total_usd'] is None and 'not available for this horizon' in $CB['note'] and 'cannot be chained' in $CB['note'] and d['cheapest']!='capacity-block' and not any('consecutive' in (o['note'] or '') for o in d['options']) and abs([o for o in d['options'] if o['option']=='on-demand'][0]['total_usd']-$h*[o for o in d['options'] if o['option']=='on-demand'][0]['usd_per_hour'])<1e-6" pricing p5.48xlarge --hours $h --json
  out=$("$BIN" pricing p5.48xlarge --hours $h 2>&1)
  [[ "$out" == *"not available for this horizon"* && "$out" != *"consecutive"* && "$out" != *"capacity-block *"* ]] && ok || bad "pricing p5 --hours $h table: [$out]"
done
expect_json "pricing 182 days is one block" "d['capacity_block_days']==182 and $CB['suitable'] and $CB['total_usd']>0" pricing p5.48xlarge --hours 4368 --json
expect_json "pricing no capacity block" 'd["capacity_block_days"] is None and any("not sold as EC2 Capacity Blocks" in n for n in d["notes"])' pricing g6.xlarge --hours 48 --json
expect_exit "pricing hours conflict" 2 "--hours: conflicts with hours-per-month" pricing p5.48xlarge --hours 48 --months 2
expect_json "show history has capacity blocks" '[h["date"] for h in d["history"] if h["kind"]=="capacity-block"]==sorted(h["date"] for h in d["history"] if h["kind"]=="capacity-block") and len([h for h in d["history"] if h["kind"]=="capacity-block"])>=2' show p5.48xlarge --history --json
expect_json "g7 listed with prices" 'len(d)>=6 and all(r["instance_type"].startswith("g7.") and r["on_demand_usd_per_hour"] for r in d)' instances --family g7 --json
# One stale-price warning line at most, whatever the number of stale sources and rows (issue 17).
for cmd in "instances --region all" "instances --gpu H100 --region all" "catalog info" \
  "pricing p4d.24xlarge --interruptible" "estimate --task finetune --model llama-3.1-8b --tokens 20M --instance p5.48xlarge"; do
  # shellcheck disable=SC2086
  n=$(GPUADVISOR_TODAY=2027-12-01 "$BIN" $cmd 2>&1 >/dev/null | grep -c 'older than')
  if [ "$n" = 1 ]; then ok; else bad "$cmd: $n stale-price warning lines, want 1"; fi
done
expect_json "pricing spot not interruptible" 'd["cheapest"]!="spot"' pricing p4d.24xlarge --json
# Checkpoints go at --storage-gbyte-s (old name --storage-gbps) (size / rate), and each interruption costs --restart of
# extra time (overhead = write / interval + (interval / 2 + restart + read) / MTBI).
SPOT='[o for o in d["options"] if o["option"]=="spot"][0]["spot"]'
expect_json "pricing storage-gbyte-s" "abs($SPOT[\"checkpoint_write_s\"]-100*2**30/1e9/4)<1e-6" pricing p4d.24xlarge --interruptible --checkpoint-gib 100 --storage-gbyte-s 4 --json
expect_json2 "pricing restart" "abs($SPOT[\"overhead_fraction\"]-[o for o in e[\"options\"] if o[\"option\"]==\"spot\"][0][\"spot\"][\"overhead_fraction\"]-3600/($SPOT[\"mtbi_hours\"]*3600))<1e-9" pricing p4d.24xlarge --interruptible --checkpoint-gib 100 --checkpoint-interval 1h --restart 70m --json -- pricing p4d.24xlarge --interruptible --checkpoint-gib 100 --checkpoint-interval 1h --restart 10m --json
expect_exit "pricing hours" 2 "--hours-per-month" pricing p4d.24xlarge --hours-per-month 800
expect_exit "pricing interval" 2 "--checkpoint-interval" pricing p4d.24xlarge --checkpoint-interval 3x
expect_exit "pricing type" 2 "did you mean" pricing p4d.24xlarg

# recommend: the contract object, constraints, no feasible plan, bad input.
R='all(k in d for k in ["catalog","plans","pareto","rejected"]) and all(k in p for p in d["plans"] for k in ["rank","instance_type","instances","gpus","gpu_model","region","purchase","parallelism","memory_per_gpu_gib","fits","time_hours","cost_usd","usd_per_hour","why","warnings","advice"]) and all(k in x for x in d["rejected"] for k in ["instance_type","reason"])'
expect_json "recommend serve" "$R"' and len(d["plans"])>0 and d["plans"][0]["instances"]==1 and d["plans"][0]["usd_per_hour"]<2' recommend --task serve --model llama-3.1-8b --rps 0.5 --json
expect_json "recommend pretrain" "$R"' and d["plans"][0]["gpu_model"] in ("H100","H200","B200","B300") and d["plans"][0]["instances"]>=8 and any("EFA" in a for a in d["plans"][0]["advice"]) and all(p["time_hours"]<=720 for p in d["plans"])' recommend --task pretrain --model llama-3.1-70b --tokens 1T --deadline 30d --json
expect_json "recommend max-instances" 'all(p["instances"]==1 for p in d["plans"]) and len(d["plans"])>0' recommend --task qlora --model llama-2-70b --tokens 50M --max-instances 1 --json
expect_json "recommend no fp64 on L4" 'len(d["plans"])>0 and not any(p["gpu_model"] in ("L4","A10G","L40S","T4") for p in d["plans"])' recommend --task hpc --fp64-flop 1e19 --working-set-gib 100 --json
expect_json "recommend no nvenc" 'len(d["plans"])>0 and not any(p["gpu_model"] in ("H100","H200","A100-40GB","A100-80GB") for p in d["plans"])' recommend --task transcode --streams 200 --json
# --max-gpus caps every plan where the uncapped search goes beyond it; --allow-retired brings
# retired types into the search (evaluated or rejected with a reason); --explain says more.
expect_json2 "recommend max-gpus" 'len(d["plans"])>0 and all(p["gpus"]<=8 for p in d["plans"]) and any(p["gpus"]>8 for p in e["plans"])' recommend --task finetune --model llama-3.1-8b --tokens 1B --max-gpus 8 --json -- recommend --task finetune --model llama-3.1-8b --tokens 1B --json
RETIRED=$("$BIN" instances --include-retired --region all --json 2>/dev/null | "$PY" -c 'import json,sys; print(sorted({r["instance_type"] for r in json.load(sys.stdin) if r["retired"]}))')
expect_json2 "recommend allow-retired" "d['candidates_evaluated']>e['candidates_evaluated'] and any(t in x['instance_type'] for x in d['rejected'] + d['plans'] for t in $RETIRED) and not any(t in x['instance_type'] for x in e['rejected'] + e['plans'] for t in $RETIRED)" recommend --task serve --model llama-3.1-8b --rps 0.5 --allow-retired --json -- recommend --task serve --model llama-3.1-8b --rps 0.5 --json
brief=$("$BIN" recommend --task serve --model llama-3.1-8b --rps 0.5 2>/dev/null | wc -l)
full=$("$BIN" recommend --task serve --model llama-3.1-8b --rps 0.5 --explain 2>/dev/null | wc -l)
[ "$full" -gt "$brief" ] && ok || bad "recommend --explain adds nothing ($full vs $brief lines)"
"$BIN" recommend --task pretrain --model llama-3.1-70b --tokens 1T --budget 100 --json >/tmp/gpuadvisor-rec.json 2>/dev/null; rc=$?
[ "$rc" = 1 ] && "$PY" -c "import json; d=json.load(open('/tmp/gpuadvisor-rec.json')); assert d['plans']==[] and 'over budget' in d['rejected'][0]['reason']" && ok || bad "impossible budget -> exit 1 with reasons (rc=$rc)"
expect_exit "recommend deadline" 2 "--deadline" recommend --task serve --model llama-3.1-8b --deadline 3x
expect_exit "recommend regions" 2 "--regions" recommend --task serve --model llama-3.1-8b --regions us-east-1,mars-1
expect_exit "recommend budget" 2 "--budget" recommend --task serve --model llama-3.1-8b --budget -5
# Allow and deny lists (issue 25): every plan keeps to them, the answer records them, a name the
# catalog lacks is exit 2 naming the option and the value (with a hint), and lists that leave no
# instance type say which one did, instead of an empty table (exit 1).
LISTS='[(x["option"],x["values"]) for x in d["filters"]["lists"]]'
expect_json "recommend only-family exclude-instance" 'len(d["plans"])>0 and all(p["instance_type"].split(".")[0] in ("p5","g6e") and p["instance_type"]!="g6e.xlarge" for p in d["plans"]+d["pareto"]) and '"$LISTS"'==[("only-family",["p5","g6e"]),("exclude-instance",["g6e.xlarge"])] and d["filters"]["emptied_by"] is None' recommend --task serve --model llama-3.1-8b --rps 2 --only-family p5,g6e --exclude-instance g6e.xlarge --json
expect_json "recommend only-gpu exclude-family" 'len(d["plans"])>0 and all(p["gpu_model"] in ("H100","H200","A100-40GB","A100-80GB") for p in d["plans"]) and all(p["instance_type"].split(".")[0] in ("p5","p5e","p4d","p4de") for p in d["plans"]+d["pareto"]) and '"$LISTS"'==[("only-gpu",["H100","H200","A100-40GB","A100-80GB"]),("exclude-family",["p5en"])]' recommend --task serve --model llama-3.1-70b --rps 1 --only-gpu h100,H200,A100 --exclude-family p5en --json
expect_json2 "recommend exclude-gpu" 'len(d["plans"])>0 and not any(p["gpu_model"]=="L4" for p in d["plans"]) and not any(p["instance_type"].startswith(("g6.","g6f.","gr6.","gr6f.")) for p in d["pareto"]) and any(p["gpu_model"]=="L4" for p in e["plans"])' recommend --task serve --model llama-3.1-8b --rps 0.5 --exclude-gpu L4 --json -- recommend --task serve --model llama-3.1-8b --rps 0.5 --json
expect_json "recommend only-instance" 'len(d["plans"])>0 and {p["instance_type"] for p in d["plans"]}<={"p4d.24xlarge","g6e.12xlarge"} and d["filters"]["types_left"]==2' recommend --task serve --model llama-3.1-70b --rps 1 --only-instance p4d.24xlarge,g6e.12xlarge --json
expect_json "recommend no filters recorded" 'd["filters"]["lists"]==[] and d["filters"]["types_left"]==d["filters"]["types_in_catalog"]>0' recommend --task serve --model llama-3.1-8b --json
expect_exit "recommend only-family unknown" 2 '--only-family: unknown instance family "p9"; did you mean' recommend --task serve --model llama-3.1-8b --only-family p5,p9
expect_exit "recommend exclude-gpu unknown" 2 '--exclude-gpu: unknown GPU "H1000"; did you mean H100?' recommend --task serve --model llama-3.1-8b --exclude-gpu H1000
expect_exit "recommend only-instance unknown" 2 '--only-instance: unknown instance type "p5.48xlarg"; did you mean p5.48xlarge' recommend --task serve --model llama-3.1-8b --only-instance p5.48xlarg
out=$("$BIN" recommend --task serve --model llama-3.1-8b --only-family p5 --exclude-gpu H100 2>&1); rc=$?
[ "$rc" = 1 ] && [[ "$out" == "no plan: no instance type is left to search: only-family p5 leaves 2 of the "*" instance types, then exclude-gpu H100 leaves none of them" ]] && ok || bad "recommend emptied by a list -> exit 1, one line naming it (rc=$rc, [$out])"
expect_json "recommend emptied json" 'd["plans"]==[] and d["rejected"]==[] and d["filters"]["emptied_by"]=="exclude-gpu" and "exclude-gpu H100 leaves none" in d["filters"]["note"]' recommend --task serve --model llama-3.1-8b --only-family p5 --exclude-gpu H100 --json
"$BIN" recommend --task serve --model llama-3.1-8b --exclude-family g6,g6f 2>/dev/null | grep -q '^filters: exclude-family g6,g6f (.* of .* instance types left)$' && ok || bad "recommend text records the filters"
"$BIN" recommend --task serve --model llama-3.1-8b --plot "$wl/plot.svg" >/dev/null 2>&1 && grep -q '<svg' "$wl/plot.svg" && grep -q 'Pareto' "$wl/plot.svg" && ok || bad "recommend --plot"

# Every example workload file gives a recommendation.
for f in "$(dirname "$0")"/../../examples/*.yaml; do
  expect_json "example $(basename "$f")" 'len(d["plans"])>0 and all(p["fits"] for p in d["plans"])' recommend --workload "$f" --json
done

# Formats render with units in headers.
"$BIN" instances --format csv 2>/dev/null | head -1 | grep -q '\$/h on-demand' && ok || bad "csv header"
"$BIN" instances --format markdown 2>/dev/null | sed -n 2p | grep -q -- '---:' && ok || bad "markdown"
"$BIN" instances --gpu H100 2>/dev/null | grep -q 'p5.48xlarge' && ok || bad "table"
"$BIN" instances --help | grep -q 'Examples' && ok || bad "help examples"
# `gpuadvisor --help` starts a newcomer with one command per scenario of the buying guide; each
# must run (exit 0, or 1 when nothing is feasible would be a broken example too).
starts=$("$BIN" --help | sed -n '/^Start here/,/^Browse/p' | grep -o 'gpuadvisor [a-z].*')
[ "$(printf '%s\n' "$starts" | wc -l)" -ge 9 ] && ok || bad "start here lists the scenarios"
for scenario in "LLM pretraining" "LLM fine-tuning" "LLM serving" "medical imaging" "autonomous driving" "finance risk" "e-commerce images"; do
  "$BIN" --help | grep -q "^  $scenario " && ok || bad "start here: $scenario"
done
while read -r _ cmd; do
  # shellcheck disable=SC2086  # the help line's words are the arguments
  "$BIN" $cmd >/dev/null 2>&1 && ok || bad "start here: gpuadvisor $cmd"
done <<<"$starts"

# Units in names (issue 18): the Gbit/s and GB/s figures under their unit names, and the names
# The v1 JSON contract (doc/formats.md) requires (network_gbps, memory_bw_gbps) with the same values.
expect_json "network gbit_s" 'all(r["network_gbit_s"]==r["network_gbps"] for r in d) and any(r["network_gbit_s"]==3200 for r in d)' instances --gpu H100 --json
expect_json "show units" 'd["network"]["peak_gbit_s"]==3200 and "peak_gbps" not in d["network"] and d["gpu_spec"]["memory_bw_gbyte_s"]==d["gpu_spec"]["memory_bw_gbps"]==3350 and d["gpu_spec"]["nvlink_gbyte_s"]==900' show p5.48xlarge --json
expect_json "gpus units" 'all(g["memory_bw_gbyte_s"]==g["memory_bw_gbps"] for g in d) and "aws_names" in d[0]' gpus --json
expect_json "sort by unit name" '[r["network_gbit_s"] for r in d]==sorted([r["network_gbit_s"] for r in d], reverse=True)' instances --gpu L4 --sort network_gbit_s:desc --json
# A version-1 catalog (a user's import from before the rename) is read, and `catalog upgrade`
# rewrites it in the current schema.
V1="$(dirname "$0")/../catalog/fixtures/catalog-v1.json"
expect_json "v1 catalog reads" 'd[0]["network_gbit_s"]==10 and d[0]["instance_type"]=="g5g.xlarge"' instances --catalog "$V1" --json
UP=$(mktemp)
if "$BIN" catalog upgrade --catalog "$V1" --out "$UP" 2>/dev/null && "$PY" -c "
import json,sys; c=json.load(open(sys.argv[1])); g=c['gpus'][0]; n=c['instance_types'][0]['network']
sys.exit(0 if c['schema']=='gpuadvisor-catalog/2' and g['memory_bw_gbyte_s']==320 and 'memory_bw_gbps' not in g and g['derived_fields'][0]=='memory_bw_gbyte_s' and n['baseline_gbit_s']==1.25 else 1)" "$UP"; then ok; else bad "catalog upgrade"; fi
rm -f "$UP"
expect_exit "upgrade a missing file" 3 "cannot open" catalog upgrade --catalog /nonexistent/c.json --out /tmp/x.json

finish cli_test
