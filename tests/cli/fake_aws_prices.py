#!/usr/bin/env python3
"""A local AWS for `gpuadvisor catalog update --aws` tests, reached by the real AWS CLI with
--endpoint-url: the pricing and offering calls answered in their real wire formats, everything
else by moto's server (as tests/cli/fake_aws_account.py does).

  pricing get-products                    JSON 1.1, X-Amz-Target AWSPriceListService.GetProducts:
      {FormatVersion: aws_v1, PriceList: ["<product JSON as a string>", ...], NextToken}; one
      product per type of TYPES whose attributes match every TERM_MATCH filter (regionCode,
      operatingSystem, tenancy, preInstalledSw, capacitystatus, instanceFamily ...), with its
      OnDemand term and the 12 Reserved terms (1yr/3yr x standard/convertible x No/Partial/All
      Upfront; "Hrs" and, with an upfront part, "Quantity" price dimensions)
  ec2 describe-spot-price-history         EC2 query XML; per type, the latest price in each of
      three zones (and the day before's, when --start-time reaches back to it)
  ec2 describe-reserved-instances-offerings   EC2 query XML; the same 12 terms as offerings
      (Region scope; filters scope, instance-type, product description, tenancy, marketplace)
  ec2 describe-capacity-block-offerings   EC2 query XML; for the types sold as Capacity Blocks,
      two offers: the soonest (--today + 3 days, 11:30 UTC) and one two days later at a lower
      fee (listed first); other types: an empty set
  savingsplans describe-savings-plans-offering-rates   REST-JSON POST: Compute and EC2 Instance
      plan rates, 1 and 3 years, every payment option, for the filters' region and types;
      paged by --sp-page-size (nextToken)

Prices (us-east-1; other regions scale by REGION_SCALE) are clearly not the embedded catalog's:
p5.48xlarge on-demand $50.00/h, spot 12.50 / 13.75 / 15.00 in us-east-1a/b/c, a 24-hour
Capacity Block $756 (31.50/h), 1yr standard No Upfront RI $31.00/h, 1yr No Upfront Compute
Savings Plan $36.00/h. Every other type: the same fractions of its on-demand price.

Faults, from the options and from --faults FILE (re-read on every request, one per line):
  fail-region REGION     every call for REGION (EC2 calls signed for it, the pricing and
                         Savings Plans calls filtered to it) answers AWS's access error in its
                         wire format: UnauthorizedOperation (EC2, HTTP 403 XML),
                         AccessDeniedException (pricing: HTTP 400 JSON 1.1; Savings Plans: HTTP
                         403, x-amzn-ErrorType)
  throttle-pricing N|always   the first N (or every) GetProducts answer ThrottlingException
                         (HTTP 400 JSON 1.1); the AWS CLI retries it (AWS_MAX_ATTEMPTS)
  price-factor X         (file only) every price times X: a later update finds new prices
  sp-next-token TEXT     (file only) the first Savings Plans page's nextToken is TEXT (the rest
                         of the line, spaces included): a hostile answer's token
Each request is appended to --log FILE as one JSON line {op, region, status, key, params}
(key: the access key id the request was signed with).

Usage: fake_aws_prices.py PORTFILE [--today 2026-12-04] [--publication-date ISO]
       [--fail-region R] [--throttle-pricing N|always] [--faults FILE] [--log FILE]
       [--pricing-page-size N] [--ec2-page-size N] [--sp-page-size N]
Writes the port it listens on to PORTFILE, then serves until killed.
"""
import argparse
import datetime
import hashlib
import io
import json
import os
import re
import sys
import threading
from urllib.parse import parse_qs

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import make_server

