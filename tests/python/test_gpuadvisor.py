"""The Python module against the CLI: every function, to_dict() == the CLI's --json for the same
inputs, error classes and messages, threads."""
import json
import pathlib
import subprocess
import sys
import threading

import pytest

import gpuadvisor as ga

# Three different recommend workloads: (python kwargs for Workload, recommend kwargs, CLI flags).
RECOMMEND_CASES = [
    ({"task": "qlora", "model": "llama-2-70b", "tokens": "50M"},
     {"max_instances": 1},
     ["--task", "qlora", "--model", "llama-2-70b", "--tokens", "50M", "--max-instances", "1"]),
    ({"task": "serve", "model": "llama-3.1-8b", "rps": 2, "input_tokens": 1000,
      "output_tokens": 200},
     {"top": 3, "purchase": ["on-demand", "reserved-1y"]},
     ["--task", "serve", "--model", "llama-3.1-8b", "--rps", "2", "--input-tokens", "1000",
      "--output-tokens", "200", "--top", "3", "--purchase", "on-demand,reserved-1y"]),
    ({"task": "pretrain", "model": "llama-3.1-8b", "tokens": 2e11, "seq_len": 4096},
     {"deadline": "14d", "regions": ["us-east-1", "us-west-2"], "objective": "balanced"},
     ["--task", "pretrain", "--model", "llama-3.1-8b", "--tokens", "200B", "--seq-len", "4096",
      "--deadline", "14d", "--regions", "us-east-1,us-west-2", "--objective", "balanced"]),
]


# ---- catalog -----------------------------------------------------------------------------------

def test_catalog_is_shared_and_info_matches_cli(cli_json):
    c = ga.catalog()
    assert c is ga.catalog()
    info = c.info()
    assert info.counts.instance_types > 0
    assert info.schema == "gpuadvisor-catalog/2"
    assert info.to_dict() == cli_json("catalog", "info")
    assert "embedded" in repr(c)


def test_instances_match_cli_and_have_attributes(cli_json):
    rows = ga.catalog().instances(gpu="L4", min_gpus=4)
    assert rows.to_dict() == cli_json("instances", "--gpu", "L4", "--min-gpus", "4")
    assert rows and all(r.accelerator.model == "L4" for r in rows)
    assert isinstance(rows[0], ga.InstanceRow)
    assert rows[0].on_demand_usd_per_hour > 0
    assert "instance type" in str(rows)


def test_instances_all_regions_sorted_limited(cli_json):
    rows = ga.catalog().instances(gpu=["H100"], region="all", sort="on_demand_usd_per_hour:desc",
                                  limit=4)
    assert len(rows) == 4
    assert rows.to_dict() == cli_json("instances", "--gpu", "H100", "--region", "all", "--sort",
                                      "on_demand_usd_per_hour:desc", "--limit", "4")
    prices = [r.on_demand_usd_per_hour for r in rows]
    assert prices == sorted(prices, reverse=True)


def test_instances_nothing_found_is_an_empty_list_with_a_warning():
    rows = ga.catalog().instances(gpu="H100", max_price=0.01)
    assert len(rows) == 0
    assert rows.warnings == ["no instance type matches these filters"]
    # Filters that match in other regions say where, as the CLI does (one function).
    elsewhere = ga.catalog().instances(family="trn2", region="eu-west-1")
    assert len(elsewhere) == 0
    assert elsewhere.warnings[0].startswith(
        "no instance type matches these filters in eu-west-1; trn2.")
    assert "(try --region " in elsewhere.warnings[0]
    # Retired rows name what takes their place, as the CLI's warnings do.
    v100 = ga.catalog().instances(gpu="V100", include_retired=True)
    assert any(w.startswith("p3.2xlarge is retired; in its place (us-east-1): p3dn.24xlarge")
               for w in v100.warnings)
    assert ga.catalog().show("p3.2xlarge").to_dict()["successors"][0]["use"] == "same GPU"


def test_show_and_gpus_match_cli(cli_json):
    c = ga.catalog()
    shown = c.show("p5.48xlarge", region="us-west-2")
    assert shown.to_dict() == cli_json("show", "p5.48xlarge", "--region", "us-west-2")
    assert shown.instance_type == "p5.48xlarge"
    gpus = c.gpus()
    assert gpus.to_dict() == cli_json("gpus")
    assert any(g.model == "H100" for g in gpus)
    # Models only on retired types (or on none) come in: strictly more, and the same
    # answer as the CLI's flag.
    with_retired = c.gpus(include_retired=True)
    assert with_retired.to_dict() == cli_json("gpus", "--include-retired")
    assert {g.model for g in gpus} < {g.model for g in with_retired}


