// terraform: aws_launch_template + aws_instance (count) + aws_placement_group (and the EFA
// security group) in HCL laid out the way `terraform fmt` writes it: two-space indent, the `=` of
// consecutive attributes aligned.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "launch/internal.h"

namespace gpuadvisor::launch_internal {
namespace {

// Appends HCL; attributes wait in `pending_` until a block, comment or blank line ends the run
// so their `=` can be aligned as `terraform fmt` does.
class HclWriter {
 public:
  void Attr(const std::string& key, const std::string& value) { pending_.emplace_back(key, value); }
  void Open(const std::string& header) {
    Flush();
    Line(header + " {");
    ++depth_;
  }
  void Close() {
    Flush();
    --depth_;
    Line("}");
  }
  void Comment(const std::string& text) {
    Flush();
    Line("# " + text);
  }
  void Blank() {
    Flush();
    out_ += "\n";
  }
  // A multi-line attribute value, written as is after `key = `.
  void RawAttr(const std::string& key, const std::string& value) {
    Flush();
    out_ += std::string(static_cast<size_t>(depth_) * 2, ' ') + key + " = " + value + "\n";
  }
  std::string Take() {
    Flush();
    return std::move(out_);
  }

 private:
  void Line(const std::string& text) {
    out_ += std::string(static_cast<size_t>(depth_) * 2, ' ') + text + "\n";
  }
  void Flush() {
    size_t width = 0;
    for (const auto& kv : pending_) width = std::max(width, kv.first.size());
    for (const auto& [k, v] : pending_) {
      std::string line = k;
      line.append(width - k.size(), ' ');
      line += " = ";
      line += v;
      Line(line);
    }
    pending_.clear();
  }
  std::string out_;
  int depth_ = 0;
  std::vector<std::pair<std::string, std::string>> pending_;
};

// HCL heredocs interpolate ${...} and %{...}; the boot script's shell syntax must stay literal.
std::string EscapeTemplate(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((text[i] == '$' || text[i] == '%') && i + 1 < text.size() && text[i + 1] == '{') {
      out += text[i];
    }
    out += text[i];
  }
  return out;
}

// A quoted HCL string. Quoted strings interpolate ${...} and %{...} too, and names, tags and
// ids come from the user (--name, --subnet, a plan file): "${file(\"/etc/passwd\")}" in a
// name must stay text, so "${" is written "$${" and "%{" "%%{".
std::string HclQuoted(std::string_view text) { return EscapeTemplate(Quoted(text)); }

void Variables(const LaunchPlan& p, HclWriter* w) {
  const LaunchRequest& r = p.request;
  w->Open("variable \"subnet_id\"");
  w->Attr("type", "string");
  w->Attr("description",
          HclQuoted("Subnet for every node (one AZ where " + p.type->name + " is offered)"));
  if (!r.subnet_id.empty()) w->Attr("default", HclQuoted(r.subnet_id));
  w->Close();
  w->Blank();
  w->Open("variable \"security_group_ids\"");
  w->Attr("type", "list(string)");
  w->Attr("description", HclQuoted("Security groups for access (SSH, your services)"));
  std::string groups;
  for (const std::string& g : r.security_group_ids) {
    groups += (groups.empty() ? "" : ", ") + HclQuoted(g);
  }
  if (!r.security_group_ids.empty()) w->Attr("default", "[" + groups + "]");
  w->Close();
  w->Blank();
  if (p.capacity_block) {
    w->Open("variable \"capacity_reservation_id\"");
    w->Attr("type", "string");
    w->Attr("description",
            HclQuoted("Reservation id of the Capacity Block bought for this launch"));
    if (!r.capacity_reservation_id.empty())
      w->Attr("default", HclQuoted(r.capacity_reservation_id));
    w->Close();
    w->Blank();
  }
  w->Open("variable \"key_name\"");
  w->Attr("type", "string");
  w->Attr("description", HclQuoted("EC2 key pair for SSH; null = none (use SSM Session Manager)"));
  w->Attr("default", r.key_name.empty() ? "null" : HclQuoted(r.key_name));
  w->Close();
  w->Blank();
  w->Open("variable \"instance_profile\"");
  w->Attr("type", "string");
  w->Attr("description",
          HclQuoted("Instance profile with CloudWatchAgentServerPolicy (for the GPU metrics)"));
  w->Attr("default", r.instance_profile.empty() ? "null" : HclQuoted(r.instance_profile));
  w->Close();
  w->Blank();
}

void Volume(const VolumeSpec& v, HclWriter* w) {
  w->Comment(v.why);
  w->Open("block_device_mappings");
  w->Attr("device_name", HclQuoted(v.device_name));
  w->Open("ebs");
  w->Attr("volume_type", HclQuoted("gp3"));
  w->Attr("volume_size", std::to_string(v.size_gib));
  w->Attr("iops", std::to_string(v.iops));
  w->Attr("throughput", std::to_string(v.throughput));
  w->Attr("encrypted", "true");
  w->Attr("delete_on_termination", "true");
  w->Close();
  w->Close();
}

void NetworkResources(const LaunchPlan& p, HclWriter* w) {
  if (p.placement_group) {
    w->Comment("Cluster placement group: all nodes on one low-latency network spine.");
    w->Open(R"(resource "aws_placement_group" "cluster")");
    w->Attr("name", HclQuoted(p.request.name + "-" + Slug(p.type->name) + "-cluster"));
    w->Attr("strategy", HclQuoted("cluster"));
    w->Close();
    w->Blank();
  }
  if (!p.efa) return;
  w->Open(R"(data "aws_subnet" "selected")");
  w->Attr("id", "var.subnet_id");
  w->Close();
  w->Blank();
  w->Comment("EFA traffic must be allowed to and from the group itself (all protocols).");
  w->Open(R"(resource "aws_security_group" "efa")");
  w->Attr("name_prefix", HclQuoted(p.request.name + "-efa-"));
  w->Attr("description", HclQuoted("EFA between the nodes of this launch"));
  w->Attr("vpc_id", "data.aws_subnet.selected.vpc_id");
  w->Open("ingress");
  w->Attr("from_port", "0");
  w->Attr("to_port", "0");
  w->Attr("protocol", HclQuoted("-1"));
  w->Attr("self", "true");
  w->Close();
  w->Open("egress");
  w->Attr("from_port", "0");
  w->Attr("to_port", "0");
  w->Attr("protocol", HclQuoted("-1"));
  w->Attr("cidr_blocks", "[\"0.0.0.0/0\"]");
  w->Close();
  w->Close();
  w->Blank();
}

void LaunchTemplate(const LaunchPlan& p, HclWriter* w) {
  w->Open(R"(resource "aws_launch_template" "node")");
  w->Attr("name_prefix", HclQuoted(p.request.name + "-" + Slug(p.type->name) + "-"));
  w->Attr("image_id", HclQuoted("resolve:ssm:" + p.ami_parameter));
  w->Attr("instance_type", HclQuoted(p.type->name));
  w->Attr("key_name", "var.key_name");
  if (!p.efa) w->Attr("vpc_security_group_ids", "var.security_group_ids");
  w->Blank();
  Volume(p.root, w);
  if (p.data) Volume(*p.data, w);
  if (p.efa) {
    w->Comment(std::to_string(p.efa_interfaces) +
               " EFA-only interfaces (one per EFA network card) after the ENA primary.");
    for (const NetworkInterfaceSpec& n : p.interfaces) {
      w->Open("network_interfaces");
      w->Attr("network_card_index", std::to_string(n.network_card_index));
      w->Attr("device_index", std::to_string(n.device_index));
      w->Attr("interface_type", HclQuoted(n.interface_type));
      w->Attr("subnet_id", "var.subnet_id");
      w->Attr("security_groups", "concat([aws_security_group.efa.id], var.security_group_ids)");
      w->Attr("delete_on_termination", "true");
      w->Close();
    }
  }
  if (p.placement_group) {
    w->Open("placement");
    w->Attr("group_name", "aws_placement_group.cluster.name");
    w->Close();
  }
  if (p.spot) {
    w->Comment("Spot, one-time, terminated on interruption (2-minute notice).");
    w->Open("instance_market_options");
    w->Attr("market_type", HclQuoted("spot"));
    w->Open("spot_options");
    w->Attr("spot_instance_type", HclQuoted("one-time"));
    w->Attr("instance_interruption_behavior", HclQuoted("terminate"));
    w->Close();
    w->Close();
  }
  if (p.capacity_block) {
    w->Comment("Launched into the purchased Capacity Block, in its AZ and time window.");
    w->Open("instance_market_options");
    w->Attr("market_type", HclQuoted("capacity-block"));
    w->Close();
    w->Open("capacity_reservation_specification");
    w->Open("capacity_reservation_target");
    w->Attr("capacity_reservation_id", "var.capacity_reservation_id");
    w->Close();
    w->Close();
  }
  w->Comment("IMDSv2 only; hop limit 2 lets containers reach the metadata service.");
  w->Open("metadata_options");
  w->Attr("http_tokens", HclQuoted("required"));
  w->Attr("http_endpoint", HclQuoted("enabled"));
  w->Attr("http_put_response_hop_limit", "2");
  w->Close();
  w->Open("dynamic \"iam_instance_profile\"");
  w->Attr("for_each", "var.instance_profile == null ? [] : [var.instance_profile]");
  w->Open("content");
  w->Attr("name", "iam_instance_profile.value");
  w->Close();
  w->Close();
  for (const char* kind : {"instance", "volume"}) {
    w->Open("tag_specifications");
    w->Attr("resource_type", HclQuoted(kind));
    w->Attr("tags", "local.tags");
    w->Close();
  }
  w->Comment("Instance store RAID 0, data volume at /data, CloudWatch agent with nvidia_gpu.");
  w->RawAttr("user_data", "base64encode(<<EOT\n" + EscapeTemplate(p.user_data) + "EOT\n  )");
  w->Close();
  w->Blank();
}

}  // namespace

