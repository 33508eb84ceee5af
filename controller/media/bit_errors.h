// Raw bit errors and their correction (issue 26), plain C++: the raw bit error rate (RBER) of a
// page as a published characterisation gives it for its cell type, from its block's P/E cycles,
// its data's age and the reads its block took since its erase; the ECC engine's verdict on a
// read at that rate; and the read-retry attempts a page needs before it decodes, or that it
// does not. The constants and their sources are in bit_errors.cpp and docs/reliability.md.
#pragma once

#include <array>
#include <cstdint>

#include "base/config/config.h"

namespace ssdlab {

// The state a page is read in.
struct PageWear {
  std::uint32_t pe = 0;         // P/E cycles of its block
  double age_s = 0;             // seconds since its block was last programmed (retention)
  std::uint32_t reads = 0;      // reads of its block since the block's erase (read disturb)
  std::uint32_t page_type = 0;  // 0 = LSB, then CSB/MSB (page % bits per cell)
};

// RBER(pe, age, reads) = scale * f_type * (base + wear + retention + disturb), with
//   wear      = a_pe * (pe / 1000)^k_pe
//   retention = a_ret * (pe / 1000)^k_ret_pe * (age in days)^k_ret
//   disturb   = a_rd * (pe / 1000)^k_rd_pe * reads
// Each term is a power law, the form of Mielke et al. (IRPS 2008) for cycling, of Hetzler's
// fitted MLC error surface for data age, and linear in reads as Cai et al. (DSN 2015) measured.
struct RberCurve {
  double base = 0;
  double a_pe = 0, k_pe = 1;
  double a_ret = 0, k_ret_pe = 1, k_ret = 1;
  double a_rd = 0, k_rd_pe = 1;
  std::array<double, 3> page_factor{1, 1, 1};  // by page type
};

class BitErrorModel {
 public:
  BitErrorModel(CellType cell, double scale);
  // The published curve of a cell type (bit_errors.cpp cites each constant).
  static RberCurve curve(CellType cell);
  double rber(const PageWear& w) const;
  const RberCurve& constants() const { return m_curve; }

 private:
  RberCurve m_curve;
  double m_scale;
};

// What a read's decode came to: the retry attempts after the first, and whether every attempt
// (the first and `retry_levels` retries) failed.
struct ReadVerdict {
  std::uint32_t retries = 0;
  bool uncorrectable = false;
};

class EccModel {
 public:
  EccModel(const EccConfig& ecc, std::uint32_t retry_levels, double retry_gain);
  // P(a Poisson(lambda) count exceeds t): a codeword's errors (n bits at a small RBER p are
  // binomial, lambda = n p, within 1e-3 of it for n >= 4096 and p <= 1e-2).
  static double tail_above(double lambda, std::uint32_t t);
  // P(a read of `bytes` at raw bit error rate `rber` fails to decode): some codeword has more
  // than `bits` errors.
  double read_failure(double rber, std::uint32_t bytes) const;
  // The read of a page whose place in the error distribution is `u` in [0, 1): attempt k (at
  // rber * gain^k) decodes when u >= its failure probability. The same page in the same state
  // gives the same verdict; a worse state never fewer retries.
  ReadVerdict decide(double rber, std::uint32_t bytes, double u) const;
  std::uint32_t retry_levels() const { return m_levels; }

 private:
  std::uint32_t m_bits, m_codeword_bits, m_codeword_bytes, m_levels;
  double m_gain;
};

// A page's place in the error distribution, uniform in [0, 1): a hash of the seed, the page and
// its block's erase count (a new one after each erase). A counter-based generator: no state.
double page_quantile(std::uint64_t seed, std::uint32_t block, std::uint32_t page, std::uint32_t erases);

}  // namespace ssdlab
