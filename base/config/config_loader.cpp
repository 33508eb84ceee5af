// Drive config: YAML -> validated DriveConfig (the way back, effective_config_yaml, is config_effective.cpp).
#include "base/config/config_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "base/config/config_yaml.h"
#include "base/config/params_yaml.h"
#include "base/core/units.h"

namespace ssdlab {
using namespace config_detail;

namespace {

constexpr std::uint32_t kU32Max = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxTransferLimit = 65536ULL * kSectorBytes;  // LBA48: 65536 sectors
constexpr std::uint64_t kMaxPagesPerUnit = 16;  // a virtual page: at most 16 flash pages (virtual_page.h)
constexpr std::uint64_t kMaxMappingUnits =
    0x7FFFFFFFULL;  // the FTL keeps the top bit of an L2P entry for buffered data

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

class DriveParser {
 public:
  explicit DriveParser(const YamlSource& src) : src_(src) {}
  DriveConfig parse(const YAML::Node& root);

 private:
  void read_section(const YAML::Node& node, const std::string& path);
  void set_defaults(const std::string& path);
  void check_section(const YAML::Node& node, const std::string& path);
  void parse_page_times(const YAML::Node& nand, const char* key, std::array<Picos, 3>& out);
  void check_geometry();
  void check_controller(const YAML::Node& node);
  void check_mapping_cache(const YAML::Node& controller);
  void check_gc(const YAML::Node& node);
  void check_wear(const YAML::Node& controller);
  void check_mapping_unit(const YAML::Node& controller);
  bool valid_virtual_page(std::uint64_t unit) const;
  std::string mapping_unit_problem(std::uint64_t unit) const;
  std::string nearest_mapping_units(std::uint64_t unit) const;
  void derive_capacity(const YAML::Node& controller);
  void check_spare_blocks(const YAML::Node& controller);
  void check_hybrid(const YAML::Node& controller);
  void check_slc_cache(const YAML::Node& controller);
  void check_read_ahead(const YAML::Node& controller);
  void check_planes(const YAML::Node& controller);
  void check_ecc(const YAML::Node& controller);
  void check_bad_blocks(const YAML::Node& controller);
  void check_link_pm(const YAML::Node& link_pm);
  [[noreturn]] void fail_cross(const YAML::Node& map, const std::string& map_path, const char* key,
                               const std::vector<std::string>& others, const std::string& message) const;

