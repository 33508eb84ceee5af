// Hybrid log-block FTL (`controller.ftl: hybrid`): the mapping policy the Ftl follows instead
// of page mapping plus GC. Plain C++, no SystemC.
//
// Data blocks are block-mapped: a logical block (upb = pages per block units, one unit per page)
// lives in one physical block, each unit at the page of its offset in the logical block. New
// data goes to page-mapped log blocks from a small pool; a full pool or a full log is resolved by
// a merge, appended to the OpList as timed NAND reads, programs and erases on the die:
//   switch  a log written in order over its whole block becomes the data block (1 erase: the old one);
//   partial a log written in order from page 0 is completed from the data block, then switched;
//   full    every valid unit of the logical block is gathered into a free block (reads +
//           programs), then the old data block and the logs left empty are erased.
// Schemes (controller.hybrid.scheme):
//   fast (Lee et al. 2007): per die one sequential log (a write at offset 0 starts it, writes in
//        order extend it) and random logs shared by all logical blocks, filled in turn; the pool
//        full, the oldest random log is the victim: a full merge for each logical block it holds.
//   bast (Kim et al. 2002): a log block per logical block; a full log is merged, and a logical
//        block without a log when the pool is full takes the oldest log's place (it is merged).
// Units are striped over the dies (unit u on die u % dies, as controllers of the time striped a
// "virtual block" over their channels): sequential host data goes to every die at once and each
// die sees it in order. A logical block is upb consecutive units of one die: logical block b is
// on die b % dies (its data, its logs, its merges), and the controller sends a host page to
// home_die(). Victim choices look at the die's log pool only, never at all blocks.
//
// The Ftl keeps its per-unit L2P/P2L tables as before: for the hybrid they are the simulator's
// index of where each unit's newest copy is (what the firmware finds from the block map and the
// log-page map); the mapping memory the scheme needs is map_bytes(). That map fits the SRAM of a
// 2009 controller, so a hybrid drive has no translation-page traffic (controller.mapping_cache
// is not used).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/config/geometry.h"
#include "base/core/nand_op.h"
#include "base/core/types.h"

namespace ssdlab {

class FtlCore;  // controller/ftl/ftl_core.h: the tables it works on
class StatGroup;

struct HybridStats {
  std::uint64_t switch_merges = 0;
  std::uint64_t partial_merges = 0;
  std::uint64_t full_merges = 0;
  std::uint64_t merge_reads = 0;   // units read (and programmed again) by merges
  std::uint64_t merge_erases = 0;  // blocks erased by merges
  std::uint64_t logs_opened = 0;
};

class HybridMap {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  HybridMap(const Geometry& geo, std::uint32_t user_units, const HybridConfig& config);

  std::uint32_t home_die(Lpn lpn) const { return lpn % m_dies; }
  // The logical block of `lpn`, and its offset in it (its page in the data block).
  std::uint32_t lbn_of(Lpn lpn) const { return (lpn / m_dies) / m_upb * m_dies + lpn % m_dies; }
  std::uint32_t offset_of(Lpn lpn) const { return (lpn / m_dies) % m_upb; }
  // The unit at `offset` of logical block `lbn` (at or beyond user_units for the drive's last blocks).
  std::uint64_t unit_of(std::uint32_t lbn, std::uint32_t offset) const {
    return (std::uint64_t(lbn / m_dies) * m_upb + offset) * m_dies + lbn % m_dies;
  }
  // Programs host unit `lpn` (whose L2P entry is buffered) into a log on its home die `die`,
  // appending the merges that needs first. Always succeeds (the config check keeps a free
  // block for a merge on every die).
  void place(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t cookie, std::vector<NandOp>& ops);
  // Every block free again (the Ftl's secure erase).
  void clear();

  HybridScheme scheme() const { return m_config.scheme; }
  std::uint32_t logs_per_die() const { return m_logs_per_die; }
  std::uint32_t logical_blocks() const { return static_cast<std::uint32_t>(m_data.size()); }
  // Bytes the scheme's map needs: 4 per logical block (data block number), and per log block
  // its header (8) and a map entry per page: fast 4 bytes (the unit's LPN, any logical block),
  // bast 2 (the page offset within its one logical block).
  std::uint64_t map_bytes() const;
  std::uint32_t log_blocks_in_use(std::uint32_t die) const;
  bool is_log(std::uint32_t block) const { return m_role[block] == Role::kLog; }
  bool is_data(std::uint32_t block) const { return m_role[block] == Role::kData; }
  std::uint32_t data_block(std::uint32_t lbn) const { return m_data[lbn]; }
  const HybridStats& stats() const { return m_stats; }
  void register_stats(const StatGroup& group) const;