def test_models_match_cli(cli_path, cli_json):
    models = ga.models()
    assert models.to_dict() == cli_json("models")
    assert [m.name for m in models] == ga.model_presets()
    llama = [m for m in models if m.name == "llama-3.1-8b"][0]
    assert llama.family == "decoder" and "serve" in llama.tasks and llama.layers == 32
    table = subprocess.run([cli_path, "models"], capture_output=True, text=True, check=True).stdout
    assert str(models) == table


def test_catalog_file_and_max_price_age(tmp_path, cli_path):
    path = tmp_path / "catalog.json"
    out = subprocess.run([cli_path, "catalog", "info", "--json"], capture_output=True, text=True,
                         check=True)
    assert out.returncode == 0
    with pytest.raises(ga.IoError) as err:
        ga.catalog(tmp_path / "missing.json")
    assert err.value.field == "catalog"
    path.write_text("{ not json")
    with pytest.raises(ga.ParseError) as err:
        ga.Catalog(path)
    assert str(err.value).startswith("catalog: ")
    with pytest.raises(ga.InvalidArgument) as err:
        ga.catalog(max_price_age=-1)
    assert err.value.field == "max_price_age"
    fresh = ga.catalog(max_price_age=100000)
    assert fresh.info().prices_stale is False


# ---- errors ------------------------------------------------------------------------------------

def test_error_hierarchy():
    for cls in (ga.InvalidArgument, ga.NotFound, ga.ParseError, ga.IoError, ga.Unsupported,
                ga.NoResult):
        assert issubclass(cls, ga.Error)
    assert issubclass(ga.InvalidArgument, ValueError)
    assert issubclass(ga.NotFound, LookupError)
    assert issubclass(ga.IoError, OSError)


def test_bad_filter_same_message_as_cli(cli_error):
    with pytest.raises(ga.InvalidArgument) as err:
        ga.catalog().instances(min_gpus="abc")
    message, code = cli_error("instances", "--min-gpus", "abc")
    assert str(err.value) == message and code == 2
    assert err.value.field == "min_gpus"
    assert err.value.code == "invalid_argument"


def test_unknown_names_raise_not_found_with_hint(cli_error):
    with pytest.raises(ga.NotFound) as err:
        ga.catalog().show("p5.48xlarg")
    assert str(err.value) == cli_error("show", "p5.48xlarg")[0]
    assert "did you mean" in str(err.value)
    with pytest.raises(ga.InvalidArgument) as err:  # a filter value, as the CLI reports it
        ga.catalog().instances(gpu="H1000")
    assert err.value.field == "gpu" and "did you mean H100" in str(err.value)
    with pytest.raises(ga.InvalidArgument) as err:
        ga.catalog().instances(sort="price:up")
    assert err.value.field == "sort"


# ---- workloads ---------------------------------------------------------------------------------

def test_workload_fields_and_errors(cli_error):
    w = ga.Workload(task="qlora", model="llama-2-70b", tokens="50M")
    assert w.task == "qlora" and w.model_name == "llama-2-70b"
    assert 6e10 < w.params < 8e10
    assert "--task=qlora" in w.cli_args()
    assert "tokens" in repr(w)
    with pytest.raises(ga.InvalidArgument) as err:
        ga.Workload(task="pretrain", model="llama-3.1-8b", tokens=-5)
    message, _ = cli_error("estimate", "--task", "pretrain", "--model", "llama-3.1-8b",
                           "--tokens", "-5", "--gpu", "H100")
    assert str(err.value) == message == 'tokens: expected a positive number, got "-5"'
    assert err.value.field == "tokens"
    with pytest.raises(ga.InvalidArgument) as err:
        ga.Workload(task="pretrain", layers=32, hidden=4096, heads=30, vocab=32000, tokens="1B")
    assert err.value.field == "heads"
    with pytest.raises(ga.NotFound) as err:
        ga.Workload(task="finetune", model="llama-3.1-8", tokens="1B")
    assert "did you mean" in str(err.value)
    with pytest.raises(ga.InvalidArgument) as err:
        ga.Workload(task="finetune", model="llama-3.1-8b", tokenz="1B")
    assert err.value.field == "tokenz"
    assert "tokens" in ga.workload_fields() and "llama-3.1-8b" in ga.model_presets()
    with pytest.raises(ga.InvalidArgument) as err:
        ga.Workload(task="pretrain", model="llama-3.1-8b", tokens=float("inf"))
    assert err.value.field == "tokens"
    # Booleans: False is passed on (flash_attention defaults to on), numbers keep their value.
    off = ga.Workload(task="pretrain", model="llama-3.1-8b", tokens=1e9, flash_attention=False)
    assert off.fields["flash-attention"] == "false" and off.fields["tokens"] == "1000000000"


