"""Every option of every shared command, and of simulate (CLI-only), changes the answer.

Generated from the option tables like test_frontends.py: each option is given a value other than
its default (EFFECT_SAMPLES, else the sample test_frontends uses) on top of a base request, and
the answer must differ from the base answer. An option that cannot show an effect on such a
request is listed in NO_EFFECT with the reason, and an entry there that does change the answer
fails too (the list only shrinks). One front end suffices: test_frontends.py shows the three
agree. simulate is run through the CLI. The other CLI-only commands write files or run servers
(catalog build/import/upgrade, serve, watch): their options are exercised by tests/cli/*.sh,
which tests/cli/options_covered.py keeps complete.
"""
import json
import re
import subprocess
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from test_frontends import BASE, COMMANDS, run_python, sample, table
from test_frontends import catalog, workdir  # noqa: F401  (fixtures)

# Values with a visible effect where the generic sample is the default or shows nothing.
EFFECT_SAMPLES = {
    ("instances", "include-retired"): "true",
    ("instances", "min-gpus"): "8",
    ("instances", "min-gpu-memory"): "80",
    ("instances", "max-price"): "5",
    ("instances", "columns"): "type,gpus",
    ("instances", "min-total-gpu-memory"): "640",
    ("instances", "purchase"): "spot",
    ("instances", "sort"): "usd_per_gpu_hour:desc",
    ("pricing", "region"): "us-west-2",
    # The embedded catalog prices 1-year RIs only: a 3-year term finds no commitment.
    ("commitments", "term"): "3y",
    # The fixture's RI ends 2026-11-30, 344 days after the bill's last hour.
    ("commitments", "expiring-days"): "400",
    ("estimate", "gpus"): "16",
    ("launch", "region"): "us-west-2",
    ("launch", "purchase"): "spot",
    ("launch", "rank"): "2",
    ("launch", "idle-stop-minutes"): "30",
    ("pricing", "storage-gbyte-s"): "0.05",
    ("estimate", "gpu"): "A100",
    ("pricing", "count"): "3",
    ("pricing", "hours-per-month"): "100",
    ("pricing", "months"): "3",
    ("pricing", "hours"): "336",
    ("pricing", "checkpoint-interval"): "4h",
    ("pricing", "restore-time"): "2h",
    ("pricing", "storage-gbyte-s"): "0.5",
    ("pricing", "checkpoint-gib"): "2000",
    ("estimate", "count"): "2",
    ("estimate", "mfu"): "0.2",
    ("recommend", "top"): "2",
    ("recommend", "account"): "account.json",  # plans then carry the account's view
    ("recommend", "budget"): "5",
    ("recommend", "deadline"): "2h",
    ("recommend", "max-instances"): "1",
    ("recommend", "min-gpus"): "8",
    ("recommend", "gpu"): "L40S",
    ("recommend", "family"): "g6e",
    ("idle", "idle-threshold"): "50",
    ("idle", "idle-window"): "1m",
    ("idle", "purchase"): "spot",
    ("idle", "min-rightsizing-span"): "1m",
    ("launch", "count"): "2",
}

# The request an option is tried on where the command's BASE cannot show its effect.
TWO_PLANS = {"plans": [
    {"rank": 1, "instance_type": "g6e.xlarge", "instances": 1, "region": "us-east-1",
     "purchase": "on-demand"},
    {"rank": 2, "instance_type": "g6e.2xlarge", "instances": 2, "region": "us-east-1",
     "purchase": "spot"}]}
EFFECT_BASE = {
    ("instances", "purchase"): {"max-price": "2"},  # spot prices let more types under it
    ("pricing", "storage-gbyte-s"): {"type": "p5.48xlarge", "interruptible": "true",
                                     "checkpoint-gib": "2000", "checkpoint-interval": "1h"},
    ("estimate", "gpu"): {"gpu": "H100", "gpus": "8"},
    ("launch", "rank"): {"plan": TWO_PLANS},
    ("launch", "capacity-reservation-id"): {"type": "p5.48xlarge", "purchase": "capacity-block"},
    ("launch", "idle-stop-minutes"): {"type": "g6e.xlarge", "format": "cloudformation"},
    # A rate only matters where a region prices in CNY: it merges the two currency rankings.
    ("recommend", "fx"): {"top": "1", "max-instances": "2", "regions": "us-east-1,cn-northwest-1"},
}

PROMETHEUS_ONLY = ("since", "until", "selector", "step", "prometheus-max-points",
                   "bearer-token-file", "basic-auth-file", "prometheus-header", "pushdown")
