#!/usr/bin/env python3
"""Issue 43's attacks together against a real `gpuadvisor serve`, bounds asserted (ctest label
"load": release builds only, a generous ceiling, not a benchmark).

While a normal client (its own address, 127.0.0.2 when the machine lets it bind there) asks
GET /healthz on a fresh connection every 50 ms, for about 30 s:
  - slow readers: 256 sockets with a 4 KB receive buffer ask for a cached multi-MB recommend
    answer and never read it (finding 4: 2.15 GB before);
  - abandoned heavy jobs: waves of uncached all-region recommend requests whose sockets close
    right after sending (finding 5: /healthz waited 193 s);
  - chunk-extension floods: connections sending one endless chunk extension (finding 3: 397 MB
    per connection, bad_alloc with four);
  - connection churn: sockets opened and dropped without a byte (finding 6).
Asserts the server's peak RSS (VmHWM of /proc/PID/status) under --max-rss-mb, the normal
client's p99 under --max-p99-s with at most 1% of its requests failed, and 100 requests after
the attacks all answered; prints the figures.

Usage: tests/server/load_test.py PATH/TO/gpuadvisor [--seconds 30] [--max-rss-mb 600]
       [--max-p99-s 3]
"""
import argparse
import re
import socket
import subprocess
import sys
import threading
import time

BIG = (b'{"task":"serve","model":"llama-3.1-70b","rps":3,"regions":"all","top":1000,'
       b'"explain":true,"max-instances":4096,"purchase":"on-demand,spot,reserved-1y"}')


def heavy(n):
    return (b'{"task":"serve","model":"llama-3.1-70b","rps":%d,"regions":"all","top":1000,'
            b'"max-instances":4096,"purchase":"on-demand,spot,reserved-1y"}' % (n + 1))


def post(port, body, close=True):
    return (b"POST /v1/recommend HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n%s\r\n" %
            (port, len(body), b"Connection: close\r\n" if close else b"")) + body