def test_workload_files(tmp_path):
    good = tmp_path / "job.yaml"
    good.write_text("task: lora\nmodel: llama-3.1-8b\ntokens: 100M\n")
    w = ga.Workload.from_yaml(good, epochs=2)
    assert w.task == "lora"
    js = tmp_path / "job.json"
    js.write_text(json.dumps({"task": "lora", "model": "llama-3.1-8b", "tokens": "100M"}))
    assert ga.Workload.from_json(js).task == "lora"
    bad = tmp_path / "bad.yaml"
    bad.write_text("task: serve\nmodel: llama-3.1-8b\ninput-tokens: abc\n")
    with pytest.raises(ga.InvalidArgument) as err:
        ga.Workload.from_yaml(bad)
    assert str(err.value).startswith(f"{bad}:3: input-tokens:")
    assert err.value.field == "input_tokens"
    broken = tmp_path / "broken.yaml"
    broken.write_text("task: [serve\n")
    with pytest.raises(ga.ParseError):
        ga.Workload.from_yaml(broken)
    with pytest.raises(ga.IoError):
        ga.Workload.from_yaml(tmp_path / "none.yaml")


def test_workload_from_hf_config(tmp_path):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048,
        "intermediate_size": 8192, "num_attention_heads": 32, "num_hidden_layers": 16,
        "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": True,
    }))
    w = ga.Workload.from_config_json(cfg, task="finetune", tokens="10M")
    assert w.task == "finetune"
    assert 1.0e9 < w.params < 1.5e9
    served = ga.Workload.from_config_json(cfg, task="serve")
    assert served.task == "serve" and served.params == w.params


# ---- estimate ----------------------------------------------------------------------------------

def test_estimate_matches_cli(cli_json):
    w = ga.Workload(task="finetune", model="llama-3.1-8b", tokens="200M", epochs=2)
    e = ga.estimate(w, instance="p5.48xlarge")
    assert e.to_dict() == cli_json("estimate", "--task", "finetune", "--model", "llama-3.1-8b",
                                   "--tokens", "200M", "--epochs", "2", "--instance",
                                   "p5.48xlarge")
    assert e.memory.fits is True
    assert e.time.hours > 0
    assert e.provenance.gpu_spec_catalog_source
    assert "Assumptions:" in str(e)


def test_estimate_warns_of_a_retired_type():
    # As the CLI's stderr and the JSON's warnings (issue 29): where the type is offered and what
    # takes its place; a current type offered in the region gets neither line.
    w = ga.Workload(task="serve", model="llama-3.2-1b")
    e = ga.estimate(w, instance="p3.2xlarge")
    assert any(x.startswith("p3.2xlarge is not offered in us-east-1") for x in e.warnings)
    assert any("is retired" in x and "in its place (us-east-1): p3dn.24xlarge" in x
               for x in e.warnings)
    assert e.to_dict()["warnings"] == e.warnings
    current = ga.estimate(w, instance="p5.48xlarge")
    assert not any("retired" in x or "not offered" in x for x in current.warnings)


def test_estimate_gpu_count_and_parallelism(cli_json):
    w = ga.Workload(task="serve", model="llama-3.1-70b", quantization="fp8")
    e = ga.catalog().estimate(w, gpu="H100", gpus=4, tp=4, region="us-east-1")
    assert e.parallelism.tp == 4
    assert e.to_dict() == cli_json("estimate", "--task", "serve", "--model", "llama-3.1-70b",
                                   "--quantization", "fp8", "--gpu", "H100", "--gpus", "4",
                                   "--tp", "4")


def test_estimate_errors(cli_error):
    w = ga.Workload(task="pretrain", model="llama-3.1-8b", tokens="1B", precision="bf16")
    with pytest.raises(ga.Unsupported) as err:
        ga.estimate(w, gpu="V100")
    assert str(err.value) == cli_error("estimate", "--task", "pretrain", "--model",
                                       "llama-3.1-8b", "--tokens", "1B", "--precision", "bf16",
                                       "--gpu", "V100")[0]
    assert err.value.field == "precision"
    with pytest.raises(ga.NotFound):
        ga.estimate(w, instance="p9.48xlarge")
    with pytest.raises(ga.InvalidArgument):
        ga.estimate(w, instance="p5.48xlarge", tp=3)


