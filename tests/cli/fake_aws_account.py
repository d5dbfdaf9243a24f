#!/usr/bin/env python3
"""A local AWS for `gpuadvisor account scan` tests: moto's server for the calls it implements
(sts get-caller-identity, ec2 describe-instance-type-offerings), and answers in the real wire
formats for those it does not (Service Quotas ListServiceQuotas, JSON 1.1; EC2
DescribeReservedInstances, EC2 query XML; Savings Plans DescribeSavingsPlans, REST-JSON).

Usage: fake_aws_account.py PORTFILE [--p-quota 96] [--fail-region us-west-2]
                           [--running REGION:TYPE:COUNT[:spot],...]
Writes the port it listens on to PORTFILE, then serves until killed. The account: in
us-east-1, the P on-demand quota is --p-quota vCPUs, G and VT 64, Inf 128, Trn 0 (spot: P 0);
two active p4d.24xlarge Reserved Instances (regional) until 2027-03-01 and one retired one;
one active EC2 Instance Savings Plan for p4d in us-east-1. --fail-region answers
AccessDeniedException to Service Quotas calls signed for that region. --running starts those
instances in moto before serving (DescribeInstances is moto's). GetSpotPlacementScores (not in
moto) answers in EC2 query XML from SPOT_SCORES, one point lower per extra instance asked for.
"""
import argparse
import json
import re
import sys

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import make_server


def quota(region, code, name, value):
    return {
        "ServiceCode": "ec2",
        "ServiceName": "Amazon Elastic Compute Cloud (Amazon EC2)",
        "QuotaArn": f"arn:aws:servicequotas:{region}:123456789012:ec2/{code}",
        "QuotaCode": code,
        "QuotaName": name,
        "Value": value,
        "Unit": "None",
        "Adjustable": True,
        "GlobalQuota": False,
        "UsageMetric": {"MetricNamespace": "AWS/Usage", "MetricName": "ResourceCount"},
    }


def quotas(region, p_quota):
    return [
        quota(region, "L-0263D0A3", "EC2-VPC Elastic IPs", 5.0),
        quota(region, "L-1216C47A", "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", 1152.0),
        quota(region, "L-417A185B", "Running On-Demand P instances", float(p_quota)),
        quota(region, "L-DB2E81BA", "Running On-Demand G and VT instances", 64.0),
        quota(region, "L-1945791B", "Running On-Demand Inf instances", 128.0),
        quota(region, "L-2C3B7624", "Running On-Demand Trn instances", 0.0),
        quota(region, "L-7212CCBC", "All P Spot Instance Requests", 0.0),
        quota(region, "L-3819A6DF", "All G and VT Spot Instance Requests", 64.0),
    ]


RESERVED = """<?xml version="1.0" encoding="UTF-8"?>
<DescribeReservedInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>59dbff89-35bd-4eac-99ed-be587EXAMPLE</requestId>
  <reservedInstancesSet>
    <item>
      <reservedInstancesId>e5a2ff3b-7d14-494f-90af-0b5d0EXAMPLE</reservedInstancesId>
      <instanceType>p4d.24xlarge</instanceType>
      <start>2026-03-01T00:00:00.000Z</start>
      <end>2027-03-01T00:00:00.000Z</end>
      <duration>31536000</duration>
      <usagePrice>0.0</usagePrice>
      <fixedPrice>0.0</fixedPrice>
      <instanceCount>2</instanceCount>
      <productDescription>Linux/UNIX</productDescription>
      <state>active</state>
      <instanceTenancy>default</instanceTenancy>
      <currencyCode>USD</currencyCode>
      <offeringType>No Upfront</offeringType>
      <recurringCharges><item><frequency>Hourly</frequency><amount>20.86</amount></item></recurringCharges>
      <offeringClass>standard</offeringClass>
      <scope>Region</scope>
    </item>
    <item>
      <reservedInstancesId>0a1b2c3d-7d14-494f-90af-0b5d0EXAMPLE</reservedInstancesId>
      <instanceType>p4d.24xlarge</instanceType>
      <start>2023-01-01T00:00:00.000Z</start>
      <end>2024-01-01T00:00:00.000Z</end>
      <duration>31536000</duration>
      <usagePrice>0.0</usagePrice>
      <fixedPrice>0.0</fixedPrice>
      <instanceCount>4</instanceCount>
      <productDescription>Linux/UNIX</productDescription>
      <state>retired</state>
      <instanceTenancy>default</instanceTenancy>
      <currencyCode>USD</currencyCode>
      <offeringType>No Upfront</offeringType>
      <recurringCharges/>
      <offeringClass>standard</offeringClass>
      <scope>Region</scope>
    </item>
  </reservedInstancesSet>
</DescribeReservedInstancesResponse>
"""

SAVINGS_PLANS = {
    "savingsPlans": [{
        "savingsPlanId": "sp-0123456789abcdef0",
        "savingsPlanArn": "arn:aws:savingsplans::123456789012:savingsplan/sp-0123456789abcdef0",
        "description": "3 year No Upfront EC2 Instance Savings Plan",
        "start": "2026-01-01T00:00:00.000Z",
        "end": "2029-01-01T00:00:00.000Z",
        "state": "active",
        "region": "us-east-1",
        "ec2InstanceFamily": "p4d",
        "savingsPlanType": "EC2Instance",
        "paymentOption": "No Upfront",
        "productTypes": ["EC2"],
        "currency": "USD",
        "commitment": "12.5",
        "upfrontPaymentAmount": "0",
        "recurringPaymentAmount": "12.5",
        "termDurationInSeconds": 94608000,
    }]
}


