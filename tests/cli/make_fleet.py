"""Writes DIR/fleet.csv: two days of per-minute nvidia-smi CSV samples of five hosts (an idle L40S,
a busy A10G, an L4 idle half the day, an 8 x H100 host with one GPU busy, a T4 with short dips).
Used by tests/cli/idle_test.sh and the `idle fleet.csv` example in README.md (tests/docs).
Usage: make_fleet.py DIR
"""
import sys, datetime
out = sys.argv[1]
start = datetime.datetime(2026, 7, 1)
hosts = {"always-idle": ("NVIDIA L40S", 1), "busy": ("NVIDIA A10G", 1), "half": ("NVIDIA L4", 1),
         "one-of-eight": ("NVIDIA H100 80GB HBM3", 8), "dips": ("Tesla T4", 1)}
def util(h, i, m):
    if h == "always-idle": return 0
    if h == "busy": return 85
    if h == "half": return 0 if m % 1440 < 720 else 70
    if h == "one-of-eight": return 90 if i == 0 else 0
    return 0 if m % 60 < 2 else 60
with open(out + "/fleet.csv", "w") as f:
    f.write("timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n")
    for m in range(2 * 1440):
        t = (start + datetime.timedelta(minutes=m)).strftime("%Y/%m/%d %H:%M:%S.000")
        for h, (name, n) in hosts.items():
            for i in range(n):
                u = util(h, i, m)
                f.write(f"{t}, {h}, {i}, {name}, {u} %, {1000 if u else 0} MiB, 20000 MiB\n")