# ---- recommend ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fields,kwargs,flags", RECOMMEND_CASES)
def test_recommend_same_as_cli(cli_json, fields, kwargs, flags):
    rec = ga.recommend(ga.Workload(**fields), **kwargs)
    assert rec.to_dict() == cli_json("recommend", *flags)
    assert rec.plans, "expected feasible plans"
    best = rec.best
    assert isinstance(best, ga.Plan) and best.rank == 1
    assert isinstance(best.estimate, ga.Estimate) and str(best.estimate).startswith("Estimate(")
    assert best.cost_usd > 0 and best.time_hours > 0 and best.why


def test_recommend_views():
    rec = ga.recommend(ga.Workload(**RECOMMEND_CASES[0][0]), **RECOMMEND_CASES[0][1])
    assert rec.svg().lstrip().startswith("<svg")
    assert "instance type" in str(rec) and rec.best.instance_type in str(rec)
    assert rec.pareto and all(p.cost_usd > 0 for p in rec.pareto)
    assert isinstance(rec.warnings, list)
    assert rec["objective"] == "cost" and "plans" in rec
    with pytest.raises(AttributeError):
        rec.no_such_field  # noqa: B018
    with pytest.raises(AttributeError):
        rec.objective = "time"


def test_recommend_doubts_and_picks_as_the_cli(cli_json):
    """``risk=`` and ``all_sizes=`` bind as ``--risk`` and ``--all-sizes``; the doubts, the
    obtainability and the named picks are the CLI's."""
    fields = dict(task="train-vision", model="unet3d", images="168", epochs="2000")
    flags = ["--task", "train-vision", "--model", "unet3d", "--images", "168", "--epochs", "2000"]
    rec = ga.recommend(ga.Workload(**fields), risk="any", all_sizes=True)
    assert rec.to_dict() == cli_json("recommend", *flags, "--risk", "any", "--all-sizes")
    assert rec.risk == "any"
    assert 0 < rec.best.obtainability["probability"] <= 1 and rec.best.obtainability["basis"]
    assert any(d["kind"] == "portability" and d["demotes"] for d in rec.best.doubts)
    sound = ga.recommend(ga.Workload(**fields))
    assert not any(d["demotes"] for d in sound.best.doubts)
    assert sound.pick("cheapest-sound")["rank"] == 1
    assert sound.pick("cheapest-any-risk")["instance_type"] == rec.best.instance_type
    assert sound.pick("no-such-pick") is None


