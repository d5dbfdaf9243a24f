"""One request, three front ends: the CLI, the HTTP API and the Python module must give the same
answer or the same error (code, field and message) for every option of every command.

The cases are generated from the option tables themselves (``_core.option_table``), so a new
option is covered the day it is added: it gets a valid sample from its type (or from SAMPLES
below, which the test insists on for free-text options) and, where its type allows, bad values.
"""
import json
import math
import os
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest

import gpuadvisor as ga
from gpuadvisor import _core

TODAY = "2026-09-01"
COMMANDS = ["instances", "show", "gpus", "pricing", "estimate", "recommend", "idle", "launch",
            "commitments"]
WORKLOAD = {"task": "finetune", "model": "llama-3.1-8b", "tokens": "20M"}
HERE = os.path.dirname(os.path.abspath(__file__))
TELEMETRY = os.path.join(HERE, "..", "idle", "fixtures", "h100x8-13min.csv")
BILL = os.path.join(HERE, "..", "bill", "fixtures", "cur-21d.csv.gz")  # cur_synth 21 | gzip

# What each command needs besides the option under test.
BASE = {
    "show": {"type": "p5.48xlarge"},
    "pricing": {"type": "p5.48xlarge"},
    "estimate": {"instance": "p5.48xlarge"},
    "recommend": {"top": "1", "max-instances": "2"},
    "launch": {"type": "g6e.xlarge"},
}

# Valid samples of free-text options (and of others where the type's sample says little).
SAMPLES = {
    "region": "eu-west-1",
    "gpu": "H100",
    "family": "p5",
    "sort": "usd_per_gpu_hour:desc",
    "type": "p4d.24xlarge",
    "instance": "p4d.24xlarge",
    "regions": "us-east-1,us-west-2",
    "columns": "timestamp,hostname,index,name,utilization.gpu,memory.used,memory.total",
    "host": "box-9",
    "timezone": "Asia/Tokyo",
    "telemetry-format": "nvidia-smi-csv",
    "instance-type": "p5.48xlarge",
    "prometheus": "http://127.0.0.1:9",  # nothing listens: the same io_error everywhere
    "until": "2026-11-21T00:00:00Z",
    "selector": '{job="dcgm"}',
    "prometheus-header": "X-Scope-OrgID: a",
    "bearer-token-file": "token.txt",
    "basic-auth-file": "auth.txt",
    "inventory": "inventory.csv",
    "capacity-reservation-id": "cr-0123456789abcdef0",
    "key-name": "ops",
    "subnet-id": "subnet-0abc",
    "security-group-ids": "sg-1,sg-2",
    "instance-profile": "gpu-agent",
    "name": "trial",
    "plot": "plot.svg",
    "account": "none",
    "from-plan": "plan.json",
    "out": "out.txt",
    ("estimate", "gpu"): "H100",
    ("estimate", "gpus"): "8",
    ("estimate", "count"): "2",
    # recommend's allow/deny lists (launch's at the CLI): each changes the base's top plan.
    "only-family": "p5,g6e",
    "exclude-family": "trn1,trn1n",
    "only-gpu": "H100,a100",
    "exclude-gpu": "Trainium",
    "only-instance": "p4d.24xlarge,p5.48xlarge",
    "exclude-instance": "trn1.32xlarge",
    "fx": "CNY=7.1@2026-12-01",
    "athena-table": "cur.cur2",
    "athena-workgroup": "finops",
    "athena-output": "s3://finops-results/gpuadvisor/",
    ("commitments", "since"): "2025-12-01",
    ("commitments", "until"): "2026-01-01",
    ("commitments", "region"): "us-east-1",
    "profile": "billing",
    "endpoint-url": "http://127.0.0.1:9",
    "aws-cli": "aws",
    # idle --cloudwatch (CLI only; with the base's telemetry file each is refused naming itself).
    "cloudwatch-namespace": "CWAgent",
    "instance-ids": "i-0123456789abcdef0",
    "asg": "gpu-fleet",
    "chart": "ladder.svg",
}
# Bad values of free-text options (numbers, durations, booleans and choices get theirs by type).
BAD = {
    "region": "mars-1",
    "gpu": "H1000",
    "family": "zz9",
    "sort": "bogus",
    "type": "p5.48xlarg",
    "instance": "p5.48xlarg",
    "regions": "mars-1",
    "until": "yesterday",
    "instance-type": "p5.48xlarg",
    "inventory": "missing.csv",
    "name": "bad name!",
    "only-family": "p5,p9",
    "exclude-family": "g66",
    "only-gpu": "H1000",
    "exclude-gpu": "T5",
    "only-instance": "p5.48xlarg",
    "exclude-instance": "g4dn.xlarg",
    "fx": "CNY=7.1",
    "instance-ids": "i-xyz",
}


def table(command):
    return _core.option_table(command)


def py_name(name):
    return name.replace("-", "_")


def number_text(v):
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else repr(v)


