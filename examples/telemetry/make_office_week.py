#!/usr/bin/env python3
"""Writes the telemetry sample next to this file: office-week.csv.gz, a week (Monday 2026-11-02
to Monday 2026-11-09, UTC) of nvidia-smi --query-gpu CSV readings every 5 minutes from four hosts:

  train-a100   8 x A100 (p4d.24xlarge): a training job on all eight GPUs that ends Friday 18:00;
               the host then sits idle over the weekend
  dev-l4-1/2   one L4 each (g6.xlarge): developers' boxes, busy weekdays 09:00-18:00, idle
               at night and at weekends
  infer-a10g   one A10G (g5.xlarge): a service at 35-55 %, never idle

and hosts.csv, the inventory naming their types and region. The data are synthetic (made by this
script, not recorded); `gpuadvisor idle examples/telemetry/office-week.csv.gz --inventory
examples/telemetry/hosts.csv` reads them (README.md). `--check` exits 1 when the files here are
not what this script writes (ctest examples_telemetry).
"""
import gzip
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
START = 1793577600  # 2026-11-02T00:00:00Z, a Monday
STEP = 300
HOSTS = [("train-a100", "NVIDIA A100-SXM4-40GB", 8, 40960),
         ("dev-l4-1", "NVIDIA L4", 1, 23034),
         ("dev-l4-2", "NVIDIA L4", 1, 23034),
         ("infer-a10g", "NVIDIA A10G", 1, 23028)]
INVENTORY = ("hostname,instance_type,region,purchase\n"
             "train-a100,p4d.24xlarge,us-east-1,on-demand\n"
             "dev-l4-1,g6.xlarge,us-east-1,on-demand\n"
             "dev-l4-2,g6.xlarge,us-east-1,on-demand\n"
             "infer-a10g,g5.xlarge,us-east-1,on-demand\n")


def util(host, gpu, t):
    day, minute = (t - START) // 86400, (t - START) % 86400 // 60
    if host == "train-a100":
        return 88 + (gpu + minute) % 7 if (day < 4 or (day == 4 and minute < 18 * 60)) else 0
    if host.startswith("dev-"):
        office = day < 5 and 9 * 60 <= minute < 18 * 60
        return (45 + (minute * 7 + len(host)) % 40) if office else 0
    return 35 + (minute * 13) % 21


def csv_text():
    out = io.StringIO()
    out.write("timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], "
              "memory.total [MiB]\n")
    for t in range(START, START + 7 * 86400, STEP):
        for host, name, gpus, total in HOSTS:
            for g in range(gpus):
                u = util(host, g, t)
                used = total * 3 // 4 if u else 0
                out.write(f"{t}, {host}, {g}, {name}, {u} %, {used} MiB, {total} MiB\n")
    return out.getvalue()


def main():
    text = csv_text().encode()
    csv_path, inv_path = os.path.join(HERE, "office-week.csv.gz"), os.path.join(HERE, "hosts.csv")
    if "--check" in sys.argv:
        with gzip.open(csv_path) as f, open(inv_path) as g:
            same = f.read() == text and g.read() == INVENTORY
        print("examples/telemetry: " + ("as make_office_week.py writes them" if same else
              "differ from make_office_week.py: run it and commit the files"))
        return 0 if same else 1
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as z:  # reproducible
        z.write(text)
    with open(csv_path, "wb") as f:
        f.write(buf.getvalue())
    with open(inv_path, "w") as f:
        f.write(INVENTORY)
    return 0


if __name__ == "__main__":
    sys.exit(main())