  // Everything placement and merges rely on, against the Ftl's tables: roles against block
  // states and free pools, the block map and the log lists pointing back, data-block page
  // offsets, what each log may hold (its die, its logical block, nothing valid past its write
  // position), a log marked as written in order really being so and newer than its data block,
  // pool limits and a free block per die. Empty when all hold (hybrid_check.cpp).
  std::string check(const FtlCore& ftl) const;

  // The map in a drive image (section HYBR of Ftl::save, hybrid_image.cpp): per block its role,
  // owner, write position and order flag, per die its log lists, and the statistics.
  void save(std::ostream& out) const;
  // Reads a HYBR section into this map (built for the same drive): every field range-checked,
  // the block map and BAST's log table rebuilt. Throws ImageFormatError. Whether the FTL can go
  // on from it is check()'s to say, once the Ftl's tables are loaded too.
  void load(std::istream& in, bool verify_checksums);
  // Upper bound of the section save() writes.
  std::uint64_t image_max_bytes() const;

 private:
  enum class Role : std::uint8_t { kFree, kData, kLog };
  struct Die {
    std::vector<std::uint32_t> logs;  // fast: random logs, bast: all logs; oldest first
    std::uint32_t sw = kNone;         // fast: the sequential log
  };
  std::uint32_t logs_in_use(const Die& d) const {
    return static_cast<std::uint32_t>(d.logs.size()) + (d.sw != kNone ? 1 : 0);
  }

  void place_fast(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t cookie, std::vector<NandOp>& ops);
  void place_bast(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t cookie, std::vector<NandOp>& ops);
  // The next page of log `block`: a host unit (cookie) or nothing else.
  void append_log(FtlCore& ftl, std::uint32_t die, std::uint32_t block, Lpn lpn, std::uint32_t cookie,
                  std::vector<NandOp>& ops);
  std::uint32_t take_block(FtlCore& ftl, std::uint32_t die, Role role, std::uint32_t owner);
  void erase_block(FtlCore& ftl, std::uint32_t die, std::uint32_t block, std::vector<NandOp>& ops);
  // Reads lpn's valid copy and programs it to `page` of `block` (a merge copy).
  void copy_unit(FtlCore& ftl, std::uint32_t die, Lpn lpn, std::uint32_t block, std::uint32_t page,
                 std::vector<NandOp>& ops);
  void program_unit(FtlCore& ftl, std::uint32_t die, std::uint32_t block, std::uint32_t page, Lpn lpn, OpOrigin origin,
                    std::uint32_t cookie, std::vector<NandOp>& ops);
  // A log block is merged: switch/partial if written in order (and allowed), else full.
  void merge_log(FtlCore& ftl, std::uint32_t die, std::uint32_t log, std::vector<NandOp>& ops);
  void switch_log(FtlCore& ftl, std::uint32_t die, std::uint32_t log, std::vector<NandOp>& ops);
  void full_merge(FtlCore& ftl, std::uint32_t die, std::uint32_t lbn, std::vector<NandOp>& ops);
  // fast: the oldest random log goes (a full merge of each logical block it holds).
  void evict_random_log(FtlCore& ftl, std::uint32_t die, std::vector<NandOp>& ops);
  // The log is no longer one (merged or switched): out of the die's lists.
  void forget_log(std::uint32_t die, std::uint32_t log);
  std::string check_block(const FtlCore& ftl, std::uint32_t block) const;

  Geometry m_geo;
  HybridConfig m_config;
  std::uint32_t m_upb, m_dies, m_user_units, m_logs_per_die;
  std::vector<Role> m_role;              // per block
  std::vector<std::uint32_t> m_owner;    // per block: the logical block of a data block, a bast or sequential log
  std::vector<std::uint32_t> m_next;     // per block: next page of a log
  std::vector<std::uint8_t> m_in_order;  // per block: a log whose page i holds unit i of its owner
  std::vector<std::uint32_t> m_data;     // per logical block: its data block or kNone
  std::vector<std::uint32_t> m_log_of;   // bast, per logical block: its log or kNone
  std::vector<Die> m_die_state;
  HybridStats m_stats;
};

}  // namespace ssdlab
