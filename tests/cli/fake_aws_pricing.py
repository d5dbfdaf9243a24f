#!/usr/bin/env python3
"""A local stand-in for AWS's public price-list and spot-advisor hosts (`catalog update` tests).

Serves, under one base URL, the paths `gpuadvisor catalog update --endpoint URL` reads:
  /offers/v1.0/aws/AmazonEC2/current/region_index.json   the region index (real shape:
      {formatVersion, disclaimer, publicationDate, regions: {code: {regionCode, currentVersionUrl}}})
  /offers/v1.0/aws/AmazonEC2/current/<region>/index.csv  a regional EC2 offer file in the real CSV
      format: 5 metadata lines ("Publication Date", "Version"), the 91-column header (taken from
      tests/catalog/fixtures/price-list-p5.csv), then rows: the canonical Linux on-demand and
      1-year standard no-upfront RI rows of a few GPU types, plus decoys the importer must skip
      (Windows, dedicated tenancy, $0 terms) and, with --pad-rows N, N decoy c6i rows (size)
  /offers/v1.0/cn/AmazonEC2/current/<cn-north-1|cn-northwest-1>/index.csv  AWS China's offer
      files: the same format, Currency CNY
  /spot-advisor-data.json  the spot-advisor feed (real shape: ranges, instance_types,
      spot_advisor{region: {Linux: {type: {s, r}}}}), with the real negative-savings entry
      (p5.48xlarge in ca-central-1, s = -62), served with Last-Modified
Every answer has an ETag (and Last-Modified); If-None-Match / If-Modified-Since that match get
304. A request in absolute form (GET http://host/path, as a client sends to its proxy) is
served too and logged as proxied.

Faults come from --faults FILE, re-read on every request, one per line: `SUBSTRING MODE COUNT`:
the first COUNT requests (or `always`) whose path contains SUBSTRING get MODE:
  500 | 503 | 429 (with Retry-After: 0) | slow (half the body, then 1 byte per second)
  | truncate (Content-Length of the whole, half the body, then the connection closes).
A line `price-factor X` multiplies every price (and so changes the ETags).
Each request is appended to --log FILE as `METHOD PATH STATUS BYTES [proxy]`.
The chosen port is written to --port-file once listening.
"""
import argparse
import email.utils
import hashlib
import http.server
import json
import os
import socketserver
import sys
import threading
import time

OFFERS = "/offers/v1.0/aws/AmazonEC2/current"
# AWS China's price list: the same files under /offers/v1.0/cn/, priced in CNY (the real host is
# pricing.cn-north-1.amazonaws.com.cn); its regions sell a few of the types, at about 7x the USD
# figure.
OFFERS_CN = "/offers/v1.0/cn/AmazonEC2/current"
CHINA = {"cn-north-1": "China (Beijing)", "cn-northwest-1": "China (Ningxia)"}
CHINA_TYPES = {"g5.xlarge", "p4d.24xlarge"}
REGION_NAMES = {
    "us-east-1": "US East (N. Virginia)", "us-west-2": "US West (Oregon)",
    "eu-west-1": "EU (Ireland)", "eu-central-1": "EU (Frankfurt)",
    "ap-northeast-1": "Asia Pacific (Tokyo)", "ca-central-1": "Canada (Central)",
}
# (type, on-demand $/h in us-east-1, 1y standard no-upfront RI $/h); other regions scale these.
TYPES = [("p5.48xlarge", 49.75, 31.10), ("p5.4xlarge", 6.19, 3.90), ("g6.xlarge", 0.7512, 0.4733),
         ("g5.xlarge", 0.9611, 0.6055), ("p4d.24xlarge", 20.48, 12.90)]
REGION_SCALE = {"us-east-1": 1.0, "us-west-2": 1.0, "eu-west-1": 1.12, "eu-central-1": 1.15,
                "ap-northeast-1": 1.24, "ca-central-1": 1.08}


def header_line(repo_root):
    path = os.path.join(repo_root, "tests", "catalog", "fixtures", "price-list-p5.csv")
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()[5]