def test_recommend_with_an_account_scan_as_the_cli(cli_json, tmp_path, monkeypatch):
    """``account=`` reads a scan file as ``--account`` does (none ignores it); ``account_show``
    returns it as ``account show --json`` prints it."""
    scan = {"schema": "gpuadvisor-account/1", "account_id": "123456789012",
            "scanned_at": "2026-12-01T00:00:00Z", "regions": ["us-east-1"],
            "quotas": [{"region": "us-east-1", "code": "L-417A185B",
                        "name": "Running On-Demand P instances", "spot": False, "classes": ["P"],
                        "vcpus": 384}],
            "zones": {}, "reserved": [], "savings_plans": [], "savings_plans_scanned": True,
            "running": [{"region": "us-east-1", "instance_type": "p5.48xlarge", "spot": False,
                         "count": 1, "vcpus": 192},
                        {"region": "us-east-1", "instance_type": "p3.16xlarge", "spot": False,
                         "count": 1, "vcpus": 64}],
            "running_scanned": ["us-east-1"], "spot_scores": [], "failures": []}
    path = tmp_path / "account.json"
    path.write_text(json.dumps(scan))
    w = ga.Workload(task="pretrain", model="llama-3.1-8b", tokens="20B")
    kwargs = dict(only_instance="p5.48xlarge", purchase="on-demand", max_instances=1, top=1)
    rec = ga.recommend(w, account=str(path), **kwargs)
    assert rec.to_dict() == cli_json("recommend", "--task", "pretrain", "--model", "llama-3.1-8b",
                                     "--tokens", "20B", "--only-instance", "p5.48xlarge",
                                     "--purchase", "on-demand", "--max-instances", "1", "--top",
                                     "1", "--account", str(path))
    plan = rec.to_dict()["plans"][0]
    assert plan["account"]["quota"]["used_vcpus"] == 256 and not plan["account"]["obtainable"]
    assert any("quota 384, 256 in use by 2 running instances, so 128 free" in w
               for w in plan["warnings"]), plan["warnings"]
    assert "account" not in ga.recommend(w, account="none", **kwargs).to_dict()["plans"][0]
    assert ga.account_show(path) == json.loads(path.read_text())
    with pytest.raises(ga.IoError):  # a file named and not there: the CLI's exit 3
        ga.account_show(tmp_path / "missing.json")
    monkeypatch.delenv("GPUADVISOR_ACCOUNT", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with pytest.raises(ga.NotFound):  # none named and no user scan
        ga.account_show()
    monkeypatch.setenv("GPUADVISOR_ACCOUNT", str(path))
    assert ga.account_show()["account_id"] == "123456789012"
    # launch reads the same scan as the CLI's: a spec over the quota is warned about, in the
    # answer and in the document's checks.
    spec = ga.launch("p5.48xlarge", format="aws-cli")
    assert any("needs 192 vCPUs of the Running On-Demand P instances quota" in w
               for w in spec["warnings"]), spec["warnings"]
    assert "--desired-value 448" in spec["document"]
    assert not any("quota" in w for w in ga.launch("g6e.xlarge")["warnings"])


def test_recommend_infeasible_is_not_an_error(cli_json):
    w = ga.Workload(task="pretrain", model="llama-3.1-70b", tokens="1T")
    rec = ga.recommend(w, deadline="1h", max_instances=1)
    assert rec.plans == [] and rec.best is None and rec.rejected
    assert "no feasible plan; see the reasons below" in rec.warnings
    assert rec.to_dict() == cli_json("recommend", "--task", "pretrain", "--model", "llama-3.1-70b",
                                     "--tokens", "1T", "--deadline", "1h", "--max-instances", "1",
                                     ok_codes=(1,))


def test_recommend_bad_arguments_name_the_field(cli_error):
    w = ga.Workload(task="qlora", model="llama-2-70b", tokens="50M")
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, objective="fastest")
    assert err.value.field == "objective"
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, deadline="soon")
    assert err.value.field == "deadline"
    assert str(err.value) == cli_error("recommend", "--task", "qlora", "--model", "llama-2-70b",
                                       "--tokens", "50M", "--deadline", "soon")[0]
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, purchase=["on-demand", "lease"])
    assert err.value.field == "purchase"
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, top=0)
    assert err.value.field == "top"
    with pytest.raises(ga.Error) as err:
        ga.recommend(w, regions=["us-east-9"])
    assert err.value.field == "regions"


def test_recommend_allow_and_deny_lists(cli_json, cli_error):
    """Issue 25: keyword lists (a list or comma-separated text), the CLI's answer, recorded."""
    w = ga.Workload(task="serve", model="llama-3.1-70b", rps=1)
    rec = ga.recommend(w, only_gpu=["H100", "A100"], exclude_family="p4de",
                       exclude_instance=["p5.4xlarge"])
    assert rec.plans
    assert all(p.instance_type.split(".")[0] in ("p5", "p4d") for p in rec.plans)
    assert all(p.instance_type != "p5.4xlarge" for p in rec.plans)
    assert rec.to_dict() == cli_json("recommend", "--task", "serve", "--model", "llama-3.1-70b",
                                     "--rps", "1", "--only-gpu", "H100,A100",
                                     "--exclude-family", "p4de",
                                     "--exclude-instance", "p5.4xlarge")
    lists = rec.to_dict()["filters"]["lists"]
    assert [(x["option"], x["values"]) for x in lists] == [
        ("only-gpu", ["H100", "A100-40GB", "A100-80GB"]), ("exclude-family", ["p4de"]),
        ("exclude-instance", ["p5.4xlarge"])]
    assert "filters: only-gpu H100,A100-40GB,A100-80GB; exclude-family p4de" in str(rec)


def test_recommend_unknown_list_name_names_the_keyword(cli_error):
    w = ga.Workload(task="serve", model="llama-3.1-8b")
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, only_family=["p5", "p9"])
    assert err.value.field == "only_family"
    assert str(err.value).startswith('only_family: unknown instance family "p9"; did you mean')
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, exclude_gpu="H1000")
    assert err.value.field == "exclude_gpu"
    assert "did you mean H100?" in str(err.value)
    with pytest.raises(ga.InvalidArgument) as err:
        ga.recommend(w, only_instance="p5.48xlarg")
    assert err.value.field == "only_instance"
    assert str(err.value) == cli_error(
        "recommend", "--task", "serve", "--model", "llama-3.1-8b",
        "--only-instance", "p5.48xlarg")[0]