def sample(command, o):
    """A valid value of option `o`, or None when the test has none (a failure for text)."""
    name = o["name"].replace("_", "-")
    for key in ((command, name), name):
        if key in SAMPLES:
            return SAMPLES[key]
    kind = o["type"]
    if kind == "bool":
        return "true"
    if kind == "choice":
        return o["choices"][-1]
    if kind == "list" and o["choices"]:
        return ",".join(o["choices"][:2])
    if kind in ("number", "integer"):
        lo = o["lo"] if math.isfinite(o["lo"]) else 1
        return number_text(max(lo, 1) if lo < 1 <= o["hi"] else lo)
    if kind == "duration":
        return "2h" if o["lo"] <= 7200 <= o["hi"] else (o["default"] or "1h")
    return None


def bad_values(command, o):
    name = o["name"].replace("_", "-")
    kind = o["type"]
    out = []
    if name in BAD:
        out.append(BAD[name])
    if kind == "bool":
        out.append("maybe")
    if kind in ("choice",) or (kind == "list" and o["choices"]):
        out.append("bogus")
    if kind in ("number", "integer", "duration"):
        out.append("abc")
        if math.isfinite(o["hi"]):
            hi = o["hi"] * 10 + 1
            out.append(number_text(hi) + ("s" if kind == "duration" else ""))
    if kind == "integer":
        out.append("2.5")
    return out


def cases():
    for command in COMMANDS:
        names = []
        for o in table(command):
            name = o["name"].replace("_", "-")
            if o["type"] == "files":  # the CLI's positional FILE... (idle): not an option
                continue
            names.append(name)
            value = sample(command, o)
            assert value is not None, f"{command} --{name}: add a sample to SAMPLES"
            yield pytest.param(command, name, value, id=f"{command}-{name}-ok")
            for i, bad in enumerate(bad_values(command, o)):
                yield pytest.param(command, name, bad, id=f"{command}-{name}-bad{i}")
        yield pytest.param(command, "bogus-option", "1", id=f"{command}-unknown")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("frontends")
    (d / "token.txt").write_text("secret\n")
    (d / "auth.txt").write_text("user:pw\n")
    (d / "inventory.csv").write_text("hostname,instance_type\ntrain-box-3,p5.48xlarge\n")
    # An account scan with no P quota (test_option_effects: recommend's account option).
    (d / "account.json").write_text(json.dumps({
        "schema": "gpuadvisor-account/1", "account_id": "123456789012",
        "scanned_at": "2026-09-01T00:00:00Z", "regions": ["us-east-1"],
        "quotas": [{"region": "us-east-1", "code": "L-417A185B", "name": "Running On-Demand P instances",
                    "spot": False, "classes": ["P"], "vcpus": 0}],
        "zones": {}, "reserved": [], "savings_plans": [], "savings_plans_scanned": False,
        "failures": []}))
    return d


@pytest.fixture(scope="module")
def server(cli_path):
    env = dict(os.environ, GPUADVISOR_TODAY=TODAY, GPUADVISOR_PROMETHEUS_URLS="http://127.0.0.1:9")
    proc = subprocess.Popen([cli_path, "serve", "--port", "0", "--threads", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    line = proc.stdout.readline()
    url = next(w for w in line.split() if w.startswith("http://")).rstrip("/")
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def catalog():
    os.environ["GPUADVISOR_TODAY"] = TODAY
    return ga.Catalog()


def answer_of(data, command):
    if command == "idle" and isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "files"}  # names the upload or the path
    if command == "commitments" and isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "source"}  # names the upload or the path
    return ("ok", data)


def error_of(code, field, message):
    # Each front end spells the field its message names first its own way: "--min-gpus: ..."
    # (CLI), "min-gpus: ..." (HTTP), "min_gpus: ..." (Python); the rest is the same text.
    message = message.lstrip("-")
    if field:
        snake = field.replace("-", "_")
        if message.startswith(snake + ":"):
            message = field.replace("_", "-") + message[len(snake):]
    return ("error", code, field, message)


EXIT_CODES = {"no_result": 1, "io_error": 3}


def run_cli(cli_path, workdir, command, options):
    args = [cli_path, command]
    opts = dict(options)
    for key in ("type",):
        if key in opts:
            args.append(opts.pop(key))
    if command in ("estimate", "recommend"):
        args += [f"--{k}={v}" for k, v in WORKLOAD.items()]
    if command == "idle" and "prometheus" not in opts:
        args.append(TELEMETRY)
    if command == "commitments":
        args.append(BILL)
    for k, v in opts.items():
        if k in ("inventory", "bearer-token-file", "basic-auth-file"):
            v = os.path.join(workdir, v)  # the same absolute path as the Python call gets
        args.append(f"--{k}={v}")
    if command != "launch":
        args.append("--json")
    env = dict(os.environ, GPUADVISOR_TODAY=TODAY)
    proc = subprocess.run(args, capture_output=True, text=True, cwd=workdir, env=env, check=False)
    if command == "launch":
        if proc.returncode == 0:
            return ("ok", proc.stdout), proc.returncode
        message = proc.stderr.strip().splitlines()[-1][len("gpuadvisor: "):]
        return ("error-message", message.lstrip("-")), proc.returncode
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    if isinstance(out, dict) and set(out) == {"error"}:
        e = out["error"]
        return error_of(e["code"], e["field"], e["message"]), proc.returncode
    assert proc.returncode in (0, 1), proc.stderr
    return answer_of(out, command), proc.returncode