class Data:
    def __init__(self, args, repo_root):
        self.args = args
        self.columns = [c.strip('"') for c in header_line(repo_root).split('","')]
        self.header = header_line(repo_root)

    def row(self, **cells):
        out = []
        for c in self.columns:
            v = cells.get(c, "")
            out.append('"%s"' % v if v != "" else "")
        return ",".join(out)

    def offer_csv(self, region, factor):
        a = self.args
        version = a.publication_date.replace("-", "").replace(":", "").replace("T", "")[:14]
        lines = ['"FormatVersion","v1.0"',
                 '"Disclaimer","This pricing list is for informational purposes only."',
                 '"Publication Date","%s"' % a.publication_date, '"Version","%s"' % version,
                 '"OfferCode","AmazonEC2"', self.header]
        china = region in CHINA
        scale = (7.0 if china else REGION_SCALE.get(region, 1.1)) * factor
        base = dict(Location=CHINA.get(region) or REGION_NAMES.get(region, region),
                    **{"Location Type": "AWS Region"},
                    **{"Region Code": region, "Product Family": "Compute Instance",
                       "serviceCode": "AmazonEC2", "Currency": "CNY" if china else "USD", "Unit": "Hrs",
                       "CapacityStatus": "Used", "Pre Installed S/W": "NA",
                       "License Model": "No License required", "operation": "RunInstances",
                       "MarketOption": "OnDemand", "StartingRange": "0", "EndingRange": "Inf",
                       "EffectiveDate": a.publication_date[:10]})
        for i, (t, od, ri) in enumerate(TYPES):
            if china and t not in CHINA_TYPES:
                continue
            sku = "FAKE%s%03d" % (region.replace("-", "").upper()[:8], i)
            common = dict(base, SKU=sku, **{"Instance Type": t, "Tenancy": "Shared",
                                           "Operating System": "Linux"})
            lines.append(self.row(**common, OfferTermCode="JRTCKXETXF", TermType="OnDemand",
                                  PricePerUnit="%.10f" % (od * scale),
                                  PriceDescription="$%.4f per On Demand Linux %s Instance Hour"
                                  % (od * scale, t)))
            lines.append(self.row(**common, OfferTermCode="4NA7Y494T4", TermType="Reserved",
                                  PricePerUnit="%.10f" % (ri * scale), LeaseContractLength="1yr",
                                  PurchaseOption="No Upfront", OfferingClass="standard",
                                  PriceDescription="Linux/UNIX (Amazon VPC), %s reserved" % t))
            # Decoys the canonical-row rule must skip.
            lines.append(self.row(**dict(common, **{"Operating System": "Windows"}),
                                  OfferTermCode="JRTCKXETXF", TermType="OnDemand",
                                  PricePerUnit="%.10f" % (od * scale * 1.6)))
            lines.append(self.row(**dict(common, Tenancy="Dedicated"), OfferTermCode="JRTCKXETXF",
                                  TermType="OnDemand", PricePerUnit="%.10f" % (od * scale * 1.1)))
        for i in range(a.pad_rows):
            lines.append(self.row(**base, SKU="PAD%012d" % i, OfferTermCode="JRTCKXETXF",
                                  TermType="OnDemand", **{"Instance Type": "c6i.large",
                                                          "Tenancy": "Shared",
                                                          "Operating System": "Windows"},
                                  PricePerUnit="0.1880000000",
                                  PriceDescription="$0.188 per On Demand Windows c6i.large "
                                                   "Instance Hour, padding row %d" % i))
        return ("\n".join(lines) + "\n").encode()

    def region_index(self):
        regions = {r: {"regionCode": r,
                       "currentVersionUrl": "/offers/v1.0/aws/AmazonEC2/20261201000000/%s/index.json" % r}
                   for r in self.args.regions.split(",")}
        # A Local Zone entry, as the real index has: not a region code, left out.
        regions["us-east-1-atl-1"] = {"regionCode": "us-east-1-atl-1", "currentVersionUrl":
                                      "/offers/v1.0/aws/AmazonEC2/20261201000000/us-east-1-atl-1/index.json"}
        return json.dumps({"formatVersion": "v1.0", "disclaimer": "For informational purposes only.",
                           "publicationDate": self.args.publication_date,
                           "regions": regions}, indent=2).encode()

    def spot_feed(self, factor):
        ranges = [{"index": 0, "label": "<5%", "dots": 0, "max": 5},
                  {"index": 1, "label": "5-10%", "dots": 1, "max": 11},
                  {"index": 2, "label": "10-15%", "dots": 2, "max": 16},
                  {"index": 3, "label": "15-20%", "dots": 3, "max": 22},
                  {"index": 4, "label": ">20%", "dots": 4, "max": 100}]
        advisor = {}
        for n, r in enumerate(self.args.regions.split(",")):
            advisor[r] = {"Linux": {t: {"s": min(90, int(40 + 10 * i + 5 * n + 20 * (factor - 1))),
                                        "r": (i + n) % 5}
                                    for i, (t, _, _) in enumerate(TYPES)},
                          "Windows": {"g6.xlarge": {"s": 30, "r": 1}}}
        advisor.setdefault("ca-central-1", {"Linux": {}})["Linux"]["p5.48xlarge"] = {"s": -62, "r": 0}
        return json.dumps({"global_rate": "<10%", "ranges": ranges,
                           "instance_types": {t: {"emr": False, "cores": 8, "ram_gb": 32}
                                              for t, _, _ in TYPES},
                           "spot_advisor": advisor}).encode()


