#!/usr/bin/env python3
"""Issue 41, item 2 (CloudWatch): `gpuadvisor idle --cloudwatch` through the real AWS CLI against
moto (CloudWatch and Auto Scaling), checked against `gpuadvisor idle FILE` on the same synthetic
fleet written as nvidia-smi CSV.

The fleet: three A10G hosts sampled every 10 minutes for 48 h, put into moto as the CloudWatch
agent's nvidia_smi metrics (dimensions host, index, name, InstanceId). gpu-a idles 10 h a day and
has an hour between busy ones whose mean is 4 % but whose busiest reading is 25 % (idle by the
mean, not by the Maximum; with --idle-window 1h its 50 idle minutes do not count in the file
analysis either); gpu-b has one GPU
always busy and one always idle; gpu-c idles 12 h. Two of them are the instances of an Auto
Scaling group. moto's GetMetricData computes Average, Maximum and SampleCount per Period (checked
here through the answers: the idle hours and the readings equal the file's).

Usage: idle_cloudwatch_test.py PATH/TO/gpuadvisor. Exit 77 (skipped) without moto or the AWS CLI.
"""
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

import aws_test_env

REGION = "us-east-1"
START = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)
HOURS = 48
STEP_MIN = 10
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def util(host, index, minute):
    hour, m = divmod(minute, 60)
    if host == "gpu-a":
        if hour % 24 < 10:
            return 1
        if hour % 24 == 11:  # mean 4.2 %, one reading at 25 %: not idle
            return 25 if m == 50 else 0
        return 70
    if host == "gpu-b":
        return 50 if index == 0 else 0
    return 2 if 20 <= hour < 32 else 40


FLEET = {"gpu-a": 1, "gpu-b": 2, "gpu-c": 1}
# The InstanceType dimension: gpu-c's prices it as g5.4xlarge (the file run names it in an
# inventory, so the two reports still agree); gpu-b's names no type of the catalog (a warning,
# and its type is guessed, as in the file run).
INSTANCE_TYPES = {"gpu-c": "g5.4xlarge", "gpu-b": "g5.nosuchsize"}


def samples():
    for minute in range(0, HOURS * 60, STEP_MIN):
        t = START + datetime.timedelta(minutes=minute)
        for host, n in FLEET.items():
            for i in range(n):
                u = util(host, i, minute)
                yield t, host, i, u, 1000.0 if u else 100.0, 23028.0, 60.0 if u else 20.0


def write_file(path):
    with open(path, "w") as f:
        f.write("timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
                "memory.total [MiB], power.draw [W]\n")
        for t, host, i, u, used, total, power in samples():
            f.write(f"{t.strftime('%Y/%m/%d %H:%M:%S.000')}, {host}, {i}, NVIDIA A10G, {u} %, "
                    f"{used} MiB, {total} MiB, {power} W\n")