# (command, option): why a change of it cannot show in the answer to the base request.
NO_EFFECT = {
    ("idle", "telemetry-format"): "the sample is the format auto-detection finds; a forced "
    "format is checked by tests/cli/idle_test.sh",
    ("idle", "columns"): "only for header-less nvidia-smi CSV; tests/cli/idle_test.sh reads one",
    ("idle", "host"): "only for telemetry without host names; tests/cli/idle_test.sh gives one",
    ("idle", "max-hosts"): "a bound on memory: the one-host fixture is under any valid bound; "
    "tests/server/api_test.cc checks the refusal over it",
    **{("idle", o): "Prometheus only: test_prometheus_option_reaches_the_server checks it"
       for o in PROMETHEUS_ONLY if o != "pushdown"},
}

# One H100 on one host, idle at 5 % unless the request says otherwise (see util_for).
SERIES = {"__name__": "DCGM_FI_DEV_GPU_UTIL", "Hostname": "box-1", "gpu": "0",
          "UUID": "GPU-1", "modelName": "NVIDIA H100 80GB HBM3"}
AGGREGATES = ("util_avg", "util_max", "count", "used_avg", "used_max", "free_avg", "power_avg")


class FakePrometheus(BaseHTTPRequestHandler):
    """The two endpoints the Prometheus source calls, recording every request it gets."""
    requests = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.answer("")

    def do_POST(self):  # the source sends its parameters as a form
        self.answer(self.rfile.read(int(self.headers.get("Content-Length", 0))).decode())

    def answer(self, form):
        url = urllib.parse.urlparse(self.path)
        q = {k: v[0] for k, v in urllib.parse.parse_qs(url.query + "&" + form).items()}
        FakePrometheus.requests.append((url.path, q, dict(self.headers)))
        if url.path == "/api/v1/series":
            data = [SERIES]
        elif url.path == "/api/v1/query_range":
            start, end, step = float(q["start"]), float(q["end"]), float(q["step"])
            times = [start + i * step for i in range(int((end - start) // step) + 1)]
            value = {"util_avg": "5", "util_max": "9", "count": "1", "used_avg": "1000",
                     "used_max": "2000", "free_avg": "80000", "power_avg": "100",
                     "windows": "24", "h_windows": "24", "h_first": str(int(start)),
                     "h_last": str(int(start))}
            # The aggregates the query names: the window mode's seven, or push-down's (per GPU,
            # per host: Hostname only).
            names = re.findall(r'"gpuadvisor_agg", "(\w+)"', q["query"]) or AGGREGATES
            host = {"Hostname": SERIES["Hostname"]}
            data = {"resultType": "matrix", "result": [
                {"metric": dict(host if a.startswith("h_") else SERIES, gpuadvisor_agg=a),
                 "values": [[t, value.get(a, "1")] for t in times]} for a in names]}
        else:
            self.send_error(404)
            return
        body = json.dumps({"status": "success", "data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def prometheus():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakePrometheus)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


# What each Prometheus option must change in the requests the server receives.
PROMETHEUS_SAMPLES = {
    "since": "2h",
    "until": "2026-08-31T12:00:00Z",
    "selector": '{cluster="a"}',
    "step": "10m",
    "prometheus-max-points": "7",
    "bearer-token-file": "token.txt",
    "basic-auth-file": "auth.txt",
    "prometheus-header": "X-Scope-OrgID: team-a",
    "pushdown": "true",  # other queries (PrometheusPushdownQueries) over whole hours
}
PROMETHEUS_BASE = {"since": "1h", "until": "2026-09-01T00:00:00Z", "step": "5m"}


def sent(requests):
    """The requests as the server saw them, without what changes from run to run."""
    drop = {"Host", "User-Agent", "Accept-Encoding", "Connection", "Content-Length"}
    return [(path, q, {k: v for k, v in h.items() if k not in drop}) for path, q, h in requests]


@pytest.mark.parametrize("name", PROMETHEUS_ONLY)
def test_prometheus_option_reaches_the_server(name, prometheus, catalog, workdir):
    assert set(PROMETHEUS_SAMPLES) == set(PROMETHEUS_ONLY)
    base = dict(PROMETHEUS_BASE, prometheus=prometheus)
    FakePrometheus.requests = []
    before = run_python(catalog, workdir, "idle", base)
    before_sent = sent(FakePrometheus.requests)
    FakePrometheus.requests = []
    after = run_python(catalog, workdir, "idle", dict(base, **{name: PROMETHEUS_SAMPLES[name]}))
    after_sent = sent(FakePrometheus.requests)
    assert before[0] == "ok" and after[0] == "ok", (before, after)
    assert before[1]["instances"][0]["host"] == "box-1"
    assert after_sent != before_sent, f"--{name} changed nothing the server receives"
    headers = after_sent[0][2]
    if name == "bearer-token-file":
        assert headers.get("Authorization") == "Bearer secret", headers
    if name == "basic-auth-file":
        assert headers.get("Authorization") == "Basic dXNlcjpwdw==", headers  # user:pw
    if name == "prometheus-header":
        assert headers.get("X-Scope-OrgID") == "team-a", headers
    if name == "selector":
        assert 'cluster="a"' in after_sent[0][1]["match[]"], after_sent[0]


def base_of(command, name):
    return EFFECT_BASE.get((command, name), BASE.get(command, {}))


def value_for(command, o):
    name = o["name"].replace("_", "-")
    return EFFECT_SAMPLES.get((command, name), sample(command, o))


def effect_cases():
    for command in COMMANDS:
        for o in table(command):
            name = o["name"].replace("_", "-")
            if "python" not in o["front_ends"] or name in base_of(command, name):
                continue
            yield pytest.param(command, name, value_for(command, o), id=f"{command}-{name}")


@pytest.mark.parametrize("command,name,value", list(effect_cases()))
def test_option_changes_the_answer(command, name, value, catalog, workdir, prometheus):
    base = dict(base_of(command, name))
    with_option = dict(base, **{name: value})
    if name == "prometheus":  # a server that answers: the fake one, over the base range
        with_option = dict(PROMETHEUS_BASE, prometheus=prometheus)
    if name == "pushdown":  # refused without a server: the fake one's window mode, then push-down
        base = dict(PROMETHEUS_BASE, prometheus=prometheus)
        with_option = dict(base, pushdown=value)
    before = run_python(catalog, workdir, command, base)
    after = run_python(catalog, workdir, command, with_option)
    assert before[0] == "ok" and after[0] == "ok", (before, after)
    changed = before != after
    if (command, name) in NO_EFFECT:
        assert not changed, f"{command} --{name} now has an effect: remove it from NO_EFFECT"
        return
    assert changed, (f"{command} --{name}={value} leaves the answer unchanged: its effect is "
                     f"untested (give a better value in EFFECT_SAMPLES, or say why in NO_EFFECT)\n"
                     + json.dumps(after, default=str)[:400])


# ---- CLI-only commands with a JSON answer: simulate ----
SIMULATE_BASE = {"instance": "g6e.xlarge", "capacity-rps": "20", "diurnal": "100", "days": "1"}
SIMULATE_SAMPLES = {
    "trace": "trace.csv",
    "diurnal": "300",
    "days": "2",
    "step": "10m",
    "instance": "g5.xlarge",
    "region": "us-west-2",
    "capacity-rps": "40",
    "target-utilization": "0.5",
    "scale-out-cooldown": "1h",
    "scale-in-cooldown": "2h",
    "min-instances": "3",
    "max-instances": "2",
    "boot-time": "1h",
    "spot-share": "0.5",
    "allow-spot": "true",
    "max-missed": "5",
    "no-search": "true",
    "seed": "7",
}
# Where SIMULATE_BASE cannot show an option's effect: what to change it against.
SIMULATE_EFFECT_BASE = {
    # Interruptions are drawn: enough spot instance-hours that some happen.
    "seed": dict(SIMULATE_BASE, **{"spot-share": "0.5", "days": "30", "diurnal": "1000",
                              "no-search": "true"}),
    "trace": {k: v for k, v in SIMULATE_BASE.items() if k != "diurnal"},  # one of the two
}
SIMULATE_NO_EFFECT = {
    "plot": "writes an SVG file and not the answer; tests/cli/simulate_test.sh checks the file",
}


def simulate_cli(cli_path, workdir, options):
    args = [cli_path, "simulate", "--json"] + [f"--{k}={v}" for k, v in options.items()]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=workdir, check=False)
    assert proc.returncode == 0, (args, proc.stderr)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", [o["name"].replace("_", "-") for o in table("simulate")])
def test_simulate_option_changes_the_answer(name, cli_path, workdir):
    assert name in SIMULATE_SAMPLES or name in SIMULATE_NO_EFFECT, f"simulate --{name}: no sample"
    (workdir / "trace.csv").write_text(
        "timestamp,requests_per_s\n" +
        "".join(f"{h * 3600},{10 + 50 * (h % 12)}\n" for h in range(48)))
    if name in SIMULATE_NO_EFFECT:
        return  # the reason is in the table above; --plot is used by simulate_test.sh
    base = SIMULATE_EFFECT_BASE.get(name, SIMULATE_BASE)
    before = simulate_cli(cli_path, workdir, base if name != "trace" else SIMULATE_BASE)
    after = simulate_cli(cli_path, workdir, dict(base, **{name: SIMULATE_SAMPLES[name]}))
    assert before != after, f"simulate --{name}={SIMULATE_SAMPLES[name]} leaves the answer unchanged"
