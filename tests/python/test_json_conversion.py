"""The dicts the module hands out are exactly json.loads of the CLI's --json text (issue 24: the
module walks the library's JSON tree instead of printing and parsing it): same types (an int stays
an int, a float the same double, -0.0 included), same key order, and bytes that are not UTF-8
replaced the way the text does it. `==` alone would miss 1 == 1.0, 0.0 == -0.0 and key order."""
import json
import subprocess

import pytest

import gpuadvisor as ga

from test_gpuadvisor import RECOMMEND_CASES


def tagged(v):
    """`v` with every value's type and exact bits spelled out, dict keys in order."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", v.hex())  # -0.0 and 0.0 differ here
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, list):
        return ("list", [tagged(x) for x in v])
    if isinstance(v, dict):
        return ("dict", [(k, tagged(x)) for k, x in v.items()])
    raise AssertionError(f"unexpected type {type(v).__name__}: {v!r}")


def test_tagged_tells_apart_what_equality_does_not():
    assert tagged(1) != tagged(1.0) and tagged(0.0) != tagged(-0.0)
    assert tagged({"a": 1, "b": 2}) != tagged({"b": 2, "a": 1})
    assert tagged([2**64 - 1, 1e300, 5e-324]) == tagged(
        json.loads("[18446744073709551615,1e300,5e-324]"))


@pytest.mark.parametrize("fields,kwargs,flags", RECOMMEND_CASES)
def test_recommend_dict_is_the_cli_text_exactly(cli_path, fields, kwargs, flags):
    out = subprocess.run([cli_path, "recommend", *flags, "--json"], capture_output=True,
                         check=True).stdout
    rec = ga.recommend(ga.Workload(**fields), **kwargs)
    assert tagged(rec.to_dict()) == tagged(json.loads(out))


def test_estimate_and_catalog_dicts_are_the_cli_text_exactly(cli_path):
    def cli(*args):
        return json.loads(subprocess.run([cli_path, *args, "--json"], capture_output=True,
                                         check=True).stdout)

    e = ga.estimate(ga.Workload(task="finetune", model="llama-3.1-8b", tokens="200M"),
                    instance="p5.48xlarge")
    assert tagged(e.to_dict()) == tagged(cli("estimate", "--task", "finetune", "--model",
                                             "llama-3.1-8b", "--tokens", "200M", "--instance",
                                             "p5.48xlarge"))
    assert tagged(ga.catalog().gpus().to_dict()) == tagged(cli("gpus"))
    assert tagged(ga.catalog().instances(gpu="H100", region="all").to_dict()) == tagged(
        cli("instances", "--gpu", "H100", "--region", "all"))


# Hostnames with bytes that are not UTF-8: a truncated sequence before an ASCII byte, a surrogate,
# an overlong form, a code point past U+10FFFF, a truncated sequence at the end, a lone
# continuation byte; each becomes U+FFFD as the CLI's JSON text writes it.
BAD_HOSTS = [b"a\xe2\x82b", b"s\xed\xa0\x80", b"o\xc0\xaf", b"big\xf4\x90\x80\x80",
             b"end\xf0\x9f\x98", b"c\x80\xbf", b"ok\xc3\xa9"]


def test_idle_strings_not_utf8_are_replaced_as_in_the_text(tmp_path, cli_path):
    f = tmp_path / "hosts.csv"
    rows = [b"timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
            b"memory.total [MiB]\n"]
    for host in BAD_HOSTS:
        for m in range(60):
            rows.append(b"2026/07/01 00:%02d:00.000, " % m + host +
                        b", 0, NVIDIA L4, 0 %, 0 MiB, 20000 MiB\n")
    f.write_bytes(b"".join(rows))
    got = ga.idle(f, idle_window="1m").to_dict()
    out = subprocess.run([cli_path, "idle", str(f), "--idle-window", "1m", "--json"],
                         capture_output=True, check=False).stdout
    want = json.loads(out)
    assert tagged(got) == tagged(want)
    hosts = sorted(i["host"] for i in got["instances"])
    assert hosts == sorted(h.decode("utf-8", "replace") for h in BAD_HOSTS)
