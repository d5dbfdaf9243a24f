#!/usr/bin/env python3
"""A synthetic DCGM-exporter fleet, written twice from the same readings.

--openmetrics: OpenMetrics text (seconds timestamps, `# EOF`) for
  `promtool tsdb create-blocks-from openmetrics` (families, then series, then time).
--text: Prometheus text exposition with millisecond timestamps, scrape by scrape, as
  `gpuadvisor idle FILE` reads it.

Readings are a pure function of (GPU, minute), so both passes agree without holding the fleet in
memory. Host kinds cycle: office hours (busy 08:00-20:00 UTC), one GPU of N busy, always busy,
always idle, bursty (busy 15 min of every 60). Phases change on 5-minute boundaries. Host 1 has a
3-hour gap on its first day; the last host has no Hostname label (named by `instance`).
"""
import argparse
import gzip
import sys

METRICS = ("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
           "DCGM_FI_DEV_POWER_USAGE")
MODELS = (("NVIDIA H100 80GB HBM3", 81559), ("NVIDIA L4", 23034), ("NVIDIA A10G", 23028))
KINDS = ("office", "one-busy", "busy", "idle", "bursty")


def mix(a, b):
    return (a * 1000003 + b * 7919 + (a ^ b) * 31) % 1009


class Fleet:
    def __init__(self, a):
        self.a = a
        self.start = a.end - a.hours * 3600
        self.start -= self.start % a.interval
        self.gpus = []  # (host index, gpu index, labels, model total MiB)
        for h in range(a.hosts):
            model, total = MODELS[h % len(MODELS)] if a.mixed else MODELS[0]
            for g in range(a.gpus):
                uuid = "GPU-%08x-0000-4000-8000-%012x" % (h, g)
                host = 'Hostname="host-%03d"' % h
                if h == a.hosts - 1 and a.hosts > 1:
                    host = 'instance="10.0.%d.%d:9400"' % (h // 250, h % 250 + 1)
                labels = '%s,UUID="%s",device="nvidia%d",gpu="%d",job="dcgm",modelName="%s"' % (
                    host, uuid, g, g, model)
                self.gpus.append((h, g, labels, total))

    def times(self):
        return range(self.start, self.a.end + 1, self.a.interval)

    def reading(self, h, g, t):
        """(util %, used MiB, total MiB, watts) or None for a gap."""
        if h == 1 and self.start + 6 * 3600 <= t < self.start + 9 * 3600:
            return None
        minute = t // 60
        kind = KINDS[h % len(KINDS)]
        hour = (t % 86400) / 3600
        if kind == "office":
            busy = 8 <= hour < 20
        elif kind == "one-busy":
            busy = g == 0
        elif kind == "busy":
            busy = True
        elif kind == "idle":
            busy = False
        else:
            busy = (minute % 60) < 15
        n = mix(h * 64 + g, minute)
        total = self.gpus[h * self.a.gpus + g][3]
        if busy:
            return (40 + n % 60, total // 2 + n % 4096, total, 250 + n % 200)
        return (n % 4, 450 + n % 16, total, 60 + n % 10)


def write_openmetrics(f, out):
    for m, metric in enumerate(METRICS):
        out.write("# TYPE %s gauge\n" % metric)
        for h, g, labels, _ in f.gpus:
            for t in f.times():
                r = f.reading(h, g, t)
                if r is None:
                    continue
                v = r[0] if m == 0 else (r[1] if m == 1 else (r[2] - r[1] if m == 2 else r[3]))
                out.write("%s{%s} %g %d\n" % (metric, labels, v, t))
    out.write("# EOF\n")


def write_text(f, out):
    for t in f.times():
        for h, g, labels, _ in f.gpus:
            r = f.reading(h, g, t)
            if r is None:
                continue
            ms = t * 1000
            out.write("DCGM_FI_DEV_GPU_UTIL{%s} %g %d\n" % (labels, r[0], ms))
            out.write("DCGM_FI_DEV_FB_USED{%s} %g %d\n" % (labels, r[1], ms))
            out.write("DCGM_FI_DEV_FB_FREE{%s} %g %d\n" % (labels, r[2] - r[1], ms))
            out.write("DCGM_FI_DEV_POWER_USAGE{%s} %g %d\n" % (labels, r[3], ms))


def open_out(path):
    if path.endswith(".gz"):
        return gzip.open(path, "wt", compresslevel=1)
    return open(path, "w", buffering=1 << 20)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hosts", type=int, default=5)
    p.add_argument("--gpus", type=int, default=4, help="GPUs per host")
    p.add_argument("--hours", type=int, default=48)
    p.add_argument("--interval", type=int, default=60, help="scrape interval, s")
    p.add_argument("--end", type=int, required=True, help="last reading, Unix s (aligned)")
    p.add_argument("--mixed", action="store_true", help="H100, L4 and A10G hosts")
    p.add_argument("--openmetrics")
    p.add_argument("--text")
    a = p.parse_args()
    a.end -= a.end % 300
    f = Fleet(a)
    if a.openmetrics:
        with open_out(a.openmetrics) as out:
            write_openmetrics(f, out)
    if a.text:
        with open_out(a.text) as out:
            write_text(f, out)
    print("%d hosts, %d GPUs, %d readings each, %d..%d" %
          (a.hosts, len(f.gpus), len(f.times()), f.start, a.end), file=sys.stderr)


if __name__ == "__main__":
    main()
