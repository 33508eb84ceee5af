// The hybrid log-block map in a drive image: section HYBR of Ftl::save (ftl_image.cpp), present
// only when the drive is a hybrid one (controller.ftl: hybrid).
//
//   u32 scheme  u32 log blocks per die  u32 logical blocks
//   u8 role[blocks]  u32 owner[blocks]  u32 next page[blocks]  u8 written in order[blocks]
//   per die: u32 sequential log (FAST)  u32 n  u32 logs[n], oldest first
//   6 x u64 statistics (HybridStats, in declaration order)
//
// load() checks ranges and rebuilds what the per-block fields imply (the block map, BAST's log
// of each logical block); check() then decides, against the Ftl's own tables, whether placement
// and merges can go on from the state (hybrid_check.cpp).
#include <array>
#include <istream>
#include <ostream>

#include "controller/ftl/ftl_image.h"
#include "controller/ftl/hybrid/hybrid_map.h"

namespace ssdlab {

namespace {

constexpr std::uint64_t kHeaderBytes = 3 * 4;
constexpr std::uint64_t kPerBlockBytes = 1 + 4 + 4 + 1;
constexpr std::uint64_t kPerDieFixedBytes = 4 + 4;
constexpr std::uint64_t kStatsBytes = 6 * 8;

[[noreturn]] void corrupt(const std::string& what) { throw ImageFormatError("FTL image: hybrid map: " + what); }

// The statistics' fields in the order the section holds them.
std::array<std::uint64_t*, 6> stat_fields(HybridStats& s) {
  return {&s.switch_merges, &s.partial_merges, &s.full_merges, &s.merge_reads, &s.merge_erases, &s.logs_opened};
}

}  // namespace

std::uint64_t HybridMap::image_max_bytes() const {
  return kHeaderBytes + kPerBlockBytes * std::uint64_t(m_geo.blocks) +
         std::uint64_t(m_dies) * (kPerDieFixedBytes + 4 * std::uint64_t(m_logs_per_die)) + kStatsBytes;
}

void HybridMap::save(std::ostream& out) const {
  std::uint64_t listed = 0;
  for (const Die& d : m_die_state) listed += d.logs.size();
  const std::uint64_t length = kHeaderBytes + kPerBlockBytes * std::uint64_t(m_geo.blocks) +
                               std::uint64_t(m_dies) * kPerDieFixedBytes + 4 * listed + kStatsBytes;
  image::SectionWriter s(out, "HYBR", length);
  s.put<std::uint32_t>(static_cast<std::uint32_t>(m_config.scheme));
  s.put<std::uint32_t>(m_logs_per_die);
  s.put<std::uint32_t>(static_cast<std::uint32_t>(m_data.size()));
  std::vector<std::uint8_t> roles(m_role.size());
  for (std::size_t b = 0; b < m_role.size(); ++b) roles[b] = static_cast<std::uint8_t>(m_role[b]);
  s.put_all(roles);
  s.put_all(m_owner);
  s.put_all(m_next);
  s.put_all(m_in_order);
  for (const Die& d : m_die_state) {
    s.put<std::uint32_t>(d.sw);
    s.put<std::uint32_t>(static_cast<std::uint32_t>(d.logs.size()));
    s.put_all(d.logs);
  }
  HybridStats stats = m_stats;
  for (const std::uint64_t* f : stat_fields(stats)) s.put<std::uint64_t>(*f);
  s.finish();
}

void HybridMap::load(std::istream& in, bool verify_checksums) {
  const std::uint64_t fixed = kHeaderBytes + kPerBlockBytes * std::uint64_t(m_geo.blocks) +
                              std::uint64_t(m_dies) * kPerDieFixedBytes + kStatsBytes;
  image::SectionReader s(in, "HYBR", "hybrid map (an image of a page-mapped drive has none)", fixed, image_max_bytes(),
                         verify_checksums);
  s.verify_first();  // the log counts decide how the rest is read
  const auto scheme = s.get<std::uint32_t>();
  const auto logs_per_die = s.get<std::uint32_t>();
  const auto lbns = s.get<std::uint32_t>();
  if (scheme != static_cast<std::uint32_t>(m_config.scheme) || logs_per_die != m_logs_per_die ||
      lbns != m_data.size()) {
    corrupt("saved for scheme " + std::to_string(scheme) + " with " + std::to_string(logs_per_die) +
            " log blocks per die and " + std::to_string(lbns) + " logical blocks, this drive has scheme " +
            std::to_string(static_cast<std::uint32_t>(m_config.scheme)) + ", " + std::to_string(m_logs_per_die) +
            " and " + std::to_string(m_data.size()));
  }
  const std::uint32_t blocks = m_geo.blocks;
  const std::vector<std::uint8_t> roles = s.get_all<std::uint8_t>(blocks);
  std::vector<std::uint32_t> owner = s.get_all<std::uint32_t>(blocks);
  std::vector<std::uint32_t> next = s.get_all<std::uint32_t>(blocks);
  std::vector<std::uint8_t> in_order = s.get_all<std::uint8_t>(blocks);
  std::vector<Role> role(blocks);
  std::vector<std::uint32_t> data(m_data.size(), kNone);
  std::vector<std::uint32_t> log_of(m_log_of.size(), kNone);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    if (roles[b] > static_cast<std::uint8_t>(Role::kLog) || in_order[b] > 1 || next[b] > m_upb ||
        (owner[b] != kNone && owner[b] >= lbns)) {
      corrupt("block " + std::to_string(b) + ": role, owner, write position or order flag out of range");
    }
    role[b] = static_cast<Role>(roles[b]);
    // The block map and BAST's log table: one data block and one log per logical block at most.
    std::vector<std::uint32_t>* table = role[b] == Role::kData                     ? &data
                                        : role[b] == Role::kLog && !log_of.empty() ? &log_of
                                                                                   : nullptr;
    if (!table || owner[b] == kNone) {
      if (role[b] == Role::kData) corrupt("data block " + std::to_string(b) + " belongs to no logical block");
      continue;
    }
    if ((*table)[owner[b]] != kNone) {
      corrupt("logical block " + std::to_string(owner[b]) + " has two " +
              (role[b] == Role::kData ? "data blocks" : "logs") + ": " + std::to_string((*table)[owner[b]]) + " and " +
              std::to_string(b));
    }
    (*table)[owner[b]] = b;
  }
  std::vector<Die> dies(m_dies);
  for (std::uint32_t die = 0; die < m_dies; ++die) {
    Die& d = dies[die];
    d.sw = s.get<std::uint32_t>();
    const auto n = s.get<std::uint32_t>();
    if ((d.sw != kNone && d.sw >= blocks) || n > m_logs_per_die) {
      corrupt("die " + std::to_string(die) + ": sequential log " + std::to_string(d.sw) + " or " + std::to_string(n) +
              " logs out of range");
    }
    d.logs = s.get_all<std::uint32_t>(n);
    for (const std::uint32_t b : d.logs) {
      if (b >= blocks) corrupt("die " + std::to_string(die) + " lists log " + std::to_string(b) + " outside the drive");
    }
    d.logs.reserve(m_logs_per_die);
  }
  HybridStats stats;
  for (std::uint64_t* f : stat_fields(stats)) *f = s.get<std::uint64_t>();
  s.finish();
  m_role = std::move(role);
  m_owner = std::move(owner);
  m_next = std::move(next);
  m_in_order = std::move(in_order);
  m_data = std::move(data);
  m_log_of = std::move(log_of);
  m_die_state = std::move(dies);
  m_stats = stats;
}

}  // namespace ssdlab