# Scores per type and region for one instance; zones get the region's score, the first one a
# point more.
SPOT_SCORES = {
    "p5.48xlarge": {"us-east-1": 3, "us-west-2": 7},
    "g6e.xlarge": {"us-east-1": 9, "us-west-2": 8},
    "g6e.12xlarge": {"us-east-1": 2, "us-west-2": 8},
}
ZONE_IDS = {"us-east-1": ["use1-az1", "use1-az2"], "us-west-2": ["usw2-az1", "usw2-az2"]}


def spot_placement_scores(params):
    """A GetSpotPlacementScores answer for the query parameters, as EC2 sends it."""
    types = [v[0] for k, v in sorted(params.items()) if k.startswith("InstanceType.")]
    regions = [v[0] for k, v in sorted(params.items()) if k.startswith("RegionName.")]
    capacity = int(params.get("TargetCapacity", ["1"])[0])
    per_zone = params.get("SingleAvailabilityZone", ["false"])[0] == "true"
    items = []
    for region in regions:
        known = [SPOT_SCORES[t][region] for t in types if region in SPOT_SCORES.get(t, {})]
        if not known:
            continue
        score = max(1, max(known) - (capacity - 1))
        if per_zone:
            for i, zone in enumerate(ZONE_IDS.get(region, [])):
                items.append(f"<item><region>{region}</region><availabilityZoneId>{zone}"
                             f"</availabilityZoneId><score>{min(10, score + (1 if i == 0 else 0))}</score></item>")
        else:
            items.append(f"<item><region>{region}</region><score>{score}</score></item>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<GetSpotPlacementScoresResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
            '<requestId>3c2d7c2e-7f3b-4a4c-9d3e-1b2a3c4dEXAMPLE</requestId>'
            f'<spotPlacementScoreSet>{"".join(items)}</spotPlacementScoreSet>'
            '</GetSpotPlacementScoresResponse>')


def signed_region(environ):
    m = re.search(r"Credential=[^/]+/\d+/([a-z0-9-]+)/", environ.get("HTTP_AUTHORIZATION", ""))
    return m.group(1) if m else "us-east-1"


class Account:
    def __init__(self, moto_app, p_quota, fail_region):
        self.moto = moto_app
        self.p_quota = p_quota
        self.fail_region = fail_region

    def __call__(self, environ, start_response):
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        region = signed_region(environ)
        if target == "ServiceQuotasV20190624.ListServiceQuotas":
            if region == self.fail_region:
                body = {"__type": "AccessDeniedException",
                        "Message": "User is not authorized to perform: servicequotas:ListServiceQuotas"}
                return self.reply(start_response, "400 Bad Request", body)
            return self.reply(start_response, "200 OK", {"Quotas": quotas(region, self.p_quota)})
        if environ.get("PATH_INFO") == "/DescribeSavingsPlans":
            return self.reply(start_response, "200 OK", SAVINGS_PLANS)
        if environ.get("REQUEST_METHOD") == "POST":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(length)
            if b"Action=DescribeReservedInstances&" in body + b"&":
                items = RESERVED if region == "us-east-1" else re.sub(
                    r"<reservedInstancesSet>.*</reservedInstancesSet>",
                    "<reservedInstancesSet/>", RESERVED, flags=re.S)
                start_response("200 OK", [("Content-Type", "text/xml")])
                return [items.encode()]
            if b"Action=GetSpotPlacementScores&" in body + b"&":
                from urllib.parse import parse_qs
                start_response("200 OK", [("Content-Type", "text/xml")])
                return [spot_placement_scores(parse_qs(body.decode())).encode()]
            import io
            environ["wsgi.input"] = io.BytesIO(body)
        return self.moto(environ, start_response)

    @staticmethod
    def reply(start_response, status, body):
        data = json.dumps(body).encode()
        start_response(status, [("Content-Type", "application/x-amz-json-1.1"),
                                ("Content-Length", str(len(data)))])
        return [data]


def run_instances(server, spec):
    """Starts REGION:TYPE:COUNT[:spot] instances in moto through the server itself."""
    import boto3
    url = f"http://127.0.0.1:{server.server_port}"
    for item in spec.split(","):
        region, itype, count, *spot = item.split(":")
        ec2 = boto3.client("ec2", region_name=region, endpoint_url=url,
                           aws_access_key_id="testing", aws_secret_access_key="testing")
        image = ec2.describe_images()["Images"][0]["ImageId"]
        extra = {"InstanceMarketOptions": {"MarketType": "spot"}} if spot else {}
        ec2.run_instances(ImageId=image, InstanceType=itype, MinCount=int(count),
                          MaxCount=int(count), **extra)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("portfile")
    ap.add_argument("--p-quota", type=float, default=96)
    ap.add_argument("--fail-region", default="")
    ap.add_argument("--running", default="")
    a = ap.parse_args()
    app = Account(DomainDispatcherApplication(create_backend_app), a.p_quota, a.fail_region)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    import threading
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    if a.running:
        run_instances(server, a.running)
    with open(a.portfile + ".tmp", "w") as f:
        f.write(str(server.server_port))
    import os
    os.rename(a.portfile + ".tmp", a.portfile)
    serving.join()


if __name__ == "__main__":
    sys.exit(main())
