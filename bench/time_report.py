#!/usr/bin/env python3
"""One line of a throughput benchmark from `/usr/bin/time -v` output: wall and CPU time, MB/s of
BYTES per wall second and per CPU second, peak RSS. Shared by bench/import_throughput.sh and
bench/cur_throughput.sh.

    time_report.py LABEL BYTES TIME_V_OUTPUT_FILE
"""
import re
import sys

label, size, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t = open(path).read()


def get(key):
    return re.search(re.escape(key) + r":\s*(\S+)", t).group(1)


wall = get("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
cpu = float(get("User time (seconds)")) + float(get("System time (seconds)"))
rss = int(get("Maximum resident set size (kbytes)")) / 1024
mb = size / 1e6
print(f"{label:<34} {mb:7.0f} MB  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
      f"{mb / wall:6.0f} MB/s wall  {mb / cpu:6.0f} MB/s per core  peak RSS {rss:6.1f} MiB")