std::string RenderTerraform(const LaunchPlan& p) {
  std::string head = "# gpuadvisor launch: " + std::to_string(p.count) + " x " + p.type->name +
                     ", " + p.market + ", " + p.region + "\n";
  head +=
      "# terraform init && terraform apply -var subnet_id=subnet-... "
      "-var 'security_group_ids=[\"sg-...\"]'\n#\n# Why each choice:\n";
  for (const std::string& why : p.reasons) head += "#   - " + why + "\n";
  if (!p.warnings.empty()) {
    head += "#\n# Check before launching:\n";
    for (const std::string& w : p.warnings) head += "#   - " + w + "\n";
  }
  head += "\n";
  HclWriter w;
  w.Open("terraform");
  w.Open("required_providers");
  w.Open("aws =");
  w.Attr("source", HclQuoted("hashicorp/aws"));
  w.Attr("version", HclQuoted(">= 5.80"));
  w.Close();
  w.Close();
  w.Close();
  w.Blank();
  w.Open("provider \"aws\"");
  w.Attr("region", HclQuoted(p.region));
  w.Close();
  w.Blank();
  Variables(p, &w);
  w.Open("locals");
  w.Open("tags =");
  for (const auto& [k, v] : p.tags) w.Attr(HclQuoted(k), HclQuoted(v));
  w.Close();
  w.Close();
  w.Blank();
  NetworkResources(p, &w);
  LaunchTemplate(p, &w);
  w.Open(R"(resource "aws_instance" "node")");
  w.Attr("count", std::to_string(p.count));
  if (!p.efa) w.Attr("subnet_id", "var.subnet_id");
  w.Open("launch_template");
  w.Attr("id", "aws_launch_template.node.id");
  w.Attr("version", "aws_launch_template.node.latest_version");
  w.Close();
  std::string name = HclQuoted(p.request.name + "-" + Slug(p.type->name) + "-");
  name.pop_back();  // the closing quote: the node's index is interpolated before it
  w.Attr("tags", "merge(local.tags, { Name = " + name + "${count.index}\" })");
  w.Close();
  w.Blank();
  w.Open("output \"instance_ids\"");
  w.Attr("value", "aws_instance.node[*].id");
  w.Close();
  return head + w.Take();
}

}  // namespace gpuadvisor::launch_internal
