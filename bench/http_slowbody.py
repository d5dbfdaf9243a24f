#!/usr/bin/env python3
"""GET /healthz while SLOW sockets from 127.0.0.1 each hold a half-sent POST body (the slow-body
finding of the transport security issue: 1,024 of them used to lock every other client out).

Starts `gpuadvisor serve` on 127.0.0.1, opens SLOW sockets that send a POST head with
Content-Length: 100000 and then one body byte every 2 s, then times REQUESTS sequential
/healthz requests on fresh connections (same address as the attackers). Prints how many were
answered 200, the other statuses, and p50 / p99 / max latency in milliseconds; the server's RSS.

Usage: bench/http_slowbody.py PATH/TO/gpuadvisor [SLOW=1024] [REQUESTS=50]
Not a ctest: timings belong in bench/, never in assertions (the ctest is SlowBodyFloodTest).
"""
import re
import socket
import subprocess
import sys
import time


def main():
    binary = sys.argv[1]
    slow = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    server = subprocess.Popen([binary, "serve", "--port", "0", "--threads", "4"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
        head = (b"POST /v1/recommend HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        socks = []
        for _ in range(slow):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(head)
                s.setblocking(False)
                socks.append(s)
            except OSError:
                break
        time.sleep(0.5)
        statuses, times = {}, []
        last_drip = time.time()
        for _ in range(requests):
            if time.time() - last_drip > 2:
                for s in socks:
                    try:
                        s.send(b" ")
                    except OSError:
                        pass
                last_drip = time.time()
            start = time.time()
            status = "error"
            try:
                c = socket.create_connection(("127.0.0.1", port), timeout=10)
                c.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                data = c.recv(64)
                status = data[9:12].decode() if data.startswith(b"HTTP/1.1 ") else "closed"
                c.close()
            except OSError:
                status = "timeout/refused"
            times.append((time.time() - start) * 1000)
            statuses[status] = statuses.get(status, 0) + 1
        times.sort()
        rss = [l for l in open(f"/proc/{server.pid}/status") if l.startswith("VmRSS")][0].split()[1]
        print(f"/healthz with {len(socks)} slow-body sockets: {statuses}; p50 {times[len(times) // 2]:.2f} ms, "
              f"p99 {times[int(len(times) * 0.99)]:.2f} ms, max {times[-1]:.2f} ms; server RSS {rss} KiB")
        for s in socks:
            s.close()
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
