#!/usr/bin/env python3
"""Latency of GET /healthz while IDLE connections sit open and send nothing (issue 16).

Starts `gpuadvisor serve --threads THREADS` on 127.0.0.1, keeps IDLE sockets connected and silent
(re-opening any the server closes, so the pressure lasts), and times REQUESTS sequential
/healthz requests on fresh connections. Prints p50 / p99 / max in milliseconds. Each request
gives up after 30 s and the whole run after 120 s (counted as a timeout, not a latency).

Usage: bench/http_idle.py PATH/TO/gpuadvisor [IDLE=64] [REQUESTS=200] [THREADS=16]
Not a ctest: timings belong in bench/, never in assertions.
"""
import re
import socket
import subprocess
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.setblocking(False)
    return s


def alive(s):
    try:
        return s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def healthz(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
              .encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.startswith(b"HTTP/1.1 200")


def main():
    binary = sys.argv[1]
    idle = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 16
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--threads", str(threads)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline()).group(1))
        socks = [connect(port) for _ in range(idle)]
        times, failures, start = [], 0, time.monotonic()
        for _ in range(requests):
            socks = [s if alive(s) else connect(port) for s in socks]
            t0 = time.monotonic()
            try:
                ok = healthz(port)
            except OSError:
                ok = False
            if ok:
                times.append((time.monotonic() - t0) * 1000)
            else:
                failures += 1
            if time.monotonic() - start > 120:
                break
        times.sort()
        pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] if times else float("nan")
        print(f"/healthz with {idle} idle connections, {threads} worker threads: "
              f"{len(times)} answered, {failures} failed or timed out; "
              f"p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms, max {pick(1.0):.2f} ms")
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