def connect(port, source=None, rcvbuf=None, timeout=10):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    if source:
        s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def vm(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024  # MB
    return 0


class Probe(threading.Thread):
    """The normal client: GET /healthz on a fresh connection every 50 ms."""

    def __init__(self, port, source):
        super().__init__(daemon=True)
        self.port, self.source = port, source
        self.latencies, self.failures, self.stop = [], 0, False

    def run(self):
        req = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % self.port
        while not self.stop:
            start = time.monotonic()
            try:
                s = connect(self.port, self.source, timeout=15)
                s.sendall(req)
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                s.close()
                if not data.startswith(b"HTTP/1.1 200"):
                    raise OSError(data[:40])
                self.latencies.append(time.monotonic() - start)
            except OSError:
                self.failures += 1
            time.sleep(0.05)


COUNTS = {"slow readers": 0, "abandoned requests": 0, "chunk floods": 0,
          "chunk floods answered 400": 0, "churned sockets": 0}


def slow_readers(port, stop, count=256):
    socks = []
    for _ in range(count):
        try:
            s = connect(port, rcvbuf=4096)
            # Twice, pipelined: the kernel's buffers take the first answer (up to 4 MB on
            # loopback), the second waits in the server.
            s.sendall(post(port, BIG, close=False) * 2)
            socks.append(s)
            COUNTS["slow readers"] += 1
        except OSError:
            pass
    while not stop.is_set():
        time.sleep(0.2)
    for s in socks:
        s.close()


def abandoned_jobs(port, stop):
    n = 0
    while not stop.is_set():
        for _ in range(100):
            try:
                s = connect(port)
                s.sendall(post(port, heavy(n)))
                s.close()
                COUNTS["abandoned requests"] += 1
            except OSError:
                pass
            n += 1
        stop.wait(1.0)


def chunk_floods(port, stop):
    junk = b"e" * 65536
    head = (b"PUT /v1/idle HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"1;flood=" % port)
    while not stop.is_set():
        socks = []
        for _ in range(8):
            try:
                s = connect(port, timeout=2)
                s.sendall(head)
                socks.append(s)
                COUNTS["chunk floods"] += 1
            except OSError:
                pass
        for _ in range(64):  # up to 4 MB each
            for s in list(socks):
                try:
                    s.send(junk)
                except OSError:
                    socks.remove(s)
        for s in socks:
            try:
                s.settimeout(2)
                if s.recv(64).startswith(b"HTTP/1.1 400"):
                    COUNTS["chunk floods answered 400"] += 1
            except OSError:
                pass
            s.close()
        stop.wait(0.5)


def churn(port, stop):
    open_socks = []
    while not stop.is_set():
        try:
            open_socks.append(connect(port, timeout=2))
            COUNTS["churned sockets"] += 1
        except OSError:
            time.sleep(0.01)
        if len(open_socks) > 300:
            open_socks.pop(0).close()
    for s in open_socks:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--max-rss-mb", type=int, default=600)
    ap.add_argument("--max-p99-s", type=float, default=3.0)
    args = ap.parse_args()
    server = subprocess.Popen([args.binary, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
        try:
            s = connect(port, "127.0.0.2")
            s.close()
            source = "127.0.0.2"
        except OSError:
            source = None
        # The cached answer the slow readers ask for, once.
        s = connect(port, timeout=120)
        s.sendall(post(port, BIG))
        first = b""
        while True:
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            first += chunk
        s.close()
        assert first.startswith(b"HTTP/1.1 200"), first[:200]
        answer_mb = len(first) / 1e6
        base_rss = vm(server.pid, "VmRSS")
        probe = Probe(port, source)
        probe.start()
        stop = threading.Event()
        attacks = [threading.Thread(target=f, args=(port, stop), daemon=True)
                   for f in (slow_readers, abandoned_jobs, chunk_floods, churn)]
        for t in attacks:
            t.start()
        peak_rss = 0
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            peak_rss = max(peak_rss, vm(server.pid, "VmRSS"))
            time.sleep(0.2)
            assert server.poll() is None, "serve exited with %s" % server.returncode
        stop.set()
        for t in attacks:
            t.join(20)
        probe.stop = True
        probe.join(20)
        # Afterwards every request is answered (finding 5: 23,201 requests got 503 after a run).
        after_failed = 0
        after_req = (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                     % port)
        for _ in range(100):
            try:
                s = connect(port, timeout=10)
                s.sendall(after_req)
                if not s.recv(64).startswith(b"HTTP/1.1 200"):
                    after_failed += 1
                s.close()
            except OSError:
                after_failed += 1
        hwm = vm(server.pid, "VmHWM")
        lat = sorted(probe.latencies)
        asked = len(lat) + probe.failures
        p50 = lat[len(lat) // 2] if lat else float("inf")
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("inf")
        print("load: cached answer %.1f MB; server RSS before %d MB, peak VmHWM %d MB "
              "(sampled VmRSS peak %d MB)" % (answer_mb, base_rss, hwm, peak_rss))
        print("load: /healthz from %s: %d asked, %d failed, p50 %.3f s, p99 %.3f s, max %.3f s"
              % (source or "127.0.0.1", asked, probe.failures, p50, p99,
                 lat[-1] if lat else float("inf")))
        print("load: attacks: " + ", ".join("%s %d" % kv for kv in COUNTS.items()))
        print("load: after the attacks: %d of 100 /healthz requests failed" % after_failed)
        ok = True
        if after_failed:
            print("FAIL: requests fail after the attacks")
            ok = False
        if hwm > args.max_rss_mb:
            print("FAIL: peak RSS %d MB over %d MB" % (hwm, args.max_rss_mb))
            ok = False
        if p99 > args.max_p99_s:
            print("FAIL: p99 %.3f s over %.1f s" % (p99, args.max_p99_s))
            ok = False
        if asked == 0 or probe.failures > max(1, asked // 100):
            print("FAIL: %d of %d /healthz requests failed" % (probe.failures, asked))
            ok = False
        if server.poll() is not None:
            print("FAIL: serve exited with %s" % server.returncode)
            ok = False
        return 0 if ok else 1
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