def test_recommend_lists_that_leave_nothing_say_which(cli_json):
    w = ga.Workload(task="serve", model="llama-3.1-8b")
    rec = ga.recommend(w, only_family="p5", exclude_gpu="H100")
    assert rec.plans == [] and rec.best is None and rec.rejected == []
    d = rec.to_dict()
    assert d["filters"]["emptied_by"] == "exclude-gpu"
    assert str(rec).startswith("no plan: no instance type is left to search: only-family p5")
    assert any("exclude-gpu H100 leaves none" in x for x in rec.warnings)
    assert d == cli_json("recommend", "--task", "serve", "--model", "llama-3.1-8b",
                         "--only-family", "p5", "--exclude-gpu", "H100", ok_codes=(1,))


def test_recommend_four_threads_same_as_serial():
    cases = [RECOMMEND_CASES[i % len(RECOMMEND_CASES)] for i in range(4)]
    work = [(ga.Workload(**fields), kwargs) for fields, kwargs, _ in cases]
    serial = [ga.recommend(w, **kw).to_dict() for w, kw in work]
    results = [None] * 4
    errors = []
    barrier = threading.Barrier(4)

    def run(i):
        try:
            barrier.wait()
            for _ in range(3):
                out = ga.recommend(work[i][0], **work[i][1]).to_dict()
                assert results[i] is None or results[i] == out
                results[i] = out
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert results == serial


# ---- pricing -----------------------------------------------------------------------------------

def test_pricing_matches_cli(cli_json):
    p = ga.pricing("p5.48xlarge", hours_per_month=300, months=12)
    assert p.to_dict() == cli_json("pricing", "p5.48xlarge", "--hours-per-month", "300",
                                   "--months", "12")
    assert p.options[0].option == "on-demand"
    assert isinstance(p.options[0], ga.PurchaseOption)
    assert p.cheapest
    spot = ga.catalog().pricing("g6e.12xlarge", interruptible=True, checkpoint_gib=40,
                                checkpoint_interval="30m", count=2)
    assert spot.to_dict() == cli_json("pricing", "g6e.12xlarge", "--interruptible",
                                      "--checkpoint-gib", "40", "--checkpoint-interval", "30m",
                                      "--count", "2")


def test_pricing_long_horizon_never_chains_blocks(cli_json):
    # Issue 37: a year (and three) of p5 is not a chain of Capacity Blocks, in Python as on the CLI.
    for hours in (8760, 26280):
        p = ga.pricing("p5.48xlarge", hours=hours)
        assert p.to_dict() == cli_json("pricing", "p5.48xlarge", "--hours", str(hours))
        cb = [o for o in p.options if o.option == "capacity-block"][0]
        assert cb.priced and not cb.suitable and cb.total_usd is None
        assert "not available for this horizon" in cb.note
        assert p.cheapest != "capacity-block" and p.capacity_block_days is None


def test_catalog_info_counts_figures():
    # Issue 37: staleness per figure, the oldest of each kind named.
    info = ga.catalog(max_price_age=30).info()
    figures = info.price_figures
    assert info.prices_stale and figures.older_than_max_age > 0
    assert [k.kind for k in figures.by_kind] == ["on-demand", "spot", "reserved", "savings-plan",
                                                 "capacity-block"]
    assert info.oldest_price_date == figures.oldest.date <= info.newest_price_date


def test_pricing_errors(cli_error):
    with pytest.raises(ga.InvalidArgument) as err:
        ga.pricing("p5.48xlarge", hours_per_month=1000)
    assert str(err.value) == cli_error("pricing", "p5.48xlarge", "--hours-per-month", "1000")[0]
    with pytest.raises(ga.InvalidArgument) as err:
        ga.pricing("p5.48xlarge", count=1.5)
    assert err.value.field == "count"
    with pytest.raises(ga.InvalidArgument) as err:
        ga.pricing("p5.48xlarge", region="mars-1")
    assert err.value.field == "region"
    with pytest.raises(ga.NotFound):
        ga.pricing("p5.48xlarg")


