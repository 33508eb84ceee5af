// The flash's health as the firmware tracks it for reads (plain C++): per block the reads it
// took since its erase and when it was last programmed, and for each read the error model's
// verdict, written into the op before it goes to its die (NandOp::retries and status): the die
// times the retries, the controller reports an uncorrectable read to the host as a media error.
// Exists only with nand.errors.enabled; its cost when off is one test per batch of ops.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "base/config/config.h"
#include "base/config/geometry.h"
#include "base/core/nand_op.h"
#include "controller/media/bit_errors.h"

namespace ssdlab {

struct MediaStats {
  static constexpr std::size_t kRetryBuckets = 17;  // reads by retries: 0..15, then 16 or more
  std::uint64_t reads = 0;                          // reads decoded (host, GC and mapping table)
  std::uint64_t retried_reads = 0;                  // ... that needed at least one retry
  std::uint64_t retries = 0;                        // retry attempts in all
  std::array<std::uint64_t, 3> uncorrectable{};     // reads no attempt decoded, by origin (OpOrigin)
  std::array<std::uint64_t, kRetryBuckets> by_retries{};
  std::uint64_t rber_sum_e12 = 0;  // the reads' first-attempt raw bit error rates, in 1e-12, summed
  double rber_max = 0;
};

class MediaHealth {
 public:
  MediaHealth(const DriveConfig& config, const Geometry& geometry);

  // `op` goes to its die now (`now_s`, simulated seconds); `erases`: its block's erase count.
  // A read gets its verdict; a program stamps its block's data age; an erase clears the block's
  // read count.
  void submit(NandOp& op, std::uint32_t erases, double now_s) {
    switch (op.kind) {
      case NandOpKind::kRead:
        decide(op, erases, now_s);
        break;
      case NandOpKind::kProgram:
        m_written_s[op.block] = now_s;
        break;
      case NandOpKind::kErase:
        m_reads[op.block] = 0;
        break;
    }
  }
  // The aging knob (a scenario's `wear:` phase): the data every block holds now is `seconds`
  // older. What is written afterwards starts fresh.
  void age(double seconds) {
    for (double& w : m_written_s) w -= seconds;
  }
  // Data written without simulated time (a fast precondition, an image load, a secure erase):
  // every block's data counts as written now, and as read never since its erase.
  void rewritten(double now_s) {
    std::fill(m_written_s.begin(), m_written_s.end(), now_s);
    std::fill(m_reads.begin(), m_reads.end(), 0);
  }
  // The state a read of `page` in `block` would see now (for reports and tests).
  PageWear wear_of(std::uint32_t block, std::uint32_t page, std::uint32_t erases, double now_s) const {
    return PageWear{erases, now_s - m_written_s[block], m_reads[block], page % m_page_types};
  }
  const MediaStats& stats() const { return m_stats; }
  const BitErrorModel& model() const { return m_model; }
  const EccModel& ecc() const { return m_ecc; }

 private:
  void decide(NandOp& op, std::uint32_t erases, double now_s);

  BitErrorModel m_model;
  EccModel m_ecc;
  std::uint64_t m_seed;
  std::uint32_t m_page_types;
  std::vector<double> m_written_s;     // per block: when it was last programmed (0: before the run)
  std::vector<std::uint32_t> m_reads;  // per block: reads since its erase
  MediaStats m_stats;
};

}  // namespace ssdlab
