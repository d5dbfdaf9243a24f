#!/usr/bin/env python3
"""The aws-cli launch documents against botocore's EC2 RunInstances input shape (issue 7).

Usage: validate_aws_cli.py GPUADVISOR_BINARY. Exit 77 (ctest SKIP) when botocore is missing.
"""
import json
import subprocess
import sys

try:
    import botocore.session
    from botocore.validate import ParamValidator
except ImportError:
    print("SKIP: botocore is not installed for this python3 (pip install botocore)")
    sys.exit(77)

BIN = sys.argv[1]
SHAPE = botocore.session.get_session().get_service_model("ec2") \
    .operation_model("RunInstances").input_shape
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def launch(*args):
    out = subprocess.run([BIN, "launch", *args, "--format", "aws-cli", "--cli-input-json"],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    report = ParamValidator().validate(doc, SHAPE)
    check(not report.has_errors(), f"{args}: botocore: {report.generate_report()}")
    return doc


# p5.48xlarge x 4, spot, us-east-1: 32 EFA interfaces per instance in AWS's layout.
doc = launch("p5.48xlarge", "--count", "4", "--purchase", "spot", "--region", "us-east-1")
nics = doc.get("NetworkInterfaces", [])
efa = [n for n in nics if n["InterfaceType"] in ("efa", "efa-only")]
check(len(efa) == 32, f"p5: {len(efa)} EFA interfaces, expected 32")
check(nics[0] == {**nics[0], "NetworkCardIndex": 0, "DeviceIndex": 0, "InterfaceType": "interface"},
      f"p5: primary interface {nics[0]}")
check(nics[1]["NetworkCardIndex"] == 0 and nics[1]["DeviceIndex"] == 1,
      "p5: card 0 carries the second (EFA-only) interface at device index 1")
check(sorted(n["NetworkCardIndex"] for n in efa) == list(range(32)),
      "p5: one EFA interface per network card 0..31")
check(all(n["DeviceIndex"] == 0 for n in efa[1:]), "p5: cards 1..31 use device index 0")
check(doc["MinCount"] == doc["MaxCount"] == 4, "p5: MinCount = MaxCount = 4")
check("GroupName" in doc.get("Placement", {}), "p5: cluster placement group")
check(doc.get("InstanceMarketOptions", {}).get("MarketType") == "spot", "p5: spot market")
check(doc["InstanceMarketOptions"]["SpotOptions"]["InstanceInterruptionBehavior"] == "terminate",
      "p5: one-time spot terminates")
check(doc["MetadataOptions"]["HttpTokens"] == "required", "p5: IMDSv2 required")
check(doc["ImageId"].startswith("resolve:ssm:/aws/service/deeplearning/ami/x86_64/"),
      "p5: x86_64 DLAMI via SSM")
check(any(t["ResourceType"] == "instance" for t in doc["TagSpecifications"]), "p5: tags")

# p4d: 4 network cards, 4 EFA interfaces; p6-b300: card 0 has no EFA (16 of 17 cards).
doc = launch("p4d.24xlarge", "--count", "2")
check(sum(n["InterfaceType"] == "efa-only" for n in doc["NetworkInterfaces"]) == 4, "p4d: 4 EFA")
doc = launch("p6-b300.48xlarge", "--count", "2")
efa_cards = [n["NetworkCardIndex"] for n in doc["NetworkInterfaces"]
             if n["InterfaceType"] == "efa-only"]
check(efa_cards == list(range(1, 17)), f"p6-b300: EFA on cards 1..16, got {efa_cards}")

# Single g6.xlarge: no placement group, no EFA. g5g: the arm64 DLAMI.
doc = launch("g6.xlarge", "--subnet-id", "subnet-0abc", "--security-group-ids", "sg-1,sg-2")
check("Placement" not in doc and "NetworkInterfaces" not in doc, "g6.xlarge: no PG, no EFA")
check(doc["SubnetId"] == "subnet-0abc" and doc["SecurityGroupIds"] == ["sg-1", "sg-2"],
      "g6.xlarge: subnet and groups")
doc = launch("g5g.xlarge")
check("/deeplearning/ami/arm64/" in doc["ImageId"], f"g5g: arm64 AMI, got {doc['ImageId']}")
doc = launch("trn1.32xlarge", "--count", "2", "--dataset-gib", "500", "--checkpoint-gib", "100")
check("/neuron/dlami/" in doc["ImageId"], "trn1: Neuron DLAMI")
data = [b for b in doc["BlockDeviceMappings"] if b["DeviceName"] == "/dev/sdf"]
check(data and data[0]["Ebs"]["VolumeSize"] == 840, f"trn1: data volume (500+2x100)x1.2 = 840 GiB")

# Capacity Block (issue 17): the capacity-block market and the reservation it launches into; the
# block's instances are co-located already, so no placement group.
doc = launch("p5.48xlarge", "--count", "8", "--purchase", "capacity-block",
             "--capacity-reservation-id", "cr-0123456789abcdef0")
check(doc.get("InstanceMarketOptions") == {"MarketType": "capacity-block"},
      f"p5 capacity block: market {doc.get('InstanceMarketOptions')}")
check(doc.get("CapacityReservationSpecification", {}).get("CapacityReservationTarget") ==
      {"CapacityReservationId": "cr-0123456789abcdef0"}, "p5 capacity block: reservation target")
check("Placement" not in doc, "p5 capacity block: no placement group")
# Without an id the document carries a placeholder the script substitutes.
doc = launch("trn1.32xlarge", "--count", "2", "--purchase", "capacity-block")
check(doc["CapacityReservationSpecification"]["CapacityReservationTarget"]
      ["CapacityReservationId"] == "@CAPACITY_RESERVATION_ID@", "trn1 capacity block: placeholder")

for f in failures:
    print("FAIL:", f)
print(f"{'FAILED' if failures else 'ok'}: aws-cli documents validated with botocore "
      f"{botocore.__version__}")
sys.exit(1 if failures else 0)
