// The boot script every format passes as user data, the CloudWatch agent configuration it
// installs, and small text helpers shared by the renderers.
#include <nlohmann/json.hpp>
#include <string>

#include "launch/internal.h"
#include "util/json_text.h"
#include "util/numbers.h"

namespace gpuadvisor::launch_internal {
namespace {

using ojson = nlohmann::ordered_json;

bool NvidiaGpu(const LaunchPlan& p) {
  return p.type->accelerator.kind == AcceleratorKind::kGpu &&
         p.type->accelerator.vendor == "NVIDIA";
}

// Instance store: all NVMe instance-store disks as one RAID 0 (one disk: as is), XFS, mounted
// where the DLAMI mounts it itself; skipped when something is already mounted there.
std::string InstanceStoreStep(const LaunchPlan& p) {
  if (!p.instance_store) return "";
  const std::string m = p.instance_store_mount;
  return "\n# Instance store: " + std::to_string(p.type->local_disk_count) +
         " NVMe disk(s) as one RAID 0 XFS volume at " + m +
         " (the DLAMI may have mounted it already).\n"
         "MNT=" +
         m +
         "\n"
         "if ! mountpoint -q \"$MNT\"; then\n"
         "  mapfile -t NVME < <(lsblk -dnpo NAME,MODEL | awk '/Instance Storage/ {print $1}')\n"
         "  DEV=\"\"\n"
         "  if [ \"${#NVME[@]}\" -gt 1 ]; then\n"
         "    command -v mdadm >/dev/null || apt-get install -y mdadm\n"
         "    mdadm --create /dev/md0 --run --level=0 --raid-devices=\"${#NVME[@]}\" "
         "\"${NVME[@]}\"\n"
         "    DEV=/dev/md0\n"
         "  elif [ \"${#NVME[@]}\" -eq 1 ]; then\n"
         "    DEV=\"${NVME[0]}\"\n"
         "  fi\n"
         "  if [ -n \"$DEV\" ]; then\n"
         "    mkfs.xfs -f \"$DEV\" && mkdir -p \"$MNT\" && mount -o noatime \"$DEV\" \"$MNT\"\n"
         "    chmod 1777 \"$MNT\"\n"
         "  fi\n"
         "fi\n";
}

// The data volume: the one EBS disk with no partitions and no file system, formatted once,
// mounted at /data and kept in fstab (nofail: the instance still boots without it).
std::string DataVolumeStep(const LaunchPlan& p) {
  if (!p.data) return "";
  return "\n# Data volume (" + std::to_string(p.data->size_gib) +
         " GiB gp3): datasets and checkpoints at /data.\n"
         "for _ in $(seq 1 30); do\n"
         "  for d in $(lsblk -dnpo NAME,MODEL | awk '/Elastic Block Store/ {print $1}'); do\n"
         "    if [ \"$(lsblk -no NAME \"$d\" | wc -l)\" -eq 1 ] && "
         "[ -z \"$(blkid -o value -s TYPE \"$d\" || true)\" ]; then\n"
         "      mkfs.xfs -f \"$d\" && mkdir -p /data && mount -o noatime \"$d\" /data\n"
         "      echo \"UUID=$(blkid -o value -s UUID \"$d\") /data xfs defaults,noatime,nofail 0 "
         "2\" "
         ">> /etc/fstab\n"
         "      chmod 1777 /data\n"
         "      break 2\n"
         "    fi\n"
         "  done\n"
         "  sleep 2\n"
         "done\n";
}

// Where the CloudWatch agent package is downloaded from: AWS's global bucket, or in AWS China
// the region's own bucket (the global one is not reachable from there).
std::string CloudWatchAgentHost(const std::string& region) {
  const Partition& part = PartitionOf(region);
  if (std::string_view(part.id) != "aws-cn")
    return "https://amazoncloudwatch-agent.s3.amazonaws.com";
  return "https://amazoncloudwatch-agent-" + region + ".s3." + region + "." + part.dns_suffix;
}

std::string CloudWatchStep(const LaunchPlan& p) {
  const std::string deb_arch = p.architecture == "arm64" ? "arm64" : "amd64";
  const std::string dir = "/opt/aws/amazon-cloudwatch-agent";
  return "\n# CloudWatch agent: GPU utilisation, memory and power per instance (needs an instance "
         "profile with CloudWatchAgentServerPolicy).\n"
         "if [ ! -x " +
         dir +
         "/bin/amazon-cloudwatch-agent-ctl ]; then\n"
         "  curl -fsSL -o /tmp/cwagent.deb " +
         CloudWatchAgentHost(p.region) + "/ubuntu/" + deb_arch +
         "/latest/amazon-cloudwatch-agent.deb && dpkg -i /tmp/cwagent.deb || echo "
         "\"warning: CloudWatch agent not installed\"\n"
         "fi\n"
         "if [ -x " +
         dir +
         "/bin/amazon-cloudwatch-agent-ctl ]; then\n"
         "  cat > " +
         dir + "/etc/gpuadvisor.json <<'GPUADVISOR_CWAGENT'\n" + p.cloudwatch_config +
         "GPUADVISOR_CWAGENT\n"
         "  " +
         dir + "/bin/amazon-cloudwatch-agent-ctl -a fetch-config -m ec2 -s -c file:" + dir +
         "/etc/gpuadvisor.json || echo \"warning: CloudWatch agent not started\"\n"
         "fi\n";
}

}  // namespace

std::string Slug(std::string_view text, bool alnum_only) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!alnum_only) {
      out += '-';
    }
  }
  return out;
}

