// Drive config: YAML -> validated DriveConfig, and back (effective_config_yaml).
#include "model/config/config_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "model/config/config_yaml.h"
#include "model/core/units.h"

namespace ssdlab {
using namespace config_detail;

namespace {

constexpr std::uint32_t kU32Max = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxTransferLimit = 65536ULL * kSectorBytes;  // LBA48: 65536 sectors
constexpr std::uint64_t kMaxMappingUnits =
    0x7FFFFFFFULL;  // the FTL keeps the top bit of an L2P entry for buffered data

// User bytes for a spare fraction: floor(raw * (1 - op)), down to a whole mapping unit.
std::uint64_t user_bytes_for_op(std::uint64_t raw, double op, std::uint64_t mapping_unit) {
  const long double exact = std::floor(static_cast<long double>(raw) * (1.0L - op));
  const auto bytes = static_cast<std::uint64_t>(exact);
  return bytes - bytes % mapping_unit;
}

// An error about `key` of `map`: at the key if present, else where the map is opened.
[[noreturn]] void fail_key(const YamlSource& src, const YAML::Node& map, const std::string& map_path, const char* key,
                           const std::string& message) {
  const std::string path = join_path(map_path, key);
  if (const YAML::Node child = map[key]) src.fail(child, path, message);
  src.fail_absent(map, map_path, path, message);
}

// The keys that make up the raw capacity.
const std::vector<std::string> kGeometryKeys = {"nand.channels",         "nand.dies_per_channel", "nand.planes_per_die",
                                                "nand.blocks_per_plane", "nand.pages_per_block",  "nand.page_size"};

std::vector<std::string> plus(std::vector<std::string> keys, const std::vector<std::string>& more) {
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

std::string fraction_text(double value) {
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

class DriveParser {
 public:
  explicit DriveParser(const YamlSource& src) : src_(src) {}
  DriveConfig parse(const YAML::Node& root);

 private:
  std::uint32_t u32(const YAML::Node& map, const char* key, const std::string& path, std::uint32_t min,
                    std::uint32_t max, bool required, std::uint32_t fallback);
  void parse_nand(const YAML::Node& node);
  void parse_page_times(const YAML::Node& nand, const char* key, std::array<Picos, 3>& out);
  void check_geometry();
  void parse_controller(const YAML::Node& node);
  void parse_mapping_cache(const YAML::Node& controller);
  void parse_gc(const YAML::Node& controller);
  void check_mapping_unit(const YAML::Node& controller);
  void derive_capacity(const YAML::Node& controller);
  void check_spare_blocks(const YAML::Node& controller);
  void parse_host(const YAML::Node& node);
  [[noreturn]] void fail_cross(const YAML::Node& map, const std::string& map_path, const char* key,
                               const std::vector<std::string>& others, const std::string& message) const;

  const YamlSource& src_;
  YAML::Node root_;
  DriveConfig c_;
};

DriveConfig DriveParser::parse(const YAML::Node& root) {
  root_ = root;
  check_map(src_, root, "", drive_keys(""));
  c_.name = get_string(src_, require(src_, root, "", "name"), "name");
  if (c_.name.empty()) src_.fail(root["name"], "name", "must not be empty");
  if (root["description"]) c_.description = get_string(src_, root["description"], "description");
  parse_nand(require(src_, root, "", "nand"));
  parse_controller(require(src_, root, "", "controller"));
  if (root["host"]) parse_host(root["host"]);
  return c_;
}

// An error about `key` of `map` that follows from `others` too: it names every key involved
// with where its value came from, and is located at the last override that set any of them,
// else at `key` (as fail_key).
void DriveParser::fail_cross(const YAML::Node& map, const std::string& map_path, const char* key,
                             const std::vector<std::string>& others, const std::string& message) const {
  const std::string path = join_path(map_path, key);
  const std::vector<std::string> involved = plus({path}, others);
  std::string text = message + "; keys involved:";
  for (std::size_t i = 0; i < involved.size(); ++i) text += (i ? ", " : " ") + src_.origin(involved[i]);
  const std::string blamed = src_.last_override(involved);
  if (!blamed.empty()) throw ConfigError(blamed + ": " + path + ": " + text);
  fail_key(src_, map, map_path, key, text);
}

std::uint32_t DriveParser::u32(const YAML::Node& map, const char* key, const std::string& path, std::uint32_t min,
                               std::uint32_t max, bool required, std::uint32_t fallback) {
  const std::string key_path = join_path(path, key);
  const YAML::Node node = required ? require(src_, map, path, key) : map[key];
  if (!node) return fallback;
  return static_cast<std::uint32_t>(get_uint(src_, node, key_path, min, max));
}

void DriveParser::parse_nand(const YAML::Node& node) {
  const std::string p = "nand";
  check_map(src_, node, p, drive_keys(p));
  NandConfig& n = c_.nand;
  n.channels = u32(node, "channels", p, 1, kU32Max, true, 0);
  n.dies_per_channel = u32(node, "dies_per_channel", p, 1, kU32Max, true, 0);
  n.planes_per_die = u32(node, "planes_per_die", p, 1, kU32Max, false, 1);
  n.blocks_per_plane = u32(node, "blocks_per_plane", p, 1, kU32Max, true, 0);
  n.pages_per_block = u32(node, "pages_per_block", p, 1, 65536, true, 0);

  const YAML::Node page = require(src_, node, p, "page_size");
  const std::uint64_t page_size = get_size(src_, page, "nand.page_size");
  if (page_size < kSectorBytes || page_size % kSectorBytes != 0 || page_size > kU32Max)
    src_.fail(page, "nand.page_size", "must be a multiple of 512 bytes (at least 512B), got " + page.Scalar());
  n.page_size_bytes = static_cast<std::uint32_t>(page_size);

  const YAML::Node cell = require(src_, node, p, "cell");
  const std::string cell_name = lowercase(get_string(src_, cell, "nand.cell"));
  if (cell_name == "slc")
    n.cell = CellType::kSlc;
  else if (cell_name == "mlc")
    n.cell = CellType::kMlc;
  else if (cell_name == "tlc")
    n.cell = CellType::kTlc;
  else
    src_.fail(cell, "nand.cell", "expected SLC, MLC or TLC, got '" + cell.Scalar() + "'");

  parse_page_times(node, "t_read", n.t_read_ps);
  parse_page_times(node, "t_prog", n.t_prog_ps);
  const YAML::Node erase = require(src_, node, p, "t_erase");
  n.t_erase_ps = get_duration(src_, erase, "nand.t_erase");
  if (n.t_erase_ps == 0) src_.fail(erase, "nand.t_erase", "must be > 0");
  const YAML::Node bus = require(src_, node, p, "bus_rate");
  n.bus_bytes_per_s = get_bytes_per_s(src_, bus, "nand.bus_rate");
  if (n.bus_bytes_per_s == 0) src_.fail(bus, "nand.bus_rate", "must be > 0");
  if (node["t_cmd"]) n.t_cmd_ps = get_duration(src_, node["t_cmd"], "nand.t_cmd");
  check_geometry();
}

void DriveParser::parse_page_times(const YAML::Node& nand, const char* key, std::array<Picos, 3>& out) {
  const std::string path = join_path("nand", key);
  const YAML::Node node = require(src_, nand, "nand", key);
  const std::vector<std::string> types = page_type_keys(c_.nand.page_types());
  out = {};
  if (node.IsScalar()) {
    const Picos time = get_duration(src_, node, path);
    for (std::size_t i = 0; i < types.size(); ++i) out[i] = time;
    return;
  }
  if (!node.IsMap())
    src_.fail(node, path,
              "expected a duration or a map of page types (" + std::string(to_string(c_.nand.cell)) + ": lsb" +
                  (types.size() > 1 ? ", ..." : "") + ")");
  check_map(src_, node, path, page_type_keys(3));
  std::string expected;
  for (const std::string& type : types) expected += (expected.empty() ? "" : ", ") + type;
  for (const std::string& type : page_type_keys(3)) {
    const bool used = std::find(types.begin(), types.end(), type) != types.end();
    if (!used && node[type])
      src_.fail(node[type], join_path(path, type),
                std::string(to_string(c_.nand.cell)) + " cells have no " + type + " pages (expected " + expected + ")");
  }
  for (std::size_t i = 0; i < types.size(); ++i)
    out[i] = get_duration(src_, require(src_, node, path, types[i]), join_path(path, types[i]));
}

void DriveParser::check_geometry() {
  const NandConfig& n = c_.nand;
  using u128 = unsigned __int128;
  const u128 dies = u128(n.channels) * n.dies_per_channel;
  const u128 blocks_per_die = u128(n.planes_per_die) * n.blocks_per_plane;
  if (dies > kU32Max || blocks_per_die > kU32Max)
    fail_cross(root_, "", "nand", kGeometryKeys, "geometry too large: dies or blocks per die exceed 32 bits");
  const u128 raw = dies * blocks_per_die * n.pages_per_block * n.page_size_bytes;
  if (raw > std::numeric_limits<std::uint64_t>::max())
    fail_cross(root_, "", "nand", kGeometryKeys, "geometry too large: raw capacity does not fit in 64 bits");
}

void DriveParser::parse_controller(const YAML::Node& node) {
  const std::string p = "controller";
  check_map(src_, node, p, drive_keys(p));
  ControllerConfig& ctl = c_.controller;
  ctl.queue_depth = u32(node, "queue_depth", p, 1, 32, false, 32);
  if (node["firmware_cost"])
    ctl.firmware_cost_ps = get_duration(src_, node["firmware_cost"], "controller.firmware_cost");
  if (node["firmware_write_cost"])
    ctl.firmware_write_cost_ps = get_duration(src_, node["firmware_write_cost"], "controller.firmware_write_cost");
  if (node["firmware_gc_cost"])
    ctl.firmware_gc_cost_ps = get_duration(src_, node["firmware_gc_cost"], "controller.firmware_gc_cost");
  ctl.write_buffer_bytes = get_size(src_, require(src_, node, p, "write_buffer"), "controller.write_buffer");
  if (node["write_cache"]) ctl.write_cache = get_bool(src_, node["write_cache"], "controller.write_cache");
  if (node["trim"]) ctl.trim = get_bool(src_, node["trim"], "controller.trim");
  if (node["mapping_cache"]) parse_mapping_cache(node);
  ctl.max_transfer_bytes = kMaxTransferLimit;
  if (const YAML::Node max = node["max_transfer"]) {
    ctl.max_transfer_bytes = get_size(src_, max, "controller.max_transfer");
    const std::uint64_t bytes = ctl.max_transfer_bytes;
    if (bytes < kSectorBytes || bytes % kSectorBytes != 0 || bytes > kMaxTransferLimit)
      src_.fail(max, "controller.max_transfer",
                "must be a multiple of 512 bytes between 512B and 32MiB, got " + max.Scalar());
  }
  ctl.gc = GcConfig{};
  if (node["gc"]) parse_gc(node["gc"]);
  check_mapping_unit(node);
  const YAML::Node buffer = node["write_buffer"];
  // A write command lands in the buffer whole: no command may be larger than it.
  if (!node["max_transfer"]) {
    ctl.max_transfer_bytes =
        std::min<std::uint64_t>(kMaxTransferLimit, ctl.write_buffer_bytes / kSectorBytes * kSectorBytes);
  } else if (ctl.max_transfer_bytes > ctl.write_buffer_bytes) {
    fail_cross(node, p, "max_transfer", {"controller.write_buffer"},
               "must not exceed the write buffer (" + format_size(ctl.write_buffer_bytes) + "), got " +
                   node["max_transfer"].Scalar());
  }
  if (ctl.write_buffer_bytes < c_.nand.page_size_bytes)
    fail_cross(
        node, p, "write_buffer", {"nand.page_size"},
        "must hold at least one NAND page (" + format_size(c_.nand.page_size_bytes) + "), got " + buffer.Scalar());
  if (ctl.write_buffer_bytes % ctl.mapping_unit_bytes != 0)
    fail_cross(
        node, p, "write_buffer", {"controller.mapping_unit"},
        "must be a multiple of the mapping unit (" + format_size(ctl.mapping_unit_bytes) + "), got " + buffer.Scalar());
  derive_capacity(node);
  // The buffer is allocated whole (with its data under `serve`): no larger than the drive.
  if (ctl.write_buffer_bytes > ctl.user_bytes)
    fail_cross(node, p, "write_buffer", plus({node["op"] ? "controller.op" : "controller.capacity"}, kGeometryKeys),
               "must not exceed the user capacity (" + format_size(ctl.user_bytes) + "), got " + buffer.Scalar());
  check_spare_blocks(node);
}

void DriveParser::parse_mapping_cache(const YAML::Node& controller) {
  const YAML::Node cache = controller["mapping_cache"];
  std::uint64_t& bytes = c_.controller.mapping_cache_bytes;
  bytes = get_size(src_, cache, "controller.mapping_cache");
  if (bytes != 0 && bytes < c_.nand.page_size_bytes)
    fail_cross(controller, "controller", "mapping_cache", {"nand.page_size"},
               "must hold at least one translation page (" + format_size(c_.nand.page_size_bytes) +
                   ") or be 0 for the whole table, got " + cache.Scalar());
  // The table is at most 4 bytes a mapping unit: more cache than raw flash is a typo.
  if (bytes > c_.nand.raw_bytes())
    fail_cross(controller, "controller", "mapping_cache", kGeometryKeys,
               "must not exceed the raw capacity (" + format_size(c_.nand.raw_bytes()) + "), got " + cache.Scalar());
}

void DriveParser::parse_gc(const YAML::Node& node) {
  const std::string p = "controller.gc";
  check_map(src_, node, p, drive_keys(p));
  GcConfig& gc = c_.controller.gc;
  if (const YAML::Node policy = node["policy"]) {
    const std::string name = lowercase(get_string(src_, policy, "controller.gc.policy"));
    if (name == "greedy")
      gc.policy = GcPolicyKind::kGreedy;
    else if (name == "cost_benefit")
      gc.policy = GcPolicyKind::kCostBenefit;
    else if (name == "fifo")
      gc.policy = GcPolicyKind::kFifo;
    else
      src_.fail(policy, "controller.gc.policy",
                "expected greedy, cost_benefit or fifo, got '" + policy.Scalar() + "'" +
                    did_you_mean(name, {"greedy", "cost_benefit", "fifo"}));
  }
  gc.free_blocks_low = u32(node, "free_blocks_low", p, 1, kU32Max - 2, false, 2);
  gc.free_blocks_high = u32(node, "free_blocks_high", p, 1, kU32Max - 2, false, 3);
  if (node["idle_delay"]) gc.idle_delay_ps = get_duration(src_, node["idle_delay"], "controller.gc.idle_delay");
  gc.idle_free_blocks = u32(node, "idle_free_blocks", p, 0, kU32Max - 2, false, 0);
  if (gc.free_blocks_high <= gc.free_blocks_low)
    fail_cross(node, "controller.gc", "free_blocks_high", {"controller.gc.free_blocks_low"},
               "thresholds inverted: free_blocks_high (" + std::to_string(gc.free_blocks_high) +
                   ") must be greater than free_blocks_low (" + std::to_string(gc.free_blocks_low) + ")");
}

void DriveParser::check_mapping_unit(const YAML::Node& controller) {
  ControllerConfig& ctl = c_.controller;
  const YAML::Node node = controller["mapping_unit"];
  const std::string text = node ? node.Scalar() : "the default 4KiB";
  std::uint64_t unit = 4096;
  if (node) unit = get_size(src_, node, "controller.mapping_unit");
  if (unit < kSectorBytes || (unit & (unit - 1)) != 0 || unit > kU32Max)
    fail_key(src_, controller, "controller", "mapping_unit",
             "must be a power of two and a multiple of 512 bytes, got " + text);
  if (c_.nand.page_size_bytes % unit != 0)
    fail_cross(controller, "controller", "mapping_unit", {"nand.page_size"},
               text + " does not divide nand.page_size (" + format_size(c_.nand.page_size_bytes) + ")");
  ctl.mapping_unit_bytes = static_cast<std::uint32_t>(unit);
  const std::uint64_t units = c_.nand.raw_bytes() / unit;
  if (units > kMaxMappingUnits)
    fail_cross(controller, "controller", "mapping_unit", kGeometryKeys,
               "geometry too large for 31-bit unit addresses: " + std::to_string(units) + " mapping units of " +
                   format_size(unit) + " (limit " + std::to_string(kMaxMappingUnits) + "); use a larger mapping_unit");
}

void DriveParser::derive_capacity(const YAML::Node& controller) {
  ControllerConfig& ctl = c_.controller;
  const YAML::Node op = controller["op"];
  const YAML::Node capacity = controller["capacity"];
  if (op && capacity)
    src_.fail(capacity, "controller.capacity", "give either controller.op or controller.capacity, not both");
  if (!op && !capacity)
    src_.fail_absent(controller, "controller", "controller.op",
                     "required key missing: give either controller.op (spare fraction) or "
                     "controller.capacity (user size)");
  const std::uint64_t raw = c_.nand.raw_bytes();
  if (op) {
    ctl.op = get_double(src_, op, "controller.op");
    if (!(ctl.op >= 0.0 && ctl.op < 1.0)) src_.fail(op, "controller.op", "must be >= 0 and < 1, got " + op.Scalar());
    ctl.user_bytes = user_bytes_for_op(raw, ctl.op, ctl.mapping_unit_bytes);
    if (ctl.user_bytes == 0)
      fail_cross(controller, "controller", "op", plus({"controller.mapping_unit"}, kGeometryKeys),
                 "leaves no user capacity (raw " + format_size(raw) + ")");
    return;
  }
  const std::string path = "controller.capacity";
  const std::uint64_t bytes = get_size(src_, capacity, path);
  if (bytes % kSectorBytes != 0)
    src_.fail(capacity, path, "capacity " + capacity.Scalar() + " is not a whole number of 512-byte sectors");
  if (bytes == 0) src_.fail(capacity, path, "must be > 0");
  if (bytes > raw)
    fail_cross(controller, "controller", "capacity", kGeometryKeys,
               "capacity " + capacity.Scalar() + " exceeds the raw capacity (" + format_size(raw) + ")");
  ctl.user_bytes = bytes;
  ctl.op = 1.0 - static_cast<double>(bytes) / static_cast<double>(raw);
}

void DriveParser::check_spare_blocks(const YAML::Node& controller) {
  const NandConfig& n = c_.nand;
  const ControllerConfig& ctl = c_.controller;
  const std::uint64_t block_bytes = std::uint64_t(n.pages_per_block) * n.page_size_bytes;
  const std::uint64_t blocks = n.blocks();
  const std::uint64_t used = (ctl.user_bytes + block_bytes - 1) / block_bytes;
  const std::uint64_t spare = blocks - used;
  const std::uint64_t per_die = std::uint64_t(ctl.gc.free_blocks_high) + 2;
  const std::uint64_t needed = per_die * n.dies();
  if (spare >= needed) return;
  const bool by_op = static_cast<bool>(controller["op"]);
  std::string message = "not enough spare blocks for garbage collection: " + std::to_string(spare) + " spare blocks (" +
                        std::to_string(spare / n.dies()) + " per die), but each die needs " +
                        "free_blocks_high + 2 = " + std::to_string(per_die);
  if (needed >= blocks) {
    message += ", more than its " + std::to_string(n.blocks_per_die()) +
               " blocks; lower controller.gc.free_blocks_high or add blocks";
  } else {
    const double min_op = std::ceil(static_cast<double>(needed) / blocks * 1e4) / 1e4;
    message +=
        "; use op >= " + fraction_text(min_op) + " (capacity <= " + format_size((blocks - needed) * block_bytes) + ")";
  }
  fail_cross(controller, "controller", by_op ? "op" : "capacity",
             plus({"controller.gc.free_blocks_high"}, kGeometryKeys), message);
}

void DriveParser::parse_host(const YAML::Node& node) {
  const std::string p = "host";
  check_map(src_, node, p, drive_keys(p));
  HostConfig& host = c_.host;
  if (const YAML::Node sata = node["sata"]) {
    host.sata_line_bps = get_bits_per_s(src_, sata, "host.sata");
    const std::uint64_t bps = host.sata_line_bps;
    if (bps != 1500000000ULL && bps != 3000000000ULL && bps != 6000000000ULL)
      src_.fail(sata, "host.sata", "must be 1.5Gbps, 3Gbps or 6Gbps, got " + sata.Scalar());
  }
  host.ncq_tags = u32(node, "ncq_tags", p, 1, 32, false, 32);
}

std::string quoted(const std::string& text) {
  YAML::Emitter out;
  out << YAML::DoubleQuoted << text;
  return out.c_str();
}

std::string page_times_yaml(const NandConfig& n, const std::array<Picos, 3>& times) {
  const std::vector<std::string> types = page_type_keys(n.page_types());
  bool same = true;
  for (std::size_t i = 1; i < types.size(); ++i) same = same && times[i] == times[0];
  if (same) return format_duration(times[0]);
  std::string out = "{";
  for (std::size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i] + ": " + format_duration(times[i]);
  return out + "}";
}

std::string comment_safe(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return text;
}

}  // namespace

DriveConfig parse_drive_config(const std::string& yaml_text, const std::string& source_name,
                               const std::vector<std::string>& overrides) {
  YamlSource src(source_name);
  YAML::Node root = load_yaml(yaml_text, source_name, "a drive config");
  DriveConfig config;
  try {
    apply_drive_overrides(root, overrides, src);
    config = DriveParser(src).parse(root);
  } catch (const YAML::Exception& e) {  // safety net: should not happen
    throw ConfigError(source_name + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  config.source_path = source_name;
  return config;
}

DriveConfig load_drive_config(const std::string& path, const std::vector<std::string>& overrides) {
  return parse_drive_config(read_text_file(path), path, overrides);
}

std::string effective_config_yaml(const DriveConfig& c) {
  const NandConfig& n = c.nand;
  const ControllerConfig& ctl = c.controller;
  std::ostringstream o;
  o << "# effective config of " << comment_safe(c.name) << ", generated by ssdlab\n";
  o << "name: " << quoted(c.name) << "\n";
  if (!c.description.empty()) o << "description: " << quoted(c.description) << "\n";
  o << "nand:\n"
    << "  channels: " << n.channels << "\n"
    << "  dies_per_channel: " << n.dies_per_channel << "\n"
    << "  planes_per_die: " << n.planes_per_die << "\n"
    << "  blocks_per_plane: " << n.blocks_per_plane << "\n"
    << "  pages_per_block: " << n.pages_per_block << "\n"
    << "  page_size: " << format_size(n.page_size_bytes) << "\n"
    << "  cell: " << to_string(n.cell) << "\n"
    << "  t_read: " << page_times_yaml(n, n.t_read_ps) << "\n"
    << "  t_prog: " << page_times_yaml(n, n.t_prog_ps) << "\n"
    << "  t_erase: " << format_duration(n.t_erase_ps) << "\n"
    << "  bus_rate: " << format_bytes_per_s(n.bus_bytes_per_s) << "\n"
    << "  t_cmd: " << format_duration(n.t_cmd_ps) << "\n";
  o << "controller:\n"
    << "  queue_depth: " << ctl.queue_depth << "\n"
    << "  firmware_cost: " << format_duration(ctl.firmware_cost_ps) << "\n"
    << "  firmware_write_cost: " << format_duration(ctl.firmware_write_cost_ps) << "\n"
    << "  firmware_gc_cost: " << format_duration(ctl.firmware_gc_cost_ps) << "\n"
    << "  write_buffer: " << format_size(ctl.write_buffer_bytes) << "\n"
    << "  write_cache: " << (ctl.write_cache ? "true" : "false") << "\n"
    << "  trim: " << (ctl.trim ? "true" : "false") << "\n"
    << "  mapping_cache: " << format_size(ctl.mapping_cache_bytes) << "\n";
  // op when it reproduces user_bytes exactly, else the exact capacity.
  if (user_bytes_for_op(n.raw_bytes(), ctl.op, ctl.mapping_unit_bytes) == ctl.user_bytes)
    o << "  op: " << fraction_text(ctl.op) << "\n";
  else
    o << "  capacity: " << format_size(ctl.user_bytes) << "\n";
  o << "  mapping_unit: " << format_size(ctl.mapping_unit_bytes) << "\n"
    << "  max_transfer: " << format_size(ctl.max_transfer_bytes) << "\n"
    << "  gc:\n"
    << "    policy: " << to_string(ctl.gc.policy) << "\n"
    << "    free_blocks_low: " << ctl.gc.free_blocks_low << "\n"
    << "    free_blocks_high: " << ctl.gc.free_blocks_high << "\n"
    << "    idle_delay: " << format_duration(ctl.gc.idle_delay_ps) << "\n"
    << "    idle_free_blocks: " << ctl.gc.idle_free_blocks << "\n";
  o << "host:\n"
    << "  sata: " << format_bits_per_s(c.host.sata_line_bps) << "\n"
    << "  ncq_tags: " << c.host.ncq_tags << "\n";
  return o.str();
}

}  // namespace ssdlab