class State:
    def __init__(self, args):
        self.args = args
        self.used = {}
        self.lock = threading.Lock()
        self.bodies = {}  # (path, price factor) -> body: large padded files are built once

    def body(self, key, make):
        with self.lock:
            if key not in self.bodies:
                self.bodies[key] = make()
            return self.bodies[key]

    def settings(self):
        faults, factor = [], 1.0
        if self.args.faults and os.path.exists(self.args.faults):
            with open(self.args.faults) as f:
                for line in f:
                    w = line.split()
                    if len(w) == 2 and w[0] == "price-factor":
                        factor = float(w[1])
                    elif len(w) == 3:
                        faults.append(tuple(w))
        return faults, factor

    def fault_for(self, path):
        faults, _ = self.settings()
        with self.lock:
            for f in faults:
                sub, mode, count = f
                if sub not in path:
                    continue
                n = self.used.get(f, 0)
                if count == "always" or n < int(count):
                    self.used[f] = n + 1
                    return mode
        return None


def make_handler(data, state, args):
    pub = time.mktime(time.strptime(args.publication_date[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    last_modified = email.utils.formatdate(pub, usegmt=True)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def log(self, status, size, proxied):
            if args.log:
                with state.lock, open(args.log, "a") as f:
                    f.write("%s %s %d %d%s\n" % (self.command, self.req_path, status, size,
                                                 " proxy" if proxied else ""))

        def do_GET(self):
            proxied = self.path.startswith("http://") or self.path.startswith("https://")
            path = self.path
            if proxied:
                path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
            self.req_path = path
            _, factor = state.settings()
            if path == OFFERS + "/region_index.json":
                body, ctype = data.region_index(), "application/json"
            elif path.startswith(OFFERS + "/") and path.endswith("/index.csv"):
                region = path[len(OFFERS) + 1:-len("/index.csv")]
                if region not in args.regions.split(","):
                    return self.plain(404, b"<Error><Code>NoSuchKey</Code></Error>", proxied)
                body = state.body((path, factor), lambda: data.offer_csv(region, factor))
                ctype = "text/csv"
            elif path.startswith(OFFERS_CN + "/") and path.endswith("/index.csv"):
                region = path[len(OFFERS_CN) + 1:-len("/index.csv")]
                if region not in CHINA:
                    return self.plain(404, b"<Error><Code>NoSuchKey</Code></Error>", proxied)
                body = state.body((path, factor), lambda: data.offer_csv(region, factor))
                ctype = "text/csv"
            elif path == "/spot-advisor-data.json":
                body, ctype = data.spot_feed(factor), "application/json"
            else:
                return self.plain(404, b"not found", proxied)
            etag = '"%s"' % hashlib.md5(body).hexdigest()
            fault = state.fault_for(path)
            if fault in ("500", "503", "429"):
                extra = {"Retry-After": "0"} if fault == "429" else {}
                return self.plain(int(fault), b"<Error><Code>SlowDown</Code></Error>", proxied, extra)
            if (self.headers.get("If-None-Match") == etag or
                    (self.headers.get("If-None-Match") is None and
                     self.headers.get("If-Modified-Since") == last_modified)):
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return self.log(304, 0, proxied)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", last_modified)
            if fault == "truncate":
                self.send_header("Connection", "close")
            self.end_headers()
            half = len(body) // 2
            if fault == "truncate":
                self.wfile.write(body[:half])
                self.wfile.flush()
                self.close_connection = True
                return self.log(200, half, proxied)
            if fault == "slow":
                self.wfile.write(body[:half])
                self.wfile.flush()
                self.log(200, half, proxied)
                try:
                    for b in body[half:]:
                        time.sleep(1)
                        self.wfile.write(bytes([b]))
                        self.wfile.flush()
                except OSError:
                    pass
                self.close_connection = True
                return
            self.wfile.write(body)
            self.log(200, len(body), proxied)

        def plain(self, status, body, proxied, extra=None):
            self.send_response(status)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)
            self.log(status, len(body), proxied)

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    p.add_argument("--regions", default="us-east-1,eu-west-1,us-west-2")
    p.add_argument("--publication-date", default="2026-12-01T00:00:00Z")
    p.add_argument("--pad-rows", type=int, default=0)
    p.add_argument("--faults")
    p.add_argument("--log")
    args = p.parse_args()
    repo_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    data = Data(args, repo_root)
    state = State(args)
    srv = Server(("127.0.0.1", args.port), make_handler(data, state, args))
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(srv.server_address[1]))
        os.rename(args.port_file + ".tmp", args.port_file)
    else:
        print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