EC2_NS = "http://ec2.amazonaws.com/doc/2016-11-15/"
GPU = "GPU instance"
ASIC = "Machine Learning ASIC Instances"
# (type, instanceFamily, vCPUs, accelerators, on-demand $/h in us-east-1, sold as Capacity Blocks)
TYPES = [
    ("p5.48xlarge", GPU, 192, 8, 50.0, True),
    ("p5.4xlarge", GPU, 16, 1, 6.4, True),
    ("p5en.48xlarge", GPU, 192, 8, 60.0, True),
    ("p4d.24xlarge", GPU, 96, 8, 21.0, True),
    ("g6e.xlarge", GPU, 4, 1, 1.9, False),
    ("g6e.12xlarge", GPU, 48, 4, 10.0, False),
    ("g6.xlarge", GPU, 4, 1, 0.8, False),
    ("g5.xlarge", GPU, 4, 1, 1.0, False),
    ("trn1.32xlarge", ASIC, 128, 16, 22.0, True),
    ("trn1.2xlarge", ASIC, 8, 1, 1.4, False),
    ("inf2.xlarge", ASIC, 4, 1, 0.8, False),
    ("inf2.48xlarge", ASIC, 192, 12, 13.0, False),
]
REGION_SCALE = {"us-east-1": 1.0, "us-east-2": 1.0, "us-west-2": 1.0, "eu-west-1": 1.1,
                "eu-central-1": 1.15, "ap-northeast-1": 1.25}
LOCATIONS = {"us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)",
             "us-west-2": "US West (Oregon)", "eu-west-1": "EU (Ireland)",
             "eu-central-1": "EU (Frankfurt)", "ap-northeast-1": "Asia Pacific (Tokyo)"}
USAGE_PREFIX = {"us-east-1": "", "us-east-2": "USE2-", "us-west-2": "USW2-", "eu-west-1": "EU-",
                "eu-central-1": "EUC1-", "ap-northeast-1": "APN1-"}
SPOT_FRACTION = 0.25            # of on-demand, in zone a; zones b and c 10% and 20% more
SPOT_ZONE_FACTORS = [1.0, 1.1, 1.2]
CAPACITY_BLOCK_FRACTION = 0.63  # of on-demand, per instance-hour
# Effective hourly rate as a fraction of on-demand: (years, class) -> by payment option.
RI_FRACTION = {(1, "standard"): (0.62, 0.60, 0.59), (1, "convertible"): (0.70, 0.68, 0.67),
               (3, "standard"): (0.40, 0.38, 0.37), (3, "convertible"): (0.48, 0.46, 0.45)}
SP_FRACTION = {("Compute", 1): (0.72, 0.70, 0.69), ("Compute", 3): (0.50, 0.48, 0.47),
               ("EC2Instance", 1): (0.64, 0.62, 0.61), ("EC2Instance", 3): (0.42, 0.40, 0.39)}
PAYMENTS = ["No Upfront", "Partial Upfront", "All Upfront"]
# The offer term codes AWS's price list uses for the 12 reserved terms.
RI_TERM_CODES = {
    (1, "standard", "No Upfront"): "4NA7Y494T4", (1, "standard", "Partial Upfront"): "HU7G6KETJZ",
    (1, "standard", "All Upfront"): "6QCMYABX3D", (1, "convertible", "No Upfront"): "7NE97W5U4E",
    (1, "convertible", "Partial Upfront"): "CUZHX8X6JH",
    (1, "convertible", "All Upfront"): "VJWZNREJX2", (3, "standard", "No Upfront"): "BPH4J8HBKS",
    (3, "standard", "Partial Upfront"): "38NPMPTW36", (3, "standard", "All Upfront"): "NQ3QZPMQV9",
    (3, "convertible", "No Upfront"): "Z2E3P23VKM",
    (3, "convertible", "Partial Upfront"): "R5XV2EPZQZ",
    (3, "convertible", "All Upfront"): "MZU6U2429S"}
HOURS_RATE_CODE, UPFRONT_RATE_CODE, ON_DEMAND_TERM = "6YS6EN2CT7", "2TG2D8R56U", "JRTCKXETXF"


def money(x):
    return "%.10f" % x


def digest(*parts, n=16, alphabet="ABCDEFGHJKMNPQRSTUVWXYZ23456789"):
    h = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in h[:n])


