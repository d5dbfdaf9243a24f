#!/usr/bin/env python3
"""Writes an nvidia-smi capture for timing `gpuadvisor idle` end to end (issue 40).

What `nvidia-smi --query-gpu=timestamp,name,pci.bus_id,driver_version,pstate,index,
utilization.gpu,utilization.memory,memory.total,memory.used,memory.free,power.draw,temperature.gpu
--format=csv -l 1` logs on an 8-GPU host: a header, then one row per GPU per second with the units
in the cells ("12 %", "1024 MiB", "70.00 W") and each GPU's row a few milliseconds after the
previous one. Busy two hours in three, idle the third.

Usage: python3 bench/smi_csv_gen.py OUT.csv [MEGABYTES=150]
  then: time build/gpuadvisor idle OUT.csv   (MB/s = MEGABYTES / wall seconds)
Not a ctest: timings belong in bench/, never in assertions.
"""
import sys
import time

HEADER = ("timestamp, name, pci.bus_id, driver_version, pstate, index, utilization.gpu [%], "
          "utilization.memory [%], memory.total [MiB], memory.used [MiB], memory.free [MiB], "
          "power.draw [W], temperature.gpu\n")
START = 1782864000  # 2026-07-01T00:00:00Z


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 150_000_000
    with open(sys.argv[1], "w") as out:
        out.write(HEADER)
        size, s, rows = len(HEADER), 0, []
        while size < target:
            clock = time.strftime("%Y/%m/%d %H:%M:%S", time.gmtime(START + s))
            busy = (s // 3600) % 3 != 0
            for g in range(8):
                util = (s * 7 + g * 13) % 100 if busy else 0
                used = 3 + util * 700
                row = (f"{clock}.{100 + g * 3:03d}, NVIDIA H100 80GB HBM3, "
                       f"00000000:{0x18 + g * 0x10:02X}:00.0, 550.54.15, P0, {g}, {util} %, "
                       f"{util // 2} %, 81559 MiB, {used} MiB, {81559 - used} MiB, "
                       f"{70 + util * 6}.{(s + g) % 100:02d} W, {30 + util // 4}\n")
                rows.append(row)
                size += len(row)
            s += 1
            if len(rows) >= 8192:
                out.write("".join(rows))
                rows = []
        out.write("".join(rows))


if __name__ == "__main__":
    main()