def test_launch_for_a_type_or_a_plan(cli_path):
    spec = ga.launch("g6e.xlarge", count=2, format="aws-cli", name="job1")
    theirs = subprocess.run([cli_path, "launch", "g6e.xlarge", "--count", "2", "--name", "job1"],
                            capture_output=True, text=True, check=True)
    assert spec["document"] == theirs.stdout
    assert (spec["instance_type"], spec["count"], spec["format"]) == ("g6e.xlarge", 2, "aws-cli")
    assert json.loads(spec["cli_input_json"])["InstanceType"] == "g6e.xlarge"
    rec = ga.recommend(ga.Workload(task="finetune", model="llama-3.1-8b", tokens="200M"), top=2)
    whole = rec.to_dict()
    second = whole["plans"][1]
    spec = ga.catalog().launch(plan=whole, rank=2, format="cloudformation")
    assert spec["instance_type"] == second["instance_type"]
    assert spec["count"] == second["instances"]
    assert spec["cli_input_json"] is None and "AWSTemplateFormatVersion" in spec["document"]
    assert ga.launch(plan=second)["instance_type"] == second["instance_type"]
    assert ga.launch(plan=rec)["instance_type"] == whole["plans"][0]["instance_type"]


@pytest.mark.parametrize("args, kwargs, error, field", [
    (("g6e.xlarge",), {"format": "ansible"}, ga.InvalidArgument, "format"),
    (("g6e.xlarge",), {"count": 0}, ga.InvalidArgument, "count"),
    (("g6e.xlarge",), {"colour": 1}, ga.InvalidArgument, "colour"),
    ((), {}, ga.InvalidArgument, "type"),
    ((), {"plan": 5}, ga.InvalidArgument, "plan"),
    ((), {"plan": {"x": 1}}, ga.Error, "plan"),
    (("g6e.xlarge",), {"plan": {"x": 1}}, ga.InvalidArgument, "type"),
])
def test_launch_errors_name_the_option(args, kwargs, error, field):
    with pytest.raises(error) as err:
        ga.launch(*args, **kwargs)
    assert err.value.field == field


def test_launch_refuses_a_region_other_than_the_plans():
    plan = ga.recommend(ga.Workload(task="finetune", model="llama-3.1-8b", tokens="200M")).to_dict()
    other = "eu-west-1" if plan["plans"][0]["region"] != "eu-west-1" else "us-east-1"
    with pytest.raises(ga.InvalidArgument) as err:
        ga.launch(plan=plan, region=other)
    assert err.value.field == "region" and "conflicts with the plan" in str(err.value)


# ---- command line and pandas -------------------------------------------------------------------

