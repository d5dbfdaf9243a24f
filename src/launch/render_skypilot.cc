// skypilot: a task YAML for users who launch with SkyPilot (`sky launch task.yaml`). SkyPilot
// picks its own image, security group and network interfaces; the file pins what the plan
// decided: instance type, accelerators, node count, spot, disk and network tier, and for a
// Capacity Block the reservation to launch into.
#include <string>

#include "launch/internal.h"

namespace gpuadvisor::launch_internal {

std::string RenderSkyPilot(const LaunchPlan& p) {
  std::string s = "# gpuadvisor launch: " + std::to_string(p.count) + " x " + p.type->name + ", " +
                  p.market + ", " + p.region + "\n# sky launch -c " + p.request.name +
                  " THIS_FILE\n#\n# Why each choice:\n";
  for (const std::string& why : p.reasons) s += "#   - " + why + "\n";
  // (AWS China regions never get here: CheckLaunchFormat refuses them for SkyPilot; the aws-cli,
  // cloudformation and terraform formats launch there.)
  if (!p.warnings.empty()) {
    s += "#\n# Check before launching:\n";
    for (const std::string& w : p.warnings) s += "#   - " + w + "\n";
  }
  const int disk = p.root.size_gib + (p.data ? p.data->size_gib : 0);
  s += "name: " + p.request.name + "-" + Slug(p.type->name) + "\n";
  s += "num_nodes: " + std::to_string(p.count) + "\n";
  s += "resources:\n  cloud: aws\n  region: " + p.region + "\n";
  s += "  instance_type: " + p.type->name + "\n";
  if (!p.skypilot_accelerator.empty()) {
    s += "  accelerators: " + Quoted(p.skypilot_accelerator) + "\n";
  }
  s += std::string("  use_spot: ") + (p.spot ? "true" : "false") + "\n";
  s += "  # SkyPilot has one OS disk: root " + std::to_string(p.root.size_gib) + " GiB" +
       (p.data ? " + data " + std::to_string(p.data->size_gib) + " GiB" : "") + ".\n";
  s += "  disk_size: " + std::to_string(disk) + "\n";
  s += std::string("  disk_tier: ") + (p.data && p.data->throughput > 125 ? "high" : "medium") +
       "\n";
  if (p.efa) {
    s += "  # best = EFA on every EFA network card (" + std::to_string(p.efa_interfaces) +
         " interfaces) and a cluster placement.\n  network_tier: best\n";
  }
  s += "  labels:\n";
  for (const auto& [k, v] : p.tags) {
    if (k == "Name") continue;
    s += "    " + Quoted(k) + ": " + Quoted(v) + "\n";
  }
  if (p.capacity_block) {
    // Task-level config (SkyPilot's `config` field): launch into this reservation only.
    const std::string& id = p.request.capacity_reservation_id;
    s +=
        "# Capacity Block: SkyPilot launches into the reservations listed here (the block's AZ).\n";
    if (id.empty()) s += "# Put the block's reservation id (cr-...) here before launching.\n";
    s += "config:\n  aws:\n    specific_reservations:\n      - " +
         (id.empty() ? std::string("cr-REPLACE-WITH-YOUR-BLOCK") : Quoted(id)) + "\n";
  }
  s += "setup: |\n";
  if (p.instance_store) {
    s += "  # Instance store: SkyPilot images leave the NVMe disks unformatted.\n"
         "  if ! mountpoint -q " +
         p.instance_store_mount +
         "; then\n"
         "    mapfile -t NVME < <(lsblk -dnpo NAME,MODEL | awk '/Instance Storage/ {print $1}')\n"
         "    if [ \"${#NVME[@]}\" -gt 1 ]; then sudo mdadm --create /dev/md0 --run --level=0"
         " --raid-devices=\"${#NVME[@]}\" \"${NVME[@]}\" && DEV=/dev/md0; "
         "elif [ \"${#NVME[@]}\" -eq 1 ]; then DEV=\"${NVME[0]}\"; fi\n"
         "    if [ -n \"${DEV:-}\" ]; then sudo mkfs.xfs -f \"$DEV\" && sudo mkdir -p " +
         p.instance_store_mount + " && sudo mount \"$DEV\" " + p.instance_store_mount +
         " && sudo chmod 1777 " + p.instance_store_mount + "; fi\n  fi\n";
  } else {
    s += "  true\n";
  }
  s += "run: |\n"
       "  echo \"node $SKYPILOT_NODE_RANK of $SKYPILOT_NUM_NODES\"\n";
  if (p.type->accelerator.kind == AcceleratorKind::kNeuron) {
    s += "  neuron-ls\n";
  } else if (p.type->accelerator.vendor == "NVIDIA") {
    s += "  nvidia-smi -L\n";
  }
  return s;
}

}  // namespace gpuadvisor::launch_internal