def run_http(url, command, options):
    opts = dict(options)
    if command in ("instances", "gpus", "show", "idle", "commitments"):
        path = {"instances": "/v1/instances", "gpus": "/v1/gpus", "idle": "/v1/idle",
                "commitments": "/v1/commitments"}.get(command)
        if command == "show":
            path = "/v1/instances/" + urllib.parse.quote(opts.pop("type"))
        req = urllib.request.Request(url + path + "?" + urllib.parse.urlencode(opts))
        if command in ("idle", "commitments"):  # the telemetry (the bill) is the body
            data = b""
            if command == "commitments":
                with open(BILL, "rb") as f:
                    data = f.read()
            elif "prometheus" not in opts:
                with open(TELEMETRY, "rb") as f:
                    data = f.read()
            # A declared type: the server refuses form and text bodies (cross-site guard).
            req = urllib.request.Request(req.full_url, data=data, method="POST",
                                         headers={"Content-Type": "text/csv"})
    else:
        body = dict(opts)
        if command in ("estimate", "recommend"):
            body.update(WORKLOAD)
        req = urllib.request.Request(url + "/v1/" + command, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            status, data = r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        status, data = e.code, json.loads(e.read())
    if status != 200:
        err = data["error"]
        return error_of(err["code"], err["field"], err["message"]), status
    if command == "launch":
        return ("ok", data["document"]), status
    return answer_of(data, command), status


def run_python(catalog, workdir, command, options):
    kwargs = {py_name(k): v for k, v in options.items()}
    for k in ("inventory", "bearer_token_file", "basic_auth_file"):
        if k in kwargs:
            kwargs[k] = os.path.join(workdir, kwargs[k])
    if kwargs.get("account", "none") != "none":  # a scan file (test_option_effects)
        kwargs["account"] = os.path.join(workdir, kwargs["account"])
    try:
        if command == "instances":
            result = catalog.instances(**kwargs).to_dict()
        elif command == "gpus":
            result = catalog.gpus(**kwargs).to_dict()
        elif command == "show":
            result = catalog.show(kwargs.pop("type"), **kwargs).to_dict()
        elif command == "pricing":
            result = ga.pricing(kwargs.pop("type"), catalog=catalog, **kwargs).to_dict()
        elif command == "estimate":
            w = ga.Workload(**WORKLOAD)
            result = ga.estimate(w, catalog=catalog, **kwargs).to_dict()
        elif command == "recommend":
            w = ga.Workload(**WORKLOAD)
            result = ga.recommend(w, catalog=catalog, **kwargs).to_dict()
        elif command == "idle":
            result = ga.idle([] if "prometheus" in kwargs else [TELEMETRY], catalog=catalog,
                             **kwargs).to_dict()
        elif command == "commitments":
            result = ga.commitments([BILL], catalog=catalog, **kwargs).to_dict()
        else:
            result = ga.launch(kwargs.pop("type", None), catalog=catalog, **kwargs)["document"]
    except ga.Error as e:
        field = e.field.replace("_", "-") if e.field else None
        return error_of(e.code, field, str(e))
    return answer_of(result, command)


def offered(command, name):
    for o in table(command):
        if o["name"].replace("_", "-") == name:
            return o["front_ends"]
    return ["cli", "http", "python"]  # an unknown option: refused by all three


@pytest.mark.parametrize("command,name,value", list(cases()))
def test_same_answer_everywhere(command, name, value, cli_path, server, catalog, workdir):
    options = dict(BASE.get(command, {}))
    options[name] = value
    fronts = offered(command, name)
    results = {}
    if "cli" in fronts:
        results["cli"], rc = run_cli(cli_path, workdir, command, options)
        if results["cli"][0] == "error":
            assert rc == EXIT_CODES.get(results["cli"][1], 2), results["cli"]
    if "http" in fronts:
        results["http"], status = run_http(server, command, options)
    if "python" in fronts:
        results["python"] = run_python(catalog, workdir, command, options)
    # An option a front end does not offer (a file on the server's disk) is unknown there.
    for front in {"cli", "http", "python"} - set(fronts):
        if front == "http":
            res, status = run_http(server, command, options)
            assert res[:3] == ("error", "invalid_argument", name), res
    if command == "launch" and "cli" in results and results["cli"][0] == "error-message":
        # launch prints a document, not JSON: the CLI failed too, and the others agree on the
        # code and field (the CLI's message names its own plan flag, --from-plan).
        others = [r for f, r in results.items() if f != "cli"]
        assert all(r[0] == "error" and r[:3] == others[0][:3] for r in others), results
        return
    values = list(results.values())
    if name == "bogus-option":  # each message quotes the key as that front end spelled it
        values = [v[:3] for v in values]
    assert all(v == values[0] for v in values), json.dumps(results, indent=1)[:3000]
    if values[0][0] == "error" and name != "bogus-option" and values[0][1] == "invalid_argument":
        assert values[0][2] == name, values[0]  # a bad option names itself