def test_python_m_gpuadvisor_forwards_to_the_cli(cli_path):
    args = ["instances", "--gpu", "L4", "--json"]
    ours = subprocess.run([sys.executable, "-m", "gpuadvisor", *args], capture_output=True,
                          text=True, check=False)
    theirs = subprocess.run([cli_path, *args], capture_output=True, text=True, check=False)
    assert ours.returncode == 0
    assert json.loads(ours.stdout) == json.loads(theirs.stdout)
    bad = subprocess.run([sys.executable, "-m", "gpuadvisor", "instancez"], capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 2 and "did you mean" in bad.stderr


def test_to_pandas():
    pandas = pytest.importorskip("pandas")
    rows = ga.catalog().instances(gpu="L4")
    frame = rows.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == len(rows)
    rec = ga.recommend(ga.Workload(**RECOMMEND_CASES[0][0]), **RECOMMEND_CASES[0][1])
    assert list(rec.to_pandas()["rank"]) == [p.rank for p in rec.plans]


# ---- idle --------------------------------------------------------------------------------------

TELEMETRY = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "telemetry"


def test_idle_matches_cli(cli_json, tmp_path):
    files = [TELEMETRY / "smi-nvidia-h100-80gb-hbm3-idle.csv",
             TELEMETRY / "smi-nvidia-h200-load.csv"]
    report = ga.idle(files, idle_window="1m")
    assert report.to_dict() == cli_json("idle", *map(str, files), "--idle-window", "1m")
    assert report.instances and isinstance(report.instances[0], ga.HostUsage)
    assert report.total_wasted_usd >= 0
    assert "host" in str(report)
    inventory = tmp_path / "hosts.csv"
    host = report.instances[0].host
    inventory.write_text(f"hostname,instance_type,region\n{host},p5.48xlarge,us-west-2\n")
    priced = ga.catalog().idle(files[0], inventory, idle_window="1m")
    assert priced.to_dict() == cli_json("idle", str(files[0]), "--inventory", str(inventory),
                                        "--idle-window", "1m")
    assert priced.instances[0].instance_type == "p5.48xlarge"


def test_idle_share_by_hour(tmp_path):
    # Two hours of one GPU from Monday 2026-07-06 00:00 UTC: idle, then busy.
    rows = ["timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"]
    for m in range(120):
        t = 1783296000 + 60 * m
        rows.append(f"{t}, 0, NVIDIA L4, {1 if m < 60 else 80} %, 100 MiB, 23034 MiB")
    f = tmp_path / "monday.csv"
    f.write_text("\n".join(rows) + "\n")
    report = ga.idle([f], timezone="UTC+01:00")
    grid = report.idle_share_by_hour()
    assert report.week_profile["timezone"] == "UTC+01:00"
    assert len(grid) == 7 and all(len(day) == 24 for day in grid)
    assert grid[0][1] == 1 and grid[0][2] == 0  # 00:00-02:00 UTC is 01:00-03:00 here
    assert grid[0][0] is None and grid[0][3] is None and grid[3][12] is None


def test_idle_hostname_not_utf8(tmp_path):
    # Issue 16: a hostname with bytes that are not UTF-8 gives U+FFFD in dicts and a visible
    # escape in the table, never UnicodeDecodeError.
    f = tmp_path / "bad-host.csv"
    rows = [b"timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
            b"memory.total [MiB]\n"]
    for m in range(60):
        rows.append(b"2026/07/01 00:%02d:00.000, h\xff\x1b[31m, 0, NVIDIA L4, 0 %%, 0 MiB, "
                    b"20000 MiB\n" % m)
    f.write_bytes(b"".join(rows))
    report = ga.idle(f, idle_window="1m")
    assert report.to_dict()["instances"][0]["host"] == "h\ufffd\x1b[31m"
    text = str(report)
    assert "\x1b" not in text and "h\\xff\\x1b[31m" in text


def test_idle_prometheus_source(tmp_path, cli_error):
    # Issue 17: the Prometheus source from Python (the end-to-end run against a real prometheus
    # is tests/cli/idle_prometheus_test.sh). Port 1: nothing listens.
    url = "http://127.0.0.1:1"
    with pytest.raises(ga.IoError) as err:
        ga.idle([], prometheus=url, since="1d", step="1m")
    assert url + "/api/v1/series" in str(err.value)
    assert str(err.value) == cli_error("idle", "--prometheus", url, "--since", "1d", "--step", "1m")[0]
    with pytest.raises(ga.InvalidArgument):
        ga.idle(TELEMETRY / "smi-nvidia-h100-80gb-hbm3-idle.csv", prometheus=url)
    with pytest.raises(ga.InvalidArgument) as err:
        ga.idle([], prometheus=url, selector="up{")
    assert "selector" in str(err.value)


def test_idle_errors(tmp_path, cli_error):
    f = TELEMETRY / "smi-nvidia-h100-80gb-hbm3-idle.csv"
    with pytest.raises(ga.InvalidArgument) as err:
        ga.idle(f, idle_threshold=150)
    assert err.value.field == "idle_threshold"
    assert str(err.value) == cli_error("idle", str(f), "--idle-threshold", "150")[0]
    with pytest.raises(ga.InvalidArgument) as err:
        ga.idle(f, purchase="lease")
    assert err.value.field == "purchase"
    assert isinstance(err.value, ValueError)
    assert str(err.value) == cli_error("idle", str(f), "--purchase", "lease")[0]
    assert "expected one of on-demand, spot, reserved-1y-no-upfront, capacity-block" in str(err.value)
    with pytest.raises(ga.IoError):
        ga.idle(tmp_path / "missing.csv")
    bad = tmp_path / "hosts.csv"
    bad.write_text("hostname,instance_type\nh1,p5.48xlarg\n")
    with pytest.raises(ga.Error) as err:
        ga.idle(f, inventory=bad)
    assert f"{bad}:2" in str(err.value)


def test_the_module_links_no_server_and_serve_runs_the_packaged_one():
    # The module links the CLI but not the HTTP server: no OpenSSL, no Boost.Asio in it ...
    core = pathlib.Path(ga._core.__file__)
    deps = subprocess.run(["ldd", str(core)], capture_output=True, text=True, check=True).stdout
    assert "libssl" not in deps and "libcrypto" not in deps, deps
    symbols = subprocess.run(["nm", "-C", "--defined-only", str(core)], capture_output=True,
                             text=True, check=True).stdout
    assert "boost::asio" not in symbols and "HttpServer" not in symbols
    # ... and `serve` execs gpuadvisor-serve, shipped beside it, in the same process.
    assert (core.parent / "gpuadvisor-serve").is_file()
    proc = subprocess.Popen([sys.executable, "-m", "gpuadvisor", "serve", "--port", "0",
                             "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert "serving http://127.0.0.1:" in line, line
    finally:
        proc.terminate()
        proc.wait(timeout=10)
