#!/usr/bin/env python3
"""A local Amazon Athena for `gpuadvisor commitments --athena-table` tests, reached by the real AWS
CLI with --endpoint-url. It speaks Athena's JSON 1.1 protocol (POST /, X-Amz-Target
AmazonAthena.<Operation>) for the four calls gpuadvisor makes, and runs each query on a real
PostgreSQL through psql (argv, no shell), so the SQL that reaches it is executed, not matched:

  StartQueryExecution  {QueryString, WorkGroup, ResultConfiguration?} -> {QueryExecutionId}
  GetQueryExecution    {QueryExecutionId} -> {QueryExecution: {Status: {State}}}: QUEUED, then
                       RUNNING, then SUCCEEDED (or FAILED with psql's error)
  GetQueryResults      {QueryExecutionId, MaxResults, NextToken?} -> {ResultSet: {Rows:
                       [{Data: [{VarCharValue}]}], ResultSetMetadata}, NextToken?}: the header
                       row first, as Athena does; NULL cells without VarCharValue; pages of at
                       most MaxResults (1000 at most) rows
  StopQueryExecution   {} (recorded)
Every request is appended to --log as one JSON line {op, params}.

Usage: fake_athena.py PORTFILE --psql PSQL --pg-host DIR --pg-port N --db NAME [--user U]
       [--log FILE]
"""
import argparse
import csv
import io
import json
import subprocess
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = None
QUERIES = {}  # id -> {"rows": [...], "polls": n, "error": str}


def run_query(sql):
    cmd = [ARGS.psql, "-h", ARGS.pg_host, "-p", str(ARGS.pg_port), "-U", ARGS.user, "-d", ARGS.db,
           "-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1", "-c", sql]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()[:500]
    # psql writes NULL as an empty unquoted field and '' as "": keep them apart.
    rows = []
    for line in csv.reader(io.StringIO(p.stdout)):
        rows.append(line)
    return rows, ""


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/x-amz-json-1.1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        params = json.loads(self.rfile.read(n) or b"{}")
        op = self.headers.get("X-Amz-Target", "").split(".")[-1]
        if ARGS.log:
            with open(ARGS.log, "a") as f:
                f.write(json.dumps({"op": op, "params": params}) + "\n")
        if op == "StartQueryExecution":
            rows, err = run_query(params["QueryString"])
            qid = str(uuid.uuid4())
            QUERIES[qid] = {"rows": rows, "error": err, "polls": 0}
            return self.reply(200, {"QueryExecutionId": qid})
        q = QUERIES.get(params.get("QueryExecutionId", ""))
        if q is None:
            return self.reply(400, {"__type": "InvalidRequestException",
                                    "Message": "QueryExecution not found"})
        if op == "GetQueryExecution":
            q["polls"] += 1
            state = ["QUEUED", "RUNNING"][q["polls"] - 1] if q["polls"] <= 2 else (
                "FAILED" if q["error"] else "SUCCEEDED")
            status = {"State": state}
            if q["error"]:
                status["StateChangeReason"] = q["error"]
            return self.reply(200, {"QueryExecution": {
                "QueryExecutionId": params["QueryExecutionId"], "Status": status}})
        if op == "GetQueryResults":
            size = min(int(params.get("MaxResults", 1000)), 1000)
            start = int(params.get("NextToken", "0") or "0")
            rows = q["rows"]
            page = rows[start:start + size]
            out = {"ResultSet": {
                "Rows": [{"Data": [({"VarCharValue": c} if c != "" else {}) for c in r]}
                         for r in page],
                "ResultSetMetadata": {"ColumnInfo": [{"Name": c, "Type": "varchar"}
                                                     for c in rows[0]]}}}
            if start + size < len(rows):
                out["NextToken"] = str(start + size)
            return self.reply(200, out)
        if op == "StopQueryExecution":
            return self.reply(200, {})
        return self.reply(400, {"__type": "UnknownOperationException", "Message": op})


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("portfile")
    ap.add_argument("--psql", required=True)
    ap.add_argument("--pg-host", required=True)
    ap.add_argument("--pg-port", type=int, required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--user", default="postgres")
    ap.add_argument("--log")
    ARGS = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(ARGS.portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(ARGS.portfile + ".tmp", ARGS.portfile)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