def start_moto():
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import WSGIRequestHandler, make_server

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    server = make_server("127.0.0.1", 0, DomainDispatcherApplication(create_backend_app),
                         threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def populate(url):
    """The Auto Scaling group (two instances) and the metrics; returns the hosts' instance ids."""
    import boto3
    from botocore.config import Config
    # botocore gzips PutMetricData bodies that moto then cannot read: sent plain.
    kw = dict(endpoint_url=url, region_name=REGION, aws_access_key_id="testing",
              aws_secret_access_key="testing",
              config=Config(disable_request_compression=True, retries={"max_attempts": 1}))
    ec2 = boto3.client("ec2", **kw)
    ami = ec2.describe_images()["Images"][0]["ImageId"]
    asg = boto3.client("autoscaling", **kw)
    asg.create_launch_configuration(LaunchConfigurationName="gpu", ImageId=ami,
                                    InstanceType="g5.xlarge")
    asg.create_auto_scaling_group(AutoScalingGroupName="gpu-fleet", LaunchConfigurationName="gpu",
                                  MinSize=2, MaxSize=2, DesiredCapacity=2,
                                  AvailabilityZones=[REGION + "a"])
    members = [i["InstanceId"] for i in asg.describe_auto_scaling_groups(
        AutoScalingGroupNames=["gpu-fleet"])["AutoScalingGroups"][0]["Instances"]]
    other = ec2.run_instances(ImageId=ami, InstanceType="g5.xlarge", MinCount=1,
                              MaxCount=1)["Instances"][0]["InstanceId"]
    ids = {"gpu-a": members[0], "gpu-b": members[1], "gpu-c": other}
    cw = boto3.client("cloudwatch", **kw)
    data = []
    for t, host, i, u, used, total, power in samples():
        dims = [{"Name": "host", "Value": host}, {"Name": "index", "Value": str(i)},
                {"Name": "name", "Value": "NVIDIA A10G"}, {"Name": "InstanceId", "Value": ids[host]}]
        if host in INSTANCE_TYPES:  # the agent's append_dimensions
            dims.append({"Name": "InstanceType", "Value": INSTANCE_TYPES[host]})
        for name, value, unit in (("nvidia_smi_utilization_gpu", u, "Percent"),
                                  ("nvidia_smi_memory_used", used, "Megabytes"),
                                  ("nvidia_smi_memory_total", total, "Megabytes"),
                                  ("nvidia_smi_power_draw", power, "None")):
            data.append({"MetricName": name, "Dimensions": dims, "Timestamp": t, "Value": value,
                         "Unit": unit})
    for k in range(0, len(data), 1000):
        cw.put_metric_data(Namespace="CWAgent", MetricData=data[k:k + 1000])
    # Another namespace's series and another metric are not GPUs of the fleet.
    cw.put_metric_data(Namespace="Other", MetricData=[{"MetricName": "nvidia_smi_utilization_gpu",
                                                       "Value": 1, "Timestamp": START}])
    return ids


# first_sample and last_sample differ (the file's last reading is at 47:50, CloudWatch's last hour
# starts at 47:00), and p95_util_pct is over readings in one, hourly means in the other.
FIELDS = ("hours_covered", "idle_hours", "idle_fraction", "idle_period_count",
          "longest_idle_hours", "idle_periods", "gpu_idle_hours", "gpus", "gpus_busy", "status",
          "instance_type", "mem_used_max_gib", "mem_total_gib", "wasted_usd", "samples")


def hosts_of(stdout):
    report = json.loads(stdout)
    return {h["host"]: h for h in report["instances"]}, report


def main():
    binary = os.path.abspath(sys.argv[1])
    why = aws_test_env.missing()
    if why:
        print(f"idle_cloudwatch_test: SKIPPED: {why}")
        return 77
    tmp = tempfile.mkdtemp(prefix="gpuadvisor-idle-cw-")
    server, url = start_moto()
    try:
        ids = populate(url)
        env = aws_test_env.clean_env(tmp, "2026-11-10")
        env["GPUADVISOR_CATALOG"] = "embedded"

        def run(*args):
            return subprocess.run([binary, "idle", *args], env=env, capture_output=True, text=True,
                                  timeout=300)

        until = (START + datetime.timedelta(hours=HOURS)).strftime("%Y-%m-%dT%H:%M:%SZ")
        cw = ["--cloudwatch", "--region", REGION, "--endpoint-url", url, "--since", f"{HOURS}h",
              "--until", until, "--idle-window", "1h", "--json"]
        fleet_csv = os.path.join(tmp, "fleet.csv")
        write_file(fleet_csv)
        inventory = os.path.join(tmp, "hosts.csv")
        with open(inventory, "w") as inv:
            inv.write(f"hostname,instance_type,region\ngpu-c,g5.4xlarge,{REGION}\n")
        f = run(fleet_csv, "--idle-window", "1h", "--inventory", inventory, "--json")
        check(f.returncode == 0, f"file: exit 0 ({f.returncode}: {f.stderr})")
        r = run(*cw)
        check(r.returncode == 0, f"cloudwatch: exit 0 ({r.returncode}: {r.stderr})")
        if f.returncode or r.returncode:
            return 1
        by_file, file_report = hosts_of(f.stdout)
        by_cw, cw_report = hosts_of(r.stdout)
        check(sorted(by_cw) == sorted(FLEET), f"every host of the namespace: {sorted(by_cw)}")
        for host in FLEET:
            a, b = by_file.get(host, {}), by_cw.get(host, {})
            check(sorted(a) == sorted(b), f"{host}: the same report shape: {sorted(a)} / {sorted(b)}")
            for k in FIELDS:
                check(a.get(k) == b.get(k), f"{host}: {k} file {a.get(k)} == cloudwatch {b.get(k)}")
            check(abs(a.get("avg_util_pct", 0) - b.get("avg_util_pct", -1)) < 1e-6,
                  f"{host}: mean utilisation {a.get('avg_util_pct')} / {b.get('avg_util_pct')}")
            check(a.get("recommendation") == b.get("recommendation"), f"{host}: the same advice")
        # The expected figures, so that both cannot be wrong alike: gpu-a's hour with a 25 %
        # reading is not idle (its mean, 4.2 %, is under the threshold).
        check(by_cw["gpu-a"]["idle_hours"] == 20, f"gpu-a idle 2 x 10 h: {by_cw['gpu-a']['idle_hours']}")
        check(by_cw["gpu-b"]["idle_hours"] == 0 and by_cw["gpu-b"]["gpu_idle_hours"] == 48,
              f"gpu-b: one GPU idle 48 h, the host never: {by_cw['gpu-b']}")
        check(by_cw["gpu-c"]["idle_hours"] == 12, f"gpu-c idle 12 h: {by_cw['gpu-c']['idle_hours']}")
        check(by_cw["gpu-c"]["instance_type"] == "g5.4xlarge" and not by_cw["gpu-c"]["type_guessed"]
              and "InstanceType" in by_cw["gpu-c"]["type_note"],
              f"gpu-c priced by its InstanceType dimension: {by_cw['gpu-c']}")
        check(by_cw["gpu-a"]["type_guessed"] and by_cw["gpu-b"]["type_guessed"],
              "gpu-a (no dimension) and gpu-b (a type the catalog lacks) guessed")
        check("gpu-b: InstanceType g5.nosuchsize is not in the catalog" in r.stderr,
              f"the unknown InstanceType is named: {r.stderr}")
        check(by_cw["gpu-a"]["samples"] == HOURS * 60 // STEP_MIN,
              f"gpu-a: SampleCount readings {by_cw['gpu-a']['samples']}")
        check(set(cw_report) == set(file_report), f"report keys {set(cw_report) ^ set(file_report)}")
        check(cw_report["total_wasted_usd"] == file_report["total_wasted_usd"],
              f"total wasted {cw_report['total_wasted_usd']} / {file_report['total_wasted_usd']}")
        # moto lists a series once per datapoint, 500 a page: the listing is paged (NextToken).
        check(re.search(r"4 GPUs on 3 hosts, us-east-1, 48 h from 2026-11-01T00:00:00Z: "
                        r"[2-9] list-metrics and 1 get-metric-data calls, 28 metrics requested",
                        r.stderr), f"the note counts the calls and metrics: {r.stderr}")

        # The Auto Scaling group: its two instances (InstanceId dimension).
        r = run(*cw, "--asg", "gpu-fleet")
        check(r.returncode == 0, f"--asg: exit 0 ({r.returncode}: {r.stderr})")
        if r.returncode == 0:
            check(sorted(hosts_of(r.stdout)[0]) == ["gpu-a", "gpu-b"], f"--asg: {r.stdout[:300]}")
        r = run(*cw, "--instance-ids", ids["gpu-c"])
        check(r.returncode == 0 and sorted(hosts_of(r.stdout)[0]) == ["gpu-c"],
              f"--instance-ids: only gpu-c ({r.returncode}: {r.stderr})")
        r = run(*cw, "--instance-ids", f"{ids['gpu-c']},i-0123456789abcdef0")
        check(r.returncode == 0 and "no nvidia_smi_utilization_gpu series with InstanceId "
              "i-0123456789abcdef0" in r.stderr, f"an instance without series is named: {r.stderr}")

        # Bad input: one line naming the option, exit 2; nothing found: exit 1.
        for args, name in ((["--instance-ids", "i-xyz"], "--instance-ids"),
                           (["--cloudwatch-namespace", "a\nb"], "--cloudwatch-namespace"),
                           (["--since", "500d"], "--since")):
            r = run(*cw, *args)
            check(r.returncode == 2 and r.stderr.startswith(f"gpuadvisor: {name}:")
                  and r.stderr.count("\n") == 1, f"{args}: exit 2 naming {name} ({r.returncode}: {r.stderr})")
        r = run(fleet_csv, "--asg", "gpu-fleet")
        check(r.returncode == 2 and "--asg: only with cloudwatch" in r.stderr, f"--asg alone: {r.stderr}")
        r = run(fleet_csv, "--cloudwatch")
        check(r.returncode == 2 and "--cloudwatch: one source" in r.stderr, f"file and cloudwatch: {r.stderr}")
        r = run(*cw, "--asg", "no-such-group")
        check(r.returncode == 1 and "no-such-group" in r.stderr, f"unknown group: exit 1 ({r.returncode}: {r.stderr})")
        r = run(*cw, "--cloudwatch-namespace", "Empty")
        check(r.returncode == 1 and "no nvidia_smi_utilization_gpu series in namespace Empty" in r.stderr,
              f"no series: exit 1 ({r.returncode}: {r.stderr})")
        r = run(*cw[:-1], "--aws-cli", os.path.join(tmp, "no-aws"))
        check(r.returncode == 3 and "AWS CLI" in r.stderr, f"no AWS CLI: exit 3 ({r.returncode}: {r.stderr})")
    finally:
        server.shutdown()
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("idle_cloudwatch_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