def uuid_for(*parts):
    h = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:32])


def on_demand(region, od, factor):
    return od * REGION_SCALE.get(region, 1.1) * factor


def ri_terms(od):
    """The 12 reserved terms: (years, class, payment, upfront $, hourly $)."""
    out = []
    for (years, cls), fractions in RI_FRACTION.items():
        for payment, f in zip(PAYMENTS, fractions):
            effective = od * f
            hours = years * 8760
            if payment == "No Upfront":
                upfront, hourly = 0.0, effective
            elif payment == "Partial Upfront":
                upfront, hourly = round(effective * hours / 2), effective / 2
            else:
                upfront, hourly = round(effective * hours), 0.0
            out.append((years, cls, payment, float(upfront), round(hourly, 4)))
    return out


class Prices:
    def __init__(self, args):
        self.args = args
        self.today = datetime.date.fromisoformat(args.today)
        self.pub = args.publication_date

    # --- pricing get-products
    def product(self, region, itype, family, vcpus, accels, od, factor):
        sku = digest(region, itype)
        attributes = {
            "servicecode": "AmazonEC2", "servicename": "Amazon Elastic Compute Cloud",
            "location": LOCATIONS.get(region, region), "locationType": "AWS Region",
            "regionCode": region, "instanceType": itype, "instanceFamily": family,
            "currentGeneration": "Yes", "vcpu": str(vcpus), "gpu": str(accels),
            "operatingSystem": "Linux", "tenancy": "Shared", "preInstalledSw": "NA",
            "capacitystatus": "Used", "licenseModel": "No License required",
            "operation": "RunInstances", "marketoption": "OnDemand",
            "usagetype": "%sBoxUsage:%s" % (USAGE_PREFIX.get(region, region.upper() + "-"), itype),
            "processorArchitecture": "64-bit", "networkPerformance": "3200 Gigabit",
            "storage": "8 x 3840 NVMe SSD", "normalizationSizeFactor": "NA",
        }
        price = on_demand(region, od, factor)
        od_key = "%s.%s" % (sku, ON_DEMAND_TERM)
        terms = {"OnDemand": {od_key: {
            "priceDimensions": {"%s.%s" % (od_key, HOURS_RATE_CODE): {
                "unit": "Hrs", "endRange": "Inf", "beginRange": "0", "appliesTo": [],
                "description": "$%.3f per On Demand Linux %s Instance Hour" % (price, itype),
                "rateCode": "%s.%s" % (od_key, HOURS_RATE_CODE),
                "pricePerUnit": {"USD": money(price)}}},
            "sku": sku, "effectiveDate": self.pub, "offerTermCode": ON_DEMAND_TERM,
            "termAttributes": {}}}, "Reserved": {}}
        for years, cls, payment, upfront, hourly in ri_terms(price):
            code = RI_TERM_CODES[(years, cls, payment)]
            key = "%s.%s" % (sku, code)
            dims = {"%s.%s" % (key, HOURS_RATE_CODE): {
                "unit": "Hrs", "endRange": "Inf", "beginRange": "0", "appliesTo": [],
                "description": "Linux/UNIX (Amazon VPC), %s reserved instance applied" % itype,
                "rateCode": "%s.%s" % (key, HOURS_RATE_CODE),
                "pricePerUnit": {"USD": money(hourly)}}}
            if upfront > 0:
                dims["%s.%s" % (key, UPFRONT_RATE_CODE)] = {
                    "unit": "Quantity", "description": "Upfront Fee", "appliesTo": [],
                    "rateCode": "%s.%s" % (key, UPFRONT_RATE_CODE),
                    "pricePerUnit": {"USD": "%d" % upfront}}
            terms["Reserved"][key] = {
                "priceDimensions": dims, "sku": sku, "effectiveDate": self.pub,
                "offerTermCode": code,
                "termAttributes": {"LeaseContractLength": "%dyr" % years,
                                   "OfferingClass": cls, "PurchaseOption": payment}}
        version = re.sub(r"[^0-9]", "", self.pub)[:14]
        return {"product": {"productFamily": "Compute Instance", "attributes": attributes,
                            "sku": sku},
                "serviceCode": "AmazonEC2", "terms": terms, "version": version,
                "publicationDate": self.pub}

    def products(self, filters, factor):
        region = filters.get("regionCode")
        if region is None:
            return []
        out = []
        for itype, family, vcpus, accels, od, _ in TYPES:
            p = self.product(region, itype, family, vcpus, accels, od, factor)
            attrs = dict(p["product"]["attributes"], productFamily="Compute Instance")
            if all(attrs.get(k) == v for k, v in filters.items()):
                out.append(json.dumps(p))
        return out

    # --- ec2 describe-spot-price-history
    def spot_history(self, region, types, start_time, factor):
        latest = datetime.datetime.combine(self.today, datetime.time(6, 0),
                                           datetime.timezone.utc)
        earlier = latest - datetime.timedelta(hours=18)
        items = []
        for itype, _, _, _, od, _ in TYPES:
            if itype not in types:
                continue
            base = on_demand(region, od, factor) * SPOT_FRACTION
            for zone, factor in zip("abc", SPOT_ZONE_FACTORS):
                history = [(latest, base * factor), (earlier, base * factor * 1.3)]
                # As EC2 does: the price in effect at the start time, and every change since.
                shown = [h for h in history if start_time is None or h[0] >= start_time]
                in_effect = [h for h in history if start_time is not None and h[0] < start_time]
                if in_effect:
                    shown.append(max(in_effect))
                for ts, price in sorted(set(shown), reverse=True):
                    items.append(
                        "<item><instanceType>%s</instanceType><productDescription>Linux/UNIX"
                        "</productDescription><spotPrice>%.6f</spotPrice><timestamp>%s"
                        "</timestamp><availabilityZone>%s%s</availabilityZone></item>"
                        % (itype, price, ts.strftime("%Y-%m-%dT%H:%M:%S.000Z"), region, zone))
        return items

    # --- ec2 describe-reserved-instances-offerings
    def ri_offerings(self, region, types, marketplace, factor):
        items = []
        for itype, _, _, _, od, _ in TYPES:
            if types is not None and itype not in types:
                continue
            for years, cls, payment, upfront, hourly in ri_terms(on_demand(region, od, factor)):
                items.append(
                    "<item><reservedInstancesOfferingId>%s</reservedInstancesOfferingId>"
                    "<instanceType>%s</instanceType><duration>%d</duration>"
                    "<fixedPrice>%.1f</fixedPrice><usagePrice>0.0</usagePrice>"
                    "<productDescription>Linux/UNIX</productDescription>"
                    "<instanceTenancy>default</instanceTenancy><currencyCode>USD</currencyCode>"
                    "<offeringType>%s</offeringType><recurringCharges><item>"
                    "<frequency>Hourly</frequency><amount>%.4f</amount></item>"
                    "</recurringCharges><marketplace>false</marketplace><pricingDetailsSet/>"
                    "<offeringClass>%s</offeringClass><scope>Region</scope></item>"
                    % (uuid_for(region, itype, years, cls, payment), itype, years * 31536000,
                       upfront, payment, hourly, cls))
            if marketplace:
                # A third party's resale: EC2 lists them only when the marketplace is included.
                items.append(
                    "<item><reservedInstancesOfferingId>%s</reservedInstancesOfferingId>"
                    "<instanceType>%s</instanceType><availabilityZone>%sa</availabilityZone>"
                    "<duration>15552000</duration><fixedPrice>1.0</fixedPrice>"
                    "<usagePrice>0.0</usagePrice><productDescription>Linux/UNIX"
                    "</productDescription><instanceTenancy>default</instanceTenancy>"
                    "<currencyCode>USD</currencyCode><offeringType>No Upfront</offeringType>"
                    "<recurringCharges><item><frequency>Hourly</frequency><amount>0.0100"
                    "</amount></item></recurringCharges><marketplace>true</marketplace>"
                    "<pricingDetailsSet><item><price>1.0</price><count>1</count></item>"
                    "</pricingDetailsSet><offeringClass>standard</offeringClass>"
                    "<scope>Availability Zone</scope></item>"
                    % (uuid_for(region, itype, "marketplace"), itype, region))
        return items

    # --- ec2 describe-capacity-block-offerings
    def capacity_blocks(self, region, itype, count, hours, factor):
        row = [t for t in TYPES if t[0] == itype and t[5]]
        if not row:
            return []
        rate = on_demand(region, row[0][4], factor) * CAPACITY_BLOCK_FRACTION
        soonest = datetime.datetime.combine(self.today + datetime.timedelta(days=3),
                                            datetime.time(11, 30), datetime.timezone.utc)
        # The later block is cheaper: the price of a block is the soonest's, not the lowest.
        offers = [(soonest + datetime.timedelta(days=2), rate * 0.9, "b"), (soonest, rate, "a")]
        items = []
        for start, r, zone in offers:
            end = start + datetime.timedelta(hours=hours)
            fmt = "%Y-%m-%dT%H:%M:%S.000Z"
            items.append(
                "<item><capacityBlockOfferingId>cb-%s</capacityBlockOfferingId>"
                "<instanceType>%s</instanceType><availabilityZone>%s%s</availabilityZone>"
                "<instanceCount>%d</instanceCount><startDate>%s</startDate><endDate>%s</endDate>"
                "<capacityBlockDurationHours>%d</capacityBlockDurationHours>"
                "<capacityBlockDurationMinutes>0</capacityBlockDurationMinutes>"
                "<upfrontFee>%.2f</upfrontFee><currencyCode>USD</currencyCode>"
                "<tenancy>default</tenancy></item>"
                % (digest(region, itype, start, n=17, alphabet="0123456789abcdef"), itype,
                   region, zone, count, start.strftime(fmt), end.strftime(fmt), hours,
                   r * count * hours))
        return items

    # --- savingsplans describe-savings-plans-offering-rates
    def sp_rates(self, region, types, plan_types, factor):
        out = []
        for itype, _, _, _, od, _ in TYPES:
            if types is not None and itype not in types:
                continue
            price = on_demand(region, od, factor)
            family = itype.split(".")[0]
            for (plan, years), fractions in SP_FRACTION.items():
                if plan_types and plan not in plan_types:
                    continue
                for payment, f in zip(PAYMENTS, fractions):
                    label = "EC2 Instance" if plan == "EC2Instance" else "Compute"
                    offering = {
                        "offeringId": uuid_for(plan, years, payment, family if
                                               plan == "EC2Instance" else ""),
                        "paymentOption": payment, "planType": plan,
                        "durationSeconds": years * 31536000, "currency": "USD",
                        "planDescription": "%d year %s %s Savings Plan" % (years, payment, label)}
                    out.append({
                        "savingsPlanOffering": offering, "rate": "%.4f" % (price * f),
                        "unit": "Hrs", "productType": "EC2", "serviceCode": "AmazonEC2",
                        "usageType": "%sBoxUsage:%s" % (
                            USAGE_PREFIX.get(region, region.upper() + "-") or "USE1-", itype),
                        "operation": "RunInstances",
                        "properties": [{"name": "region", "value": region},
                                       {"name": "instanceType", "value": itype},
                                       {"name": "instanceFamily", "value": family},
                                       {"name": "productDescription", "value": "Linux/UNIX"},
                                       {"name": "tenancy", "value": "shared"}]})
        return out