std::string Quoted(std::string_view text) { return DumpJson(ojson(std::string(text))); }

std::string Commented(std::string_view text, std::string_view prefix) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out += prefix;
    out += text.substr(start, end - start);
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string CloudWatchConfig(const LaunchPlan& p) {
  ojson metrics = ojson::object();
  if (NvidiaGpu(p)) {
    metrics["nvidia_gpu"] = {{"measurement",
                              {"utilization_gpu", "utilization_memory", "memory_used",
                               "memory_total", "power_draw", "temperature_gpu"}},
                             {"metrics_collection_interval", 60}};
  }
  metrics["mem"] = {{"measurement", {"mem_used_percent"}}, {"metrics_collection_interval", 60}};
  metrics["disk"] = {{"measurement", {"used_percent"}},
                     {"resources", {"/"}},
                     {"metrics_collection_interval", 300}};
  if (p.data) metrics["disk"]["resources"].push_back("/data");
  ojson config = {{"agent", {{"metrics_collection_interval", 60}}},
                  {"metrics",
                   {{"namespace", "CWAgent"},
                    {"append_dimensions", {{"InstanceId", "${aws:InstanceId}"}}},
                    // One series per instance (the GPUs rolled up), which the idle alarm watches.
                    {"aggregation_dimensions", {{"InstanceId"}}},
                    {"metrics_collected", metrics}}}};
  return DumpJson(config, 2) + "\n";
}

std::string UserData(const LaunchPlan& p) {
  std::string s =
      "#!/bin/bash\n"
      "# Boot script written by gpuadvisor launch for " +
      std::to_string(p.count) + " x " + p.type->name + " (" + p.ami_name +
      ").\n"
      "set -uo pipefail\n"
      "exec > >(tee -a /var/log/gpuadvisor-boot.log) 2>&1\n";
  s += InstanceStoreStep(p);
  s += DataVolumeStep(p);
  s += CloudWatchStep(p);
  if (p.efa) {
    s += "\n# EFA: the DLAMI ships the EFA driver and aws-ofi-nccl; list the devices for the log.\n"
         "fi_info -p efa -t FI_EP_RDM 2>/dev/null | grep -c 'provider: efa' || "
         "echo \"warning: no EFA device visible\"\n";
  }
  return s;
}

}  // namespace gpuadvisor::launch_internal