  const YamlSource& src_;
  YAML::Node root_;
  DriveConfig c_;
};

DriveConfig DriveParser::parse(const YAML::Node& root) {
  root_ = root;
  read_section(root, "");
  return c_;
}

// Every key of the table directly under `path`, in table order: given ones are read strictly,
// absent optional ones take the table's default, absent required ones are an error. The
// cross-field checks of a section follow its keys (check_section).
void DriveParser::read_section(const YAML::Node& node, const std::string& path) {
  check_map(src_, node, path, drive_keys(path));
  for (const Param& p : drive_params()) {
    if (param_parent(p.path) != path) continue;
    const std::string name = p.path.substr(path.empty() ? 0 : path.size() + 1);
    const YAML::Node child = p.need == ParamNeed::kRequired ? require(src_, node, path, name) : node[name];
    if (p.kind == ParamKind::kPageTimes) {
      parse_page_times(node, name.c_str(), p.field.times(c_));
    } else if (p.kind == ParamKind::kSection) {
      if (child)
        read_section(child, p.path);
      else
        set_defaults(p.path);
    } else if (child) {
      read_drive_value(src_, child, p, c_);
    } else if (p.need == ParamNeed::kOptional) {
      set_drive_default(p, c_);
    }
  }
  check_section(node, path);
}

// An absent section: every optional key under it takes its default.
void DriveParser::set_defaults(const std::string& path) {
  const std::string prefix = path + ".";
  for (const Param& p : drive_params())
    if (p.path.compare(0, prefix.size(), prefix) == 0 && p.need == ParamNeed::kOptional &&
        p.kind != ParamKind::kSection)
      set_drive_default(p, c_);
}

void DriveParser::check_section(const YAML::Node& node, const std::string& path) {
  if (path == "nand") check_geometry();
  if (path == "host.link_pm") check_link_pm(node);
  if (path == "controller.gc") check_gc(node);
  if (path == "controller") check_controller(node);
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

void DriveParser::check_controller(const YAML::Node& node) {
  const std::string p = "controller";
  ControllerConfig& ctl = c_.controller;
  check_mapping_cache(node);
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
  check_planes(node);
  // A multi-plane page (docs/planes.md) is programmed whole: the buffer holds one.
  const std::uint64_t ftl_page = std::uint64_t(c_.nand.page_size_bytes) * c_.nand.planes_per_die;
  if (ctl.write_buffer_bytes < ftl_page)
    fail_cross(node, p, "write_buffer", {"nand.page_size", "nand.planes_per_die"},
               "must hold at least one " +
                   (c_.nand.planes_per_die > 1
                        ? std::to_string(c_.nand.planes_per_die) + "-plane page (" + format_size(ftl_page) + ")"
                        : "NAND page (" + format_size(ftl_page) + ")") +
                   ", got " + buffer.Scalar());
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
  check_wear(node);
  check_hybrid(node);
  check_slc_cache(node);
  check_read_ahead(node);
  check_ecc(node);
  check_bad_blocks(node);
}

// A codeword is read whole: it fits in a page (an ECC verdict counts the codewords a read moves).
// Retired blocks leave a hybrid FTL's logical blocks without the data and log blocks it maps them to.
void DriveParser::check_bad_blocks(const YAML::Node& controller) {
  const NandConfig::BadBlocks& bad = c_.nand.bad_blocks;
  if (bad.factory > 0 && c_.controller.ftl == FtlScheme::kHybrid)
    fail_cross(controller, "controller", "ftl", {"nand.bad_blocks.factory"},
               "factory bad blocks are skipped by page mapping's allocator; the hybrid FTL (controller.ftl: "
               "hybrid) maps logical blocks to fixed physical ones: use ftl: page or bad_blocks.factory: 0");
  if (!bad.grown || c_.controller.ftl != FtlScheme::kHybrid) return;
  fail_cross(controller, "controller", "ftl", {"nand.bad_blocks.grown"},
             "grown bad blocks are retired by page mapping's GC; a hybrid FTL (controller.ftl: hybrid) does not "
             "retire blocks: use ftl: page or bad_blocks.grown: false");
}

// The link steps down: Partial first, then Slumber (a Slumber timer at or before Partial's would
// never leave Partial any time).
void DriveParser::check_link_pm(const YAML::Node& link_pm) {
  const LinkPmConfig& pm = c_.host.link_pm;
  if (pm.partial_after_ps && pm.slumber_after_ps && pm.slumber_after_ps <= pm.partial_after_ps)
    fail_cross(link_pm, "host.link_pm", "slumber_after", {"host.link_pm.partial_after"},
               "must be longer than partial_after (" + format_duration(pm.partial_after_ps) +
                   "): the link enters Partial first, then Slumber");
}

void DriveParser::check_ecc(const YAML::Node& controller) {
  const std::uint32_t codeword = c_.controller.ecc.codeword_bytes;
  if (codeword <= c_.nand.page_size_bytes) return;
  const YAML::Node ecc = controller["ecc"];
  fail_cross(ecc ? ecc : controller, ecc ? "controller.ecc" : "controller", ecc ? "codeword" : "ecc",
             {"nand.page_size"},
             "an ECC codeword (" + format_size(codeword) + ") must fit in a page (" +
                 format_size(c_.nand.page_size_bytes) + ")");
}

void DriveParser::check_mapping_cache(const YAML::Node& controller) {
  const YAML::Node cache = controller["mapping_cache"];
  const std::uint64_t bytes = c_.controller.mapping_cache_bytes;
  if (!cache) return;
  if (bytes != 0 && bytes < c_.nand.page_size_bytes)
    fail_cross(controller, "controller", "mapping_cache", {"nand.page_size"},
               "must hold at least one translation page (" + format_size(c_.nand.page_size_bytes) +
                   ") or be 0 for the whole table, got " + cache.Scalar());
  // The table is at most 4 bytes a mapping unit: more cache than raw flash is a typo.
  if (bytes > c_.nand.raw_bytes())
    fail_cross(controller, "controller", "mapping_cache", kGeometryKeys,
               "must not exceed the raw capacity (" + format_size(c_.nand.raw_bytes()) + "), got " + cache.Scalar());
}

void DriveParser::check_gc(const YAML::Node& node) {
  const GcConfig& gc = c_.controller.gc;
  if (gc.free_blocks_high <= gc.free_blocks_low)
    fail_cross(node, "controller.gc", "free_blocks_high", {"controller.gc.free_blocks_low"},
               "thresholds inverted: free_blocks_high (" + std::to_string(gc.free_blocks_high) +
                   ") must be greater than free_blocks_low (" + std::to_string(gc.free_blocks_low) + ")");
  // A sample of more blocks than a die has cannot be drawn (d = blocks per die is greedy).
  const std::uint32_t blocks_per_die = c_.nand.planes_per_die > 1 ? c_.nand.blocks_per_plane  // docs/planes.md
                                                                  : c_.nand.blocks_per_die();
  if (gc.policy == GcPolicyKind::kDChoice && gc.d_choices > blocks_per_die)
    fail_cross(node, "controller.gc", "d_choices",
               {"controller.gc.policy", "nand.planes_per_die", "nand.blocks_per_plane"},
               "samples more blocks than a die has: d_choices " + std::to_string(gc.d_choices) + ", but a die has " +
                   std::to_string(blocks_per_die) + " blocks (use 1.." + std::to_string(blocks_per_die) + ")");
}

// A mapping unit divides the page, or is k pages (k a power of two, at most
// kMaxPagesPerUnit) that tile the dies: a virtual page over a group of k dies
// (docs/virtual-pages.md).
void DriveParser::check_mapping_unit(const YAML::Node& controller) {
  ControllerConfig& ctl = c_.controller;
  const YAML::Node node = controller["mapping_unit"];
  const std::string text =
      node ? node.Scalar() : "the default " + find_param(drive_params(), "controller.mapping_unit")->default_text;
  const std::uint64_t unit = ctl.mapping_unit_bytes;  // read and checked by the table pass
  const std::uint64_t page = c_.nand.page_size_bytes;
  if (unit <= page ? page % unit != 0 : !valid_virtual_page(unit)) {
    fail_cross(controller, "controller", "mapping_unit", {"nand.page_size", "nand.channels", "nand.dies_per_channel"},
               text + " " + mapping_unit_problem(unit) + "; nearest that fit: " + nearest_mapping_units(unit) +
                   " (a divisor of nand.page_size " + format_size(page) + ", or k pages, k a power of two <= " +
                   std::to_string(kMaxPagesPerUnit) + " dividing the " + std::to_string(c_.nand.dies()) + " dies)");
  }
  const std::uint64_t units = c_.nand.raw_bytes() / unit;
  if (units > kMaxMappingUnits)
    fail_cross(controller, "controller", "mapping_unit", kGeometryKeys,
               "geometry too large for 31-bit unit addresses: " + std::to_string(units) + " mapping units of " +
                   format_size(unit) + " (limit " + std::to_string(kMaxMappingUnits) + "); use a larger mapping_unit");
}

bool DriveParser::valid_virtual_page(std::uint64_t unit) const {
  const std::uint64_t page = c_.nand.page_size_bytes;
  if (unit <= page || unit % page != 0) return false;
  const std::uint64_t k = unit / page;
  return (k & (k - 1)) == 0 && k <= kMaxPagesPerUnit && c_.nand.dies() % k == 0;
}

std::string DriveParser::mapping_unit_problem(std::uint64_t unit) const {
  const std::uint64_t page = c_.nand.page_size_bytes;
  if (unit < page) return "does not divide nand.page_size (" + format_size(page) + ")";
  if (unit % page != 0) return "is not a whole number of pages of nand.page_size (" + format_size(page) + ")";
  const std::uint64_t k = unit / page;
  if (k > kMaxPagesPerUnit || (k & (k - 1)) != 0)
    return "is " + std::to_string(k) + " pages: a virtual page holds a power of two of at most " +
           std::to_string(kMaxPagesPerUnit);
  return "is " + std::to_string(k) + " pages, one per die of a stripe group, which do not tile the " +
         std::to_string(c_.nand.dies()) + " dies (" + std::to_string(c_.nand.channels) + " channels x " +
         std::to_string(c_.nand.dies_per_channel) + ")";
}

// The valid units next below and above `unit` (one of them when there is no other).
std::string DriveParser::nearest_mapping_units(std::uint64_t unit) const {
  const std::uint64_t page = c_.nand.page_size_bytes;
  const auto valid = [&](std::uint64_t u) {
    return u >= kSectorBytes && (u <= page ? page % u == 0 : valid_virtual_page(u));
  };
  // mapping_unit is a power of two (the table says so): so are its neighbours.
  std::uint64_t below = 0, above = 0;
  for (std::uint64_t u = kSectorBytes; u <= page * kMaxPagesPerUnit; u *= 2) {
    if (!valid(u)) continue;
    if (u < unit) below = u;
    if (u > unit && !above) above = u;
  }
  std::string out;
  for (const std::uint64_t u : {below, above}) {
    if (!u) continue;
    if (!out.empty()) out += " or ";
    out += format_size(u);
    if (u > page) out += " (" + std::to_string(u / page) + " pages)";
  }
  return out;
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
  if (op) {  // ctl.op was read by the table pass
    ctl.user_bytes = user_bytes_for_op(raw, ctl.op, ctl.mapping_unit_bytes);
    if (ctl.user_bytes == 0)
      fail_cross(controller, "controller", "op", plus({"controller.mapping_unit"}, kGeometryKeys),
                 "leaves no user capacity (raw " + format_size(raw) + ")");
    return;
  }
  const std::string path = "controller.capacity";
  const std::uint64_t bytes = ctl.user_bytes;  // read by the table pass (> 0)
  if (bytes % kSectorBytes != 0)
    src_.fail(capacity, path, "capacity " + capacity.Scalar() + " is not a whole number of 512-byte sectors");
  if (bytes > raw)
    fail_cross(controller, "controller", "capacity", kGeometryKeys,
               "capacity " + capacity.Scalar() + " exceeds the raw capacity (" + format_size(raw) + ")");
  ctl.user_bytes = bytes;
  ctl.op = 1.0 - static_cast<double>(bytes) / static_cast<double>(raw);
}

void DriveParser::check_spare_blocks(const YAML::Node& controller) {
  const NandConfig& n = c_.nand;
  const ControllerConfig& ctl = c_.controller;
  // GC's blocks: with multi-plane operations a block on each plane (docs/planes.md).
  const std::uint64_t block_bytes = std::uint64_t(n.pages_per_block) * n.page_size_bytes * n.planes_per_die;
  const std::uint64_t blocks = n.blocks() / n.planes_per_die;
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
    message += ", more than its " + std::to_string(n.blocks_per_plane) +
               " blocks; lower controller.gc.free_blocks_high or add blocks";
  } else {
    const double min_op = std::ceil(static_cast<double>(needed) / blocks * 1e4) / 1e4;
    message +=
        "; use op >= " + fraction_text(min_op) + " (capacity <= " + format_size((blocks - needed) * block_bytes) + ")";
  }
  fail_cross(controller, "controller", by_op ? "op" : "capacity",
             plus({"controller.gc.free_blocks_high"}, kGeometryKeys), message);
}

// Static wear levelling takes a cold block out of the victim lists as GC's next victim: the page
// mapping's GC only, and not FIFO's, whose order takes every closed block in turn anyway.
void DriveParser::check_wear(const YAML::Node& controller) {
  const ControllerConfig& ctl = c_.controller;
  if (ctl.wear.mode != WearLeveling::kStatic) return;
  const YAML::Node wear = controller["wear_leveling"];
  if (ctl.ftl == FtlScheme::kHybrid)
    fail_cross(wear, "controller.wear_leveling", "mode", {"controller.ftl"},
               "static wear levelling migrates cold blocks through page mapping's GC; a hybrid FTL "
               "(controller.ftl: hybrid) has none: use mode: dynamic or none, or ftl: page");
  if (ctl.gc.policy == GcPolicyKind::kFifo)
    fail_cross(wear, "controller.wear_leveling", "mode", {"controller.gc.policy"},
               "static wear levelling chooses cold blocks as GC victims out of order; FIFO collects every closed "
               "block in turn already: use mode: dynamic or none, or another controller.gc.policy");
}

// controller.ftl: hybrid. Each die holds the data blocks of its logical blocks, its share of the
// log pool and one free block for a merge's destination.
void DriveParser::check_hybrid(const YAML::Node& controller) {
  const ControllerConfig& ctl = c_.controller;
  if (ctl.ftl != FtlScheme::kHybrid) return;
  // A hybrid FTL merges into the die of a logical block; it has no GC copies to stripe.
  if (ctl.gc.relocation == GcRelocation::kStriped)
    fail_cross(controller["gc"], "controller.gc", "relocation", {"controller.ftl"},
               "striped relocation is garbage collection of page mapping: a hybrid FTL (controller.ftl: hybrid) "
               "merges each logical block on its own die; use relocation: in_die or ftl: page");
  const NandConfig& n = c_.nand;
  if (ctl.mapping_unit_bytes != n.page_size_bytes)
    fail_cross(controller, "controller", "ftl", {"controller.mapping_unit", "nand.page_size"},
               "hybrid maps one mapping unit per page: mapping_unit (" + format_size(ctl.mapping_unit_bytes) +
                   ") must equal nand.page_size (" + format_size(n.page_size_bytes) + ")");
  // Units are striped over the dies; a die's units make its logical blocks (hybrid_map.h).
  const std::uint64_t units_per_die = (ctl.user_bytes / ctl.mapping_unit_bytes + n.dies() - 1) / n.dies();
  const std::uint64_t data_per_die = (units_per_die + n.pages_per_block - 1) / n.pages_per_block;
  const std::uint64_t min_per_die = ctl.hybrid.scheme == HybridScheme::kFast ? 2 : 1;
  const std::uint64_t room = n.blocks_per_die() > data_per_die + 1 ? n.blocks_per_die() - data_per_die - 1 : 0;
  const std::uint64_t per_die = ctl.hybrid.log_blocks == 0 ? room : ctl.hybrid.log_blocks / n.dies();
  if (per_die <= room && per_die >= min_per_die) return;
  const YAML::Node hybrid = controller["hybrid"];
  const std::string fits = room < min_per_die ? "none fit: lower controller.op's user capacity"
                                              : "use " + std::to_string(min_per_die * n.dies()) + ".." +
                                                    std::to_string(room * n.dies()) + " (or 0 for all of them)";
  const std::string message = std::to_string(ctl.hybrid.log_blocks) + " log blocks (" + std::to_string(per_die) +
                              " per die) do not fit: a die has " + std::to_string(n.blocks_per_die()) + " blocks, " +
                              std::to_string(data_per_die) + " of them data blocks and 1 a merge destination, and " +
                              to_string(ctl.hybrid.scheme) + " needs at least " + std::to_string(min_per_die) +
                              " log blocks per die; " + fits;
  fail_cross(hybrid ? hybrid : controller, hybrid ? "controller.hybrid" : "controller", hybrid ? "log_blocks" : "ftl",
             plus({"controller.ftl", "controller.hybrid.scheme", "controller.op"}, kGeometryKeys), message);
}

// controller.slc_cache: MLC or TLC NAND (an SLC-mode block is its LSB pages), page mapping with
// separate GC blocks (GC's copies, the fold, go to full blocks), and a static cache's blocks out of
// the spare beyond GC's needs.
void DriveParser::check_slc_cache(const YAML::Node& controller) {
  const ControllerConfig& ctl = c_.controller;
  const SlcCacheConfig& slc = ctl.slc_cache;
  if (slc.mode == SlcCacheMode::kOff) return;
  const YAML::Node node = controller["slc_cache"];
  const NandConfig& n = c_.nand;
  if (n.page_types() < 2)
    fail_cross(node, "controller.slc_cache", "mode", {"nand.cell"},
               "an SLC cache programs MLC or TLC blocks one bit per cell; the NAND is already SLC: use mode: off");
  if (ctl.ftl == FtlScheme::kHybrid)
    fail_cross(node, "controller.slc_cache", "mode", {"controller.ftl"},
               "the SLC cache is folded by page mapping's GC; a hybrid FTL (controller.ftl: hybrid) has none: use "
               "ftl: page or mode: off");
  if (ctl.gc.destination == GcDestination::kShared)
    fail_cross(node, "controller.slc_cache", "mode", {"controller.gc.destination"},
               "GC folds the cache's blocks into its own full blocks; with destination: shared its copies would go "
               "back into the host's (SLC-mode) block: use destination: separate or mode: off");
  if (slc.size_bytes == 0)
    fail_cross(node, "controller.slc_cache", "size", {"controller.slc_cache.mode"},
               "must be above 0 with mode: " + std::string(to_string(slc.mode)));
  const std::uint64_t slc_block = slc_block_bytes(n);
  const std::uint64_t per_die = slc_cache_blocks_per_die(c_);
  const std::uint64_t block_bytes = std::uint64_t(n.pages_per_block) * n.page_size_bytes;
  const std::uint64_t used = (ctl.user_bytes + block_bytes - 1) / block_bytes;
  const std::uint64_t spare = (n.blocks() - used) / n.dies();
  const std::uint64_t gc_needs = std::uint64_t(ctl.gc.free_blocks_high) + 2;
  // A full static cache holds per_die / types blocks of data in per_die blocks.
  const std::uint64_t extra = slc.mode == SlcCacheMode::kStatic ? per_die - per_die / n.page_types() : 0;
  const std::uint64_t room = spare > gc_needs ? spare - gc_needs : 0;
  if (per_die <= n.blocks_per_die() && extra <= room) return;
  fail_cross(node, "controller.slc_cache", "size",
             plus({"controller.op", "controller.gc.free_blocks_high"}, kGeometryKeys),
             format_size(slc.size_bytes) + " is " + std::to_string(per_die) + " SLC-mode blocks per die (" +
                 format_size(slc_block) + " each), " +
                 (per_die > n.blocks_per_die()
                      ? "more than a die's " + std::to_string(n.blocks_per_die()) + " blocks"
                      : "and a full static cache takes " + std::to_string(extra) +
                            " blocks per die beyond its data, more than the spare beyond GC's needs (" +
                            std::to_string(room) + "): lower the size or raise controller.op"));
}

// Multi-plane operations (docs/planes.md): the FTL's page is a page on each plane. Not combined
// (yet) with mechanisms that address single flash pages themselves.
void DriveParser::check_planes(const YAML::Node& controller) {
  const NandConfig& n = c_.nand;
  if (n.planes_per_die == 1) return;
  const ControllerConfig& ctl = c_.controller;
  const std::string planes =
      "with nand.planes_per_die " + std::to_string(n.planes_per_die) + " (multi-plane operations, docs/planes.md) ";
  if (ctl.mapping_unit_bytes > n.page_size_bytes)
    fail_cross(controller, "controller", "mapping_unit", {"nand.planes_per_die", "nand.page_size"},
               planes + "a mapping unit is at most one page (" + format_size(n.page_size_bytes) +
                   "): virtual pages over dies are not combined with planes, got " +
                   format_size(ctl.mapping_unit_bytes));
  if (ctl.ftl == FtlScheme::kHybrid)
    fail_cross(controller, "controller", "ftl", {"nand.planes_per_die"},
               planes + "the FTL is page mapping: the hybrid log-block map programs single pages");
  if (ctl.slc_cache.mode != SlcCacheMode::kOff)
    fail_cross(controller["slc_cache"], "controller.slc_cache", "mode", {"nand.planes_per_die"},
               planes + "there is no SLC cache yet: use mode: off");
}

void DriveParser::check_read_ahead(const YAML::Node& controller) {
  const ControllerConfig& ctl = c_.controller;
  if (ctl.read_ahead_bytes == 0) return;
  const YAML::Node node = controller["read_ahead"];
  if (ctl.read_ahead_bytes % ctl.mapping_unit_bytes != 0)
    fail_cross(node, "controller.read_ahead", "depth", {"controller.mapping_unit"},
               "must be a multiple of the mapping unit (" + format_size(ctl.mapping_unit_bytes) + "), got " +
                   format_size(ctl.read_ahead_bytes));
  if (ctl.read_ahead_bytes / ctl.mapping_unit_bytes > 65536)
    fail_cross(node, "controller.read_ahead", "depth", {"controller.mapping_unit"},
               "at most 65536 mapping units, got " + std::to_string(ctl.read_ahead_bytes / ctl.mapping_unit_bytes));
  if (ctl.mapping_cache_bytes != 0 && ctl.ftl == FtlScheme::kPage)
    fail_cross(node, "controller.read_ahead", "depth", {"controller.mapping_cache"},
               "read-ahead needs the whole mapping table in DRAM (mapping_cache: 0): its reads do not wait for "
               "translation pages");
  if (ctl.mapping_unit_bytes > c_.nand.page_size_bytes)
    fail_cross(node, "controller.read_ahead", "depth", {"controller.mapping_unit", "nand.page_size"},
               "read-ahead reads whole units of at most a page; mapping units of several pages (virtual pages) are "
               "not supported");
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

}  // namespace ssdlab