def signed_region(environ):
    m = re.search(r"Credential=[^/]+/\d+/([a-z0-9-]+)/", environ.get("HTTP_AUTHORIZATION", ""))
    return m.group(1) if m else "us-east-1"


def query_list(params, prefix):
    """EC2 query list members PREFIX.1, PREFIX.2, ... in order."""
    keys = [k for k in params if re.fullmatch(re.escape(prefix) + r"\.\d+", k)]
    return [params[k][0] for k in sorted(keys, key=lambda k: int(k.rsplit(".", 1)[1]))]


def query_filters(params):
    """Filter.N.Name / Filter.N.Value.M -> {name: [values]}."""
    out = {}
    for k, v in params.items():
        m = re.fullmatch(r"Filter\.(\d+)\.Name", k)
        if m:
            out[v[0]] = query_list(params, "Filter.%s.Value" % m.group(1))
    return out


def parse_time(text):
    text = text.replace("Z", "+00:00")
    t = datetime.datetime.fromisoformat(text)
    return t if t.tzinfo else t.replace(tzinfo=datetime.timezone.utc)


class FakeAws:
    def __init__(self, moto_app, args):
        self.moto = moto_app
        self.args = args
        self.prices = Prices(args)
        self.lock = threading.Lock()
        self.throttled = 0
        self.request = threading.local()  # the access key the request at hand was signed with

    def faults(self):
        """(regions that fail, throttle counts, price factor)."""
        fail, throttle, factor = set(), [], 1.0
        self.sp_token = None
        if self.args.fail_region:
            fail.add(self.args.fail_region)
        if self.args.throttle_pricing:
            throttle.append(self.args.throttle_pricing)
        if self.args.faults and os.path.exists(self.args.faults):
            with open(self.args.faults) as f:
                for line in f:
                    w = line.split()
                    if len(w) == 2 and w[0] == "fail-region":
                        fail.add(w[1])
                    elif len(w) == 2 and w[0] == "throttle-pricing":
                        throttle.append(w[1])
                    elif len(w) == 2 and w[0] == "price-factor":
                        factor = float(w[1])
                    elif w and w[0] == "sp-next-token":
                        self.sp_token = line.rstrip("\n").split(" ", 1)[1]
        return fail, throttle, factor

    def log(self, op, region, status, params):
        if self.args.log:
            with self.lock, open(self.args.log, "a") as f:
                f.write(json.dumps({"op": op, "region": region, "status": status,
                                    "key": getattr(self.request, "key", ""),
                                    "params": params}) + "\n")

    def __call__(self, environ, start_response):
        m = re.search(r"Credential=([^/]+)/", environ.get("HTTP_AUTHORIZATION", ""))
        self.request.key = m.group(1) if m else ""
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        if target == "AWSPriceListService.GetProducts":
            return self.get_products(json.loads(body or b"{}"), start_response)
        if environ.get("PATH_INFO") == "/DescribeSavingsPlansOfferingRates":
            return self.savings_plan_rates(json.loads(body or b"{}"), start_response)
        if environ.get("REQUEST_METHOD") == "POST" and body:
            params = parse_qs(body.decode(), keep_blank_values=True)
            action = params.get("Action", [""])[0]
            handler = {"DescribeSpotPriceHistory": self.spot_price_history,
                       "DescribeReservedInstancesOfferings": self.reserved_offerings,
                       "DescribeCapacityBlockOfferings": self.capacity_block_offerings}.get(action)
            if handler:
                return handler(params, signed_region(environ), start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        return self.moto(environ, start_response)

    # --- answers in the wire formats
    def json11(self, start_response, status, body):
        data = json.dumps(body).encode()
        start_response(status, [("Content-Type", "application/x-amz-json-1.1"),
                                ("Content-Length", str(len(data)))])
        return [data]

    def ec2_xml(self, start_response, action, inner, next_token=None):
        token = "<nextToken>%s</nextToken>" % next_token if next_token else ""
        data = ('<?xml version="1.0" encoding="UTF-8"?>\n<%sResponse xmlns="%s">'
                "<requestId>%s</requestId>%s%s</%sResponse>"
                % (action, EC2_NS, uuid_for(action, inner), inner, token, action)).encode()
        start_response("200 OK", [("Content-Type", "text/xml;charset=UTF-8"),
                                  ("Content-Length", str(len(data)))])
        return [data]

    def ec2_denied(self, start_response, action):
        data = ('<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error>'
                "<Code>UnauthorizedOperation</Code><Message>You are not authorized to perform "
                "this operation. User: arn:aws:iam::123456789012:user/test is not authorized to "
                "perform: ec2:%s because no identity-based policy allows the ec2:%s action"
                "</Message></Error></Errors><RequestID>%s</RequestID></Response>"
                % (action, action, uuid_for("denied", action))).encode()
        start_response("403 Forbidden", [("Content-Type", "text/xml;charset=UTF-8"),
                                         ("Content-Length", str(len(data)))])
        return [data]

    def page(self, items, token, size):
        start = int(token) if token else 0
        end = start + size
        return items[start:end], (str(end) if end < len(items) else None)

    def get_products(self, req, start_response):
        filters = {f["Field"]: f["Value"] for f in req.get("Filters", [])
                   if f.get("Type") == "TERM_MATCH"}
        region = filters.get("regionCode", "")
        fail, throttle, factor = self.faults()
        with self.lock:
            n = self.throttled
            throttled = any(t == "always" or n < int(t) for t in throttle)
            if throttled:
                self.throttled += 1
        if throttled:
            self.log("GetProducts", region, 400, req)
            return self.json11(start_response, "400 Bad Request",
                               {"__type": "ThrottlingException", "Message": "Rate exceeded"})
        if region in fail:
            self.log("GetProducts", region, 400, req)
            return self.json11(start_response, "400 Bad Request", {
                "__type": "AccessDeniedException",
                "Message": "User: arn:aws:iam::123456789012:user/test is not authorized to "
                           "perform: pricing:GetProducts"})
        if req.get("ServiceCode") != "AmazonEC2":
            return self.json11(start_response, "400 Bad Request", {
                "__type": "InvalidParameterException",
                "Message": "Input parameters are invalid. ServiceCode must be AmazonEC2 here"})
        size = min(int(req.get("MaxResults", 100)), self.args.pricing_page_size)
        items, token = self.page(self.prices.products(filters, factor), req.get("NextToken"),
                                 size)
        self.log("GetProducts", region, 200, req)
        body = {"FormatVersion": "aws_v1", "PriceList": items}
        if token:
            body["NextToken"] = token
        return self.json11(start_response, "200 OK", body)

    def spot_price_history(self, params, region, start_response):
        action = "DescribeSpotPriceHistory"
        fail, _, factor = self.faults()
        self.log(action, region, 403 if region in fail else 200, params)
        if region in fail:
            return self.ec2_denied(start_response, action)
        types = set(query_list(params, "InstanceType"))
        products = query_list(params, "ProductDescription")
        start = params.get("StartTime", [None])[0]
        items = self.prices.spot_history(region, types, parse_time(start) if start else None,
                                         factor)
        if products and "Linux/UNIX" not in products:
            items = []
        items, token = self.page(items, params.get("NextToken", [None])[0],
                                 self.args.ec2_page_size)
        return self.ec2_xml(start_response, action,
                            "<spotPriceHistorySet>%s</spotPriceHistorySet>" % "".join(items), token)

    def reserved_offerings(self, params, region, start_response):
        action = "DescribeReservedInstancesOfferings"
        fail, _, factor = self.faults()
        self.log(action, region, 403 if region in fail else 200, params)
        if region in fail:
            return self.ec2_denied(start_response, action)
        filters = query_filters(params)
        types = set(filters.get("instance-type", [])) or None
        if params.get("InstanceType"):
            types = {params["InstanceType"][0]}
        marketplace = params.get("IncludeMarketplace", ["true"])[0] != "false"
        items = self.prices.ri_offerings(region, types, marketplace, factor)
        scopes = filters.get("scope")
        if scopes:
            items = [i for i in items if any("<scope>%s</scope>" % s in i for s in scopes)]
        product = params.get("ProductDescription", ["Linux/UNIX"])[0]
        tenancy = params.get("InstanceTenancy", ["default"])[0]
        if product not in ("Linux/UNIX", "Linux/UNIX (Amazon VPC)") or tenancy != "default":
            items = []
        items, token = self.page(items, params.get("NextToken", [None])[0],
                                 self.args.ec2_page_size)
        return self.ec2_xml(
            start_response, action,
            "<reservedInstancesOfferingsSet>%s</reservedInstancesOfferingsSet>" % "".join(items),
            token)

    def capacity_block_offerings(self, params, region, start_response):
        action = "DescribeCapacityBlockOfferings"
        fail, _, factor = self.faults()
        self.log(action, region, 403 if region in fail else 200, params)
        if region in fail:
            return self.ec2_denied(start_response, action)
        itype = params.get("InstanceType", [""])[0]
        count = int(params.get("InstanceCount", ["1"])[0])
        hours = int(params.get("CapacityDurationHours", ["24"])[0])
        items = self.prices.capacity_blocks(region, itype, count, hours, factor)
        return self.ec2_xml(start_response, action,
                            "<capacityBlockOfferingSet>%s</capacityBlockOfferingSet>"
                            % "".join(items))

    def savings_plan_rates(self, req, start_response):
        filters = {f["name"]: f["values"] for f in req.get("filters", [])}
        region = (filters.get("region") or [""])[0]
        fail, _, factor = self.faults()
        if region in fail:
            self.log("DescribeSavingsPlansOfferingRates", region, 403, req)
            data = json.dumps({"message": "User: arn:aws:iam::123456789012:user/test is not "
                               "authorized to perform: "
                               "savingsplans:DescribeSavingsPlansOfferingRates"}).encode()
            start_response("403 Forbidden", [("Content-Type", "application/json"),
                                              ("x-amzn-ErrorType", "AccessDeniedException"),
                                              ("Content-Length", str(len(data)))])
            return [data]
        rates = []
        ok = (region and "EC2" in req.get("products", ["EC2"]) and
              "AmazonEC2" in req.get("serviceCodes", ["AmazonEC2"]) and
              "Linux/UNIX" in filters.get("productDescription", ["Linux/UNIX"]) and
              "shared" in filters.get("tenancy", ["shared"]))
        if ok:
            rates = self.prices.sp_rates(region, set(filters.get("instanceType", [])) or None,
                                         set(req.get("savingsPlanTypes", [])), factor)
            payments = req.get("savingsPlanPaymentOptions")
            if payments:
                rates = [r for r in rates if r["savingsPlanOffering"]["paymentOption"] in payments]
        size = min(int(req.get("maxResults", 1000)), self.args.sp_page_size)
        if self.sp_token is not None and not req.get("nextToken"):
            items, token = rates[:size], self.sp_token
        else:
            items, token = self.page(rates, req.get("nextToken"), size)
        self.log("DescribeSavingsPlansOfferingRates", region, 200, req)
        data = json.dumps({"searchResults": items, "nextToken": token or ""}).encode()
        start_response("200 OK", [("Content-Type", "application/json"),
                                  ("Content-Length", str(len(data)))])
        return [data]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("portfile")
    ap.add_argument("--today", default=datetime.date.today().isoformat())
    ap.add_argument("--publication-date", default="2026-12-01T00:00:00Z")
    ap.add_argument("--fail-region", default="")
    ap.add_argument("--throttle-pricing", default="")
    ap.add_argument("--faults")
    ap.add_argument("--log")
    ap.add_argument("--pricing-page-size", type=int, default=100)
    ap.add_argument("--ec2-page-size", type=int, default=1000)
    ap.add_argument("--sp-page-size", type=int, default=1000)
    a = ap.parse_args()
    app = FakeAws(DomainDispatcherApplication(create_backend_app), a)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    with open(a.portfile + ".tmp", "w") as f:
        f.write(str(server.server_port))
    os.rename(a.portfile + ".tmp", a.portfile)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
